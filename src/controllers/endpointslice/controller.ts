/**
 * The EndpointSlice controller (upstream `pkg/controller/endpointslice`): for every Service
 * with a selector, keeps discovery.k8s.io/v1 EndpointSlices labelled with the Service's name
 * and this controller's `managed-by` value, owned by the Service, listing the pods it selects.
 *
 * One queue of Service keys, fed by Service events, by the pods a Service selects (the same
 * membership rules as the endpoints controller), by changes to managed slices (so an edit or
 * deletion by someone else is repaired), and by node zone changes. A reconcile plans from the
 * caches (`plan.ts`) and writes only what differs: creates first, then updates, then deletes,
 * so readers never see a gap. As upstream, the slices of a Service that lost its selector or
 * became ExternalName are left alone, and those of a deleted Service go with the garbage
 * collector (they carry its owner reference).
 *
 * The caches lag this controller's own writes: until they show every slice it last wrote (by
 * resourceVersion, which this server orders) or deleted, the reconcile fails and retries
 * rather than plan from a state it has already replaced (upstream's `endpointSliceTracker`),
 * which would duplicate slices.
 *
 * @module
 */
import type { EndpointSlice, Pod } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { isNotFound } from '../../client/api-client.js';
import { deletedObject } from '../../client/shared-informer.js';
import { keyOf, splitKey } from '../../client/store.js';
import {
  type ControllerContext,
  type ControllerDefinition,
  RESOURCES,
} from '../../controller/context.js';
import { type ReconcileResult, runController } from '../../controller/controller.js';
import type { EventRecorder } from '../../controller/events.js';
import { type KindInformer, kindInformer } from '../../controller/kind-informer.js';
import { podNodeNameIndexers, podsOnNode } from '../../controller/pod-indexes.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { managesEndpoints } from '../endpoints/plan.js';
import { queueServicesOnEvents } from '../endpoints/pod-services.js';
import { desiredGroups } from './desired.js';
import { isManagedSliceOf, planSlices } from './plan.js';
import { WriteTracker } from './tracker.js';
import {
  ENDPOINT_SLICES_RESOURCE,
  MANAGED_BY,
  MANAGED_BY_LABEL,
  MAX_ENDPOINTS_PER_SLICE,
  SERVICE_NAME_LABEL,
  ZONE_LABEL,
} from './types.js';

/** The controller's name (logs, metrics, `--controllers`). */
export const ENDPOINT_SLICE_CONTROLLER_NAME = 'endpointslice';
/** The component its Events name as their source. */
export const ENDPOINT_SLICE_COMPONENT = 'endpoint-slice-controller';

/** Options of {@link endpointSliceController}. */
export interface EndpointSliceControllerOptions {
  /** Upstream `--max-endpoints-per-slice`. @default 100 */
  readonly maxEndpointsPerSlice?: number;
}

/** The EndpointSlice controller, for the controller manager. */
export function endpointSliceController(
  options: EndpointSliceControllerOptions = {},
): ControllerDefinition {
  return {
    name: ENDPOINT_SLICE_CONTROLLER_NAME,
    start: (ctx) => run(ctx, options.maxEndpointsPerSlice ?? MAX_ENDPOINTS_PER_SLICE),
  };
}

interface State {
  readonly ctx: ControllerContext;
  readonly services: KindInformer<'Service'>;
  readonly pods: KindInformer<'Pod'>;
  readonly nodes: KindInformer<'Node'>;
  readonly slices: KindInformer<'EndpointSlice'>;
  readonly recorder: EventRecorder;
  readonly tracker: WriteTracker;
  readonly max: number;
}

async function run(ctx: ControllerContext, max: number): Promise<void> {
  const state: State = {
    ctx,
    services: kindInformer(ctx.informers.informer(RESOURCES.services), 'Service'),
    pods: kindInformer(
      ctx.informers.informer(RESOURCES.pods, { indexers: podNodeNameIndexers }),
      'Pod',
    ),
    nodes: kindInformer(ctx.informers.informer(RESOURCES.nodes), 'Node'),
    slices: kindInformer(ctx.informers.informer(ENDPOINT_SLICES_RESOURCE), 'EndpointSlice'),
    recorder: ctx.eventRecorder(ENDPOINT_SLICE_COMPONENT),
    tracker: new WriteTracker(),
    max,
  };
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'endpoint_slice',
    metrics: ctx.metrics.queue,
  });
  registerHandlers(state, queue);
  const synced = await ctx.informers.waitForSync(
    [state.services, state.pods, state.nodes, state.slices].map((i) => i.informer),
    ctx.signal,
  );
  if (!synced) return;
  // Leftover slices whose Service went while the controller was down are found by their key.
  for (const slice of state.slices.lister.list()) {
    const key = serviceKeyOfSlice(slice);
    if (key !== undefined) queue.add(key);
  }
  await runController({
    name: ENDPOINT_SLICE_CONTROLLER_NAME,
    queue,
    reconcile: (key) => syncService(state, key),
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
  });
}

