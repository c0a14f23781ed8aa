/**
 * The DaemonSet controller's wiring (upstream `daemon_controller.go: NewDaemonSetsController`
 * and its handlers): informers on DaemonSets, ControllerRevisions, pods and nodes; workers run
 * {@link syncDaemonSet}, one at a time per key.
 *
 * - a pod or revision with a controllerRef wakes its DaemonSet (a pod's arrival or departure is
 *   also an observed expectation); an orphan wakes every DaemonSet that may adopt it;
 * - a pod turning Ready under `minReadySeconds` re-syncs its DaemonSet once it counts as
 *   available (minReadySeconds + 1 s);
 * - a node added wakes the DaemonSets that should run on it, a node changed those whose
 *   eligibility changed (condition heartbeats alone wake nobody). Upstream has no node-delete
 *   handler (the count catches up at the next event); here a deleted node wakes every DaemonSet,
 *   so `desiredNumberScheduled` follows at once.
 *
 * @module
 */
import type { DaemonSet, Node, Pod } from '../../api/model/index.js';
import { deepEqual } from '../../api/object.js';
import { deletedObject } from '../../client/shared-informer.js';
import type { ControllerContext, ControllerDefinition } from '../../controller/context.js';
import { RESOURCES } from '../../controller/context.js';
import { runController } from '../../controller/controller.js';
import { controllerRefOf } from '../../controller/controller-ref.js';
import { Expectations } from '../../controller/expectations.js';
import { kindInformer } from '../../controller/kind-informer.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { isPodReady } from '../replicaset/status.js';
import { FailedPodBackoff } from './backoff.js';
import {
  type DaemonSetLookup,
  daemonSetKey,
  keysForChild,
  keysForChildUpdate,
  owningDaemonSet,
} from './lookup.js';
import { nodeShouldRunDaemonPod } from './node-eligibility.js';
import { syncDaemonSet } from './sync.js';
import { DAEMONSETS } from './writes.js';

/** The controller's name in `--controllers`, logs and metrics. */
export const DAEMON_SET_CONTROLLER = 'daemonset-controller';
/** The Events' source component (upstream's recorder name). */
export const DAEMON_SET_EVENT_COMPONENT = 'daemonset-controller';

export interface DaemonSetControllerOptions {
  /** Concurrent syncs (`--concurrent-daemonset-syncs`). @default 2 */
  readonly workers?: number;
}

/** A DaemonSet controller definition. */
export function daemonSetController(
  options: DaemonSetControllerOptions = {},
): ControllerDefinition {
  return { name: DAEMON_SET_CONTROLLER, start: (ctx) => run(ctx, options) };
}

/** Upstream `shouldIgnoreNodeUpdate`: only the true conditions and resourceVersion differ. */
function onlyHeartbeat(old: Node, cur: Node): boolean {
  const trueTypes = (n: Node) =>
    (n.status?.conditions ?? [])
      .filter((c) => c.status === 'True')
      .map((c) => c.type)
      .sort();
  if (!deepEqual(trueTypes(old), trueTypes(cur))) return false;
  const strip = (n: Node) => ({
    ...n,
    metadata: { ...n.metadata, resourceVersion: '' },
    status: { ...n.status, conditions: [] },
  });
  return deepEqual(strip(old), strip(cur));
}

