/**
 * The celld operator as a controller: shared informers on fleets, reservations,
 * StorageClasses, ServiceAccounts, nodes and every kind of child; each event maps to the fleet
 * keys it concerns (children through the operator's fleet label, reservations, classes and
 * accounts through fleet indexes, nodes through the pods on them) and the workers reconcile
 * one key at a time. No timer polls: a key is requeued on the clock only when a due time
 * (a replacement, a force-delete) is pending, so a steady fleet costs no API request.
 *
 * @module
 */
import { asKind, type CelldFleet } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { isNotFound } from '../../client/api-client.js';
import { deletedObject, type SharedInformer } from '../../client/shared-informer.js';
import { objectKey } from '../../client/store.js';
import {
  type ControllerContext,
  type ControllerDefinition,
  RESOURCES,
} from '../../controller/context.js';
import { runController } from '../../controller/controller.js';
import { OwnWrites } from '../../controller/own-writes.js';
import { POD_NODE_NAME_INDEX, podNodeNameIndexers } from '../../controller/pod-indexes.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { DEFAULT_RENDER_OPTIONS } from '../render/fleet-view.js';
import { fleetReservationName } from '../reservation/index.js';
import { createFleetMetrics, type FleetMetrics } from './fleet-metrics.js';
import { fleetChanged, nodeReadiness } from './fleet-wakes.js';
import type { FleetListers } from './observe.js';
import {
  type CelldOperatorOptions,
  DEFAULT_OPERATOR_WORKERS,
  OPERATOR_COMPONENT,
  OPERATOR_CONTROLLER_NAME,
} from './options.js';
import { reconcileFleet } from './reconcile-fleet.js';
import {
  byFleetIndexers,
  FLEETS,
  fleetKeyOfChild,
  NETWORK_POLICIES,
  RESERVATIONS,
  SERVICE_ACCOUNTS,
  STORAGE_CLASSES,
  scoped,
} from './resources.js';

const BY_RESERVATION = 'celld-reservation';
const BY_STORAGE_CLASS = 'celld-storage-class';
const BY_SERVICE_ACCOUNT = 'celld-service-account';

/** The spec of a cached fleet (the schema requires one; an object without is indexed nowhere). */
function specOf(f: KubeObject): CelldFleet['spec'] | undefined {
  const fleet: Partial<CelldFleet> = asKind(f, 'CelldFleet');
  return fleet.spec;
}

const fleetIndexers = {
  [BY_RESERVATION]: (f: KubeObject): string[] => {
    const spec = specOf(f);
    if (spec === undefined || !spec.storage?.bucket) return [];
    try {
      return [fleetReservationName({ spec })];
    } catch {
      return [];
    }
  },
  [BY_STORAGE_CLASS]: (f: KubeObject): string[] => {
    const name = specOf(f)?.storage?.storageClassName;
    return name ? [name] : [];
  },
  [BY_SERVICE_ACCOUNT]: (f: KubeObject): string[] => {
    const name = specOf(f)?.serviceAccountName;
    return name ? [`${f.metadata?.namespace}/${name}`] : [];
  },
};

/** The operator definition `fleetyard up` and `fleetyard operator` run. */
export function celldOperator(options: CelldOperatorOptions): ControllerDefinition {
  let metrics: FleetMetrics | undefined;
  let clockNow: () => number = Date.now;
  const ensureMetrics = (): FleetMetrics => {
    metrics ??= createFleetMetrics(() => clockNow());
    return metrics;
  };
  return {
    name: OPERATOR_CONTROLLER_NAME,
    agent: OPERATOR_COMPONENT,
    start: (ctx) => {
      clockNow = () => ctx.clock.now();
      return run(ctx, options, ensureMetrics());
    },
    registerMetrics: (registry) => ensureMetrics().register(registry),
  };
}

/** Poll interval while the celld API group is not served yet (CRDs being installed). */
const API_POLL_MS = 100;

/**
 * Resolves once `/apis/celld.fleetyard.dev/v1alpha1` answers, so the fleet informer's first
 * list finds the endpoint: `fleetyard up` installs the CRDs while the controllers start, and a
 * standalone operator may start before an administrator applies them. False if stopped first.
 */
async function waitForFleetApi(ctx: ControllerContext): Promise<boolean> {
  const path = `/apis/${FLEETS.group}/${FLEETS.version}`;
  for (let logged = false; !ctx.signal.aborted; ) {
    try {
      await ctx.client.getPath(path, { signal: ctx.signal });
      return true;
    } catch (err) {
      if (!isNotFound(err)) throw err;
      if (!logged) ctx.log.info({ path }, 'waiting for the celld CRDs to be served');
      logged = true;
      await ctx.clock.sleep(API_POLL_MS, ctx.signal).catch(() => undefined);
    }
  }
  return false;
}