function nodeNameOf(pod: Pod): string | undefined {
  return pod.spec?.nodeName;
}

/** The Service key of a slice this controller manages, else undefined. */
function serviceKeyOfSlice(slice: KubeObject): string | undefined {
  const labels = slice.metadata?.labels ?? {};
  const name = labels[SERVICE_NAME_LABEL];
  if (labels[MANAGED_BY_LABEL] !== MANAGED_BY || name === undefined || name === '')
    return undefined;
  return keyOf(slice.metadata?.namespace, name);
}

function registerHandlers(state: State, queue: WorkQueue<string>): void {
  // A pod bound to a node after it got its IP moves only its endpoint's nodeName and zone.
  const forPod = queueServicesOnEvents(
    state.services,
    state.pods,
    (key) => queue.add(key),
    (old, cur) => nodeNameOf(old) !== nodeNameOf(cur),
  );
  state.nodes.addEventHandler({
    onUpdate: (old, cur) => {
      if (old.metadata?.labels?.[ZONE_LABEL] === cur.metadata?.labels?.[ZONE_LABEL]) return;
      // Zone changes are rare: resync every Service with pods on the node.
      for (const pod of podsOnNode(state.pods.lister, cur.metadata?.name ?? '')) forPod(pod);
    },
  });
  const forSlice = (slice: KubeObject) => {
    const key = serviceKeyOfSlice(slice);
    if (key !== undefined) queue.add(key);
  };
  state.slices.addEventHandler({
    onAdd: forSlice,
    onUpdate: (old, cur) => {
      forSlice(cur);
      forSlice(old);
    },
    onDelete: (d) => forSlice(deletedObject(d)),
  });
}

/** Upstream `syncService` for one Service key. */
async function syncService(state: State, key: string): Promise<ReconcileResult> {
  const [namespace, name] = splitKey(key);
  const cached = state.slices.lister
    .listInNamespace(namespace)
    .filter((s) => isManagedSliceOf(s, name));
  const stale = state.tracker.stale(key, cached);
  if (stale !== undefined) {
    throw new Error(`endpointslice informer cache is out of date for service ${key}: ${stale}`);
  }
  const service = state.services.lister.get(namespace, name);
  if (service === undefined) {
    // The slices carry an owner reference: the garbage collector removes them, as upstream.
    state.tracker.forget(key);
    return {};
  }
  // Upstream leaves the slices of an ExternalName or selector-less Service alone: such a
  // Service's slices are someone else's to manage (created through the API).
  if (!managesEndpoints(service)) return {};
  const zoneOf = (nodeName: string) =>
    state.nodes.lister.get('', nodeName)?.metadata?.labels?.[ZONE_LABEL];
  const groups = desiredGroups(service, state.pods.lister.listInNamespace(namespace), zoneOf);
  const plan = planSlices(service, cached, groups, state.max);
  const { client } = state.ctx;
  try {
    for (const slice of plan.create) {
      const created = await client.create({ ...ENDPOINT_SLICES_RESOURCE, namespace }, slice);
      state.tracker.wrote(key, created);
    }
    for (const slice of plan.update) {
      const ref = { ...ENDPOINT_SLICES_RESOURCE, namespace, name: slice.metadata?.name ?? '' };
      state.tracker.wrote(key, await client.update(ref, slice));
    }
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    state.recorder.event(
      service,
      'Warning',
      'FailedToUpdateEndpointSlices',
      `Error updating Endpoint Slices for Service ${key}: ${msg}`,
    );
    throw err;
  }
  await deleteSlices(state, key, plan.delete);
  return {};
}

async function deleteSlices(
  state: State,
  key: string,
  slices: readonly EndpointSlice[],
): Promise<void> {
  for (const slice of slices) {
    const ref = {
      ...ENDPOINT_SLICES_RESOURCE,
      namespace: slice.metadata?.namespace ?? '',
      name: slice.metadata?.name ?? '',
    };
    try {
      await state.ctx.client.delete(ref);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    state.tracker.deleted(key, slice);
  }
}