function podHandlers(
  lookup: DaemonSetLookup,
  expectations: Expectations,
  enqueue: (key: string) => void,
  enqueueAfter: (key: string, ms: number) => void,
) {
  const deleted = (pod: Pod): void => {
    const ds = controllerRefOf(pod) === undefined ? undefined : owningDaemonSet(lookup, pod);
    if (ds === undefined) return;
    expectations.deletionObserved(daemonSetKey(ds));
    enqueue(daemonSetKey(ds));
  };
  return {
    onAdd: (pod: Pod) => {
      if (pod.metadata?.deletionTimestamp) return deleted(pod);
      const ds = owningDaemonSet(lookup, pod);
      if (ds !== undefined) expectations.creationObserved(daemonSetKey(ds));
      for (const key of keysForChild(lookup, pod)) enqueue(key);
    },
    onUpdate: (old: Pod, cur: Pod) => {
      if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
      // A graceful delete shows first as a deletionTimestamp: replace the pod without waiting.
      if (cur.metadata?.deletionTimestamp && !old.metadata?.deletionTimestamp) return deleted(cur);
      const labelsChanged = !deepEqual(old.metadata?.labels ?? {}, cur.metadata?.labels ?? {});
      const owned = controllerRefOf(cur) !== undefined || controllerRefOf(old) !== undefined;
      if (owned || labelsChanged)
        for (const key of keysForChildUpdate(lookup, old, cur)) enqueue(key);
      const ds = owningDaemonSet(lookup, cur);
      const minReady = ds?.spec?.minReadySeconds ?? 0;
      if (ds !== undefined && minReady > 0 && !isPodReady(old) && isPodReady(cur)) {
        enqueueAfter(daemonSetKey(ds), (minReady + 1) * 1000);
      }
    },
    onDelete: (d: Pod | Parameters<typeof deletedObject<Pod>>[0]) => deleted(deletedObject(d)),
  };
}

async function run(ctx: ControllerContext, options: DaemonSetControllerOptions): Promise<void> {
  const dsInformer = kindInformer(ctx.informers.informer(DAEMONSETS), 'DaemonSet');
  const podInformer = kindInformer(ctx.informers.informer(RESOURCES.pods), 'Pod');
  const nodeInformer = kindInformer(ctx.informers.informer(RESOURCES.nodes), 'Node');
  const revisionInformer = kindInformer(
    ctx.informers.informer(RESOURCES.controllerrevisions),
    'ControllerRevision',
  );
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'daemonset',
    metrics: ctx.metrics.queue,
  });
  const expectations = new Expectations({ clock: ctx.clock });
  const lookup = dsInformer.lister;
  const enqueue = (key: string): void => queue.add(key);
  const all = (filter: (ds: DaemonSet) => boolean): void => {
    for (const ds of lookup.list()) if (filter(ds)) enqueue(daemonSetKey(ds));
  };
  const registrations = [
    dsInformer.addEventHandler({
      onAdd: (ds) => enqueue(daemonSetKey(ds)),
      onUpdate: (_old, cur) => enqueue(daemonSetKey(cur)),
      onDelete: (d) => {
        const key = daemonSetKey(deletedObject(d));
        expectations.delete(key);
        enqueue(key);
      },
    }),
    podInformer.addEventHandler(
      podHandlers(lookup, expectations, enqueue, (k, ms) => queue.addAfter(k, ms)),
    ),
    revisionInformer.addEventHandler({
      onAdd: (r) => keysForChild(lookup, r).forEach(enqueue),
      onUpdate: (old, cur) => {
        if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
        keysForChildUpdate(lookup, old, cur).forEach(enqueue);
      },
      onDelete: (d) => keysForChild(lookup, deletedObject(d)).forEach(enqueue),
    }),
    nodeInformer.addEventHandler({
      onAdd: (node) => all((ds) => nodeShouldRunDaemonPod(node, ds).shouldRun),
      onUpdate: (old, cur) => {
        if (onlyHeartbeat(old, cur)) return;
        all((ds) => !deepEqual(nodeShouldRunDaemonPod(old, ds), nodeShouldRunDaemonPod(cur, ds)));
      },
      onDelete: () => all(() => true),
    }),
  ];
  try {
    const informers = [dsInformer, podInformer, nodeInformer, revisionInformer].map(
      (i) => i.informer,
    );
    if (!(await ctx.informers.waitForSync(informers, ctx.signal))) return;
    const deps = {
      client: ctx.client,
      daemonSets: dsInformer.lister,
      pods: podInformer.lister,
      nodes: nodeInformer.lister,
      revisions: revisionInformer.lister,
      recorder: ctx.eventRecorder(DAEMON_SET_EVENT_COMPONENT),
      clock: ctx.clock,
      expectations,
      backoff: new FailedPodBackoff(),
      warn: (fields: Record<string, unknown>, msg: string) => ctx.log.warn(fields, msg),
    };
    await runController({
      name: DAEMON_SET_CONTROLLER,
      queue,
      reconcile: (key) => syncDaemonSet(deps, key),
      workers: options.workers ?? 2,
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
