/**
 * The endpoint controller (upstream `pkg/controller/endpoint`): keeps one core/v1 Endpoints per
 * selector-based Service, named after it, listing the addresses of the pods it selects.
 *
 * One queue of Service keys, fed by Service events, by the pods a Service selects (before and
 * after a pod update, see `pod-services.ts`), by Endpoints deletions (so a removed Endpoints is
 * recreated), and once after the caches sync by every existing Endpoints (a leftover whose
 * Service went while the controller was down is deleted; leader-lock Endpoints are skipped).
 * A reconcile plans from the caches and writes only when `changed` says so: create, update
 * with the cached resourceVersion (a Conflict retries), or delete when the Service is gone.
 * Services without a selector, and ExternalName ones, are left alone.
 *
 * After an update the old resourceVersion is remembered; while the cache still shows it, the
 * reconcile fails and retries rather than plan from a state it has already replaced (upstream's
 * `staleEndpointsTracker`).
 *
 * @module
 */
import { asKind, type Endpoints } from '../../api/model/index.js';
import { isJsonObject } from '../../api/object.js';
import { isNotFound } from '../../client/api-client.js';
import { StatusCodeError } from '../../client/lister-watcher.js';
import type { ResourceType } from '../../client/resource-path.js';
import { deletedObject } from '../../client/shared-informer.js';
import { objectKey, splitKey } from '../../client/store.js';
import {
  type ControllerContext,
  type ControllerDefinition,
  RESOURCES,
} from '../../controller/context.js';
import { type ReconcileResult, runController } from '../../controller/controller.js';
import type { EventRecorder } from '../../controller/events.js';
import { type KindInformer, kindInformer } from '../../controller/kind-informer.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { changed, desiredEndpoints, endpointsToWrite } from './plan.js';
import { queueServicesOnEvents } from './pod-services.js';
import { TriggerTimeTracker } from './trigger-time.js';
import { LEADER_ANNOTATION } from './types.js';

export const ENDPOINT_CONTROLLER_NAME = 'endpoint-controller';

/** core/v1 endpoints (not in `RESOURCES` yet). */
export const ENDPOINTS_RESOURCE: ResourceType = { group: '', version: 'v1', plural: 'endpoints' };

/** The endpoint controller, for the controller manager. */
export const endpointsController: ControllerDefinition = {
  name: ENDPOINT_CONTROLLER_NAME,
  start: run,
};

interface State {
  readonly ctx: ControllerContext;
  readonly services: KindInformer<'Service'>;
  readonly pods: KindInformer<'Pod'>;
  readonly endpoints: KindInformer<'Endpoints'>;
  readonly recorder: EventRecorder;
  readonly triggers: TriggerTimeTracker;
  /** Service key → the Endpoints resourceVersion this controller has already replaced. */
  readonly stale: Map<string, string>;
}

async function run(ctx: ControllerContext): Promise<void> {
  const state: State = {
    ctx,
    services: kindInformer(ctx.informers.informer(RESOURCES.services), 'Service'),
    pods: kindInformer(ctx.informers.informer(RESOURCES.pods), 'Pod'),
    endpoints: kindInformer(ctx.informers.informer(ENDPOINTS_RESOURCE), 'Endpoints'),
    recorder: ctx.eventRecorder(ENDPOINT_CONTROLLER_NAME),
    triggers: new TriggerTimeTracker(),
    stale: new Map(),
  };
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'endpoint',
    metrics: ctx.metrics.queue,
  });
  registerHandlers(state, queue);
  const synced = await ctx.informers.waitForSync(
    [state.services.informer, state.pods.informer, state.endpoints.informer],
    ctx.signal,
  );
  if (!synced) return;
  // checkLeftoverEndpoints: Endpoints whose Service is gone are found by syncing their key.
  for (const ep of state.endpoints.lister.list()) {
    if (ep.metadata?.annotations?.[LEADER_ANNOTATION] === undefined) queue.add(objectKey(ep));
  }
  await runController({
    name: ENDPOINT_CONTROLLER_NAME,
    queue,
    reconcile: (key) => syncService(state, key),
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
  });
}

function registerHandlers(state: State, queue: WorkQueue<string>): void {
  queueServicesOnEvents(state.services, state.pods, (key) => queue.add(key));
  state.endpoints.addEventHandler({
    onDelete: (d) => queue.add(objectKey(deletedObject(d))),
  });
}

/** Upstream `syncService` for one Service key. */
async function syncService(state: State, key: string): Promise<ReconcileResult> {
  const { ctx } = state;
  const [namespace, name] = splitKey(key);
  const ref = { ...ENDPOINTS_RESOURCE, namespace, name };
  const service = state.services.lister.get(namespace, name);
  if (service === undefined) {
    // The Service is gone: so is its Endpoints (a delete of nothing is a 404, ignored).
    try {
      await ctx.client.delete(ref);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    state.triggers.delete(key);
    state.stale.delete(key);
    return {};
  }
  const pods = state.pods.lister.listInNamespace(namespace);
  // Computed on every sync, written or not, so the tracker sees each trigger once.
  const triggerTime = state.triggers.compute(key, service, pods);
  const desired = desiredEndpoints(service, pods);
  if (desired === undefined) return {};
  const current = state.endpoints.lister.get(namespace, name);
  const currentRV = current?.metadata?.resourceVersion;
  if (current !== undefined && state.stale.get(key) === currentRV) {
    throw new Error(
      `endpoints informer cache is out of date, resource version ${currentRV} already processed for endpoints ${key}`,
    );
  }
  if (!changed(current, desired)) return {};
  const next = endpointsToWrite(service, current, desired, triggerTime);
  ctx.log.debug(
    { service: key, readyEndpoints: desired.ready, notreadyEndpoints: desired.notReady },
    'Update endpoints',
  );
  if (current === undefined) {
    await create(state, next, key);
    return {};
  }
  try {
    const updated = asKind(await ctx.client.update(ref, next), 'Endpoints');
    if (updated.metadata?.resourceVersion !== currentRV && currentRV !== undefined)
      state.stale.set(key, currentRV);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    state.recorder.event(
      next,
      'Warning',
      'FailedToUpdateEndpoint',
      `Failed to update endpoint ${namespace}/${name}: ${msg}`,
    );
    throw err;
  }
  return {};
}

async function create(state: State, next: Endpoints, key: string): Promise<void> {
  const [namespace, name] = splitKey(key);
  try {
    await state.ctx.client.create({ ...ENDPOINTS_RESOURCE, namespace }, next);
  } catch (err) {
    // A terminating namespace refuses creates until it is gone: drop the key, as upstream.
    if (isNamespaceTerminating(err)) return;
    const msg = err instanceof Error ? err.message : String(err);
    state.recorder.event(
      next,
      'Warning',
      'FailedToCreateEndpoint',
      `Failed to create endpoint for service ${namespace}/${name}: ${msg}`,
    );
    throw err;
  }
}

/** A Forbidden create whose Status carries the `NamespaceTerminating` cause. */
function isNamespaceTerminating(err: unknown): boolean {
  if (!(err instanceof StatusCodeError) || err.status?.reason !== 'Forbidden') return false;
  const details = err.status.details;
  const causes = isJsonObject(details) && Array.isArray(details.causes) ? details.causes : [];
  return causes.some((c) => isJsonObject(c) && c.type === 'NamespaceTerminating');
}