async function run(
  ctx: ControllerContext,
  options: CelldOperatorOptions,
  metrics: FleetMetrics,
): Promise<void> {
  if (!(await waitForFleetApi(ctx))) return;
  const ns = options.namespace;
  const inf = (
    type: Parameters<typeof scoped>[0],
    indexers?: Record<string, (o: KubeObject) => string[]>,
  ) => ctx.informers.informer(scoped(type, ns), indexers ? { indexers } : {});
  const fleets = inf(FLEETS, fleetIndexers);
  const pods = inf(RESOURCES.pods, { ...byFleetIndexers, ...podNodeNameIndexers });
  const claims = inf(RESOURCES.persistentvolumeclaims, byFleetIndexers);
  const children: SharedInformer<KubeObject>[] = [
    pods,
    claims,
    inf(RESOURCES.statefulsets, byFleetIndexers),
    inf(RESOURCES.deployments, byFleetIndexers),
    inf(RESOURCES.services, byFleetIndexers),
    inf(NETWORK_POLICIES, byFleetIndexers),
    inf(RESOURCES.poddisruptionbudgets, byFleetIndexers),
  ];
  const [, , statefulSets, deployments, services, networkPolicies, pdbs] = children;
  const serviceAccounts = inf(SERVICE_ACCOUNTS);
  const reservations = ctx.informers.informer(RESERVATIONS);
  const storageClasses = ctx.informers.informer(STORAGE_CLASSES);
  const nodes = ctx.informers.informer(RESOURCES.nodes);
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: OPERATOR_CONTROLLER_NAME,
    metrics: ctx.metrics.queue,
  });
  const enqueue = (key: string | undefined): void => {
    if (key !== undefined) queue.add(key);
  };
  const byIndex = (index: string, value: string): void => {
    for (const f of fleets.lister.byIndex(index, value)) enqueue(objectKey(f));
  };
  const onAny = (keys: (obj: KubeObject) => void) => ({
    onAdd: keys,
    onUpdate: (old: KubeObject, cur: KubeObject) => {
      if (old.metadata?.resourceVersion !== cur.metadata?.resourceVersion) keys(cur);
    },
    onDelete: (d: Parameters<typeof deletedObject>[0]) => keys(deletedObject(d)),
  });
  const registrations = [
    fleets.addEventHandler({
      onAdd: (f) => enqueue(objectKey(f)),
      onUpdate: (old, cur) => {
        if (fleetChanged(old, cur)) enqueue(objectKey(cur));
      },
      onDelete: (d) => enqueue(objectKey(deletedObject(d))),
    }),
    ...children.map((i) => i.addEventHandler(onAny((o) => enqueue(fleetKeyOfChild(o))))),
    reservations.addEventHandler(onAny((r) => byIndex(BY_RESERVATION, r.metadata?.name ?? ''))),
    storageClasses.addEventHandler(
      onAny((sc) => byIndex(BY_STORAGE_CLASS, sc.metadata?.name ?? '')),
    ),
    serviceAccounts.addEventHandler(onAny((sa) => byIndex(BY_SERVICE_ACCOUNT, objectKey(sa)))),
    nodes.addEventHandler({
      onAdd: () => {},
      onUpdate: (old, cur) => {
        if (nodeReadiness(old) === nodeReadiness(cur)) return;
        for (const p of pods.lister.byIndex(POD_NODE_NAME_INDEX, cur.metadata?.name ?? ''))
          enqueue(fleetKeyOfChild(p));
      },
      onDelete: (d) => {
        const node = deletedObject(d);
        for (const p of pods.lister.byIndex(POD_NODE_NAME_INDEX, node.metadata?.name ?? ''))
          enqueue(fleetKeyOfChild(p));
      },
    }),
  ];
  try {
    const all = [fleets, ...children, serviceAccounts, reservations, storageClasses, nodes];
    if (!(await ctx.informers.waitForSync(all, ctx.signal))) return;
    const listers: FleetListers = {
      fleets: fleets.lister,
      reservations: reservations.lister,
      storageClasses: storageClasses.lister,
      serviceAccounts: serviceAccounts.lister,
      services: services!.lister,
      networkPolicies: networkPolicies!.lister,
      pdbs: pdbs!.lister,
      statefulSets: statefulSets!.lister,
      deployments: deployments!.lister,
      pods: pods.lister,
      claims: claims.lister,
      nodes: nodes.lister,
    };
    const deps = {
      client: ctx.client,
      listers,
      clock: ctx.clock,
      recorder: ctx.eventRecorder(OPERATOR_COMPONENT),
      render: {
        operatorNamespace: options.operatorNamespace ?? DEFAULT_RENDER_OPTIONS.operatorNamespace,
      },
      networkPolicyEnforced: options.networkPolicyEnforced,
      localTest: options.localTest,
      ...(options.memberReplacementDelayMs === undefined
        ? {}
        : { memberReplacementDelayMs: options.memberReplacementDelayMs }),
      metrics,
      log: ctx.log,
      ownWrites: new OwnWrites<CelldFleet>(),
    };
    await runController({
      name: OPERATOR_CONTROLLER_NAME,
      queue,
      reconcile: (key) => reconcileFleet(deps, key),
      workers: options.workers ?? DEFAULT_OPERATOR_WORKERS,
      clock: ctx.clock,
      log: ctx.log,
      metrics: ctx.metrics.controller,
      signal: ctx.signal,
    });
  } finally {
    for (const r of registrations) r.remove();
    queue.shutdown();
  }
}
