/**
 * The ReplicationController controller (upstream `pkg/controller/replication`, which runs the
 * ReplicaSet controller through a conversion adapter): informers on RCs and pods, pod events
 * turned into expectation observations and keys, and workers running
 * {@link syncReplicationController} (`./sync.ts`, the ReplicaSet planners on the RC's view).
 *
 * Pod events, as the ReplicaSet controller's: a pod with a controller ref of kind
 * ReplicationController is its RC's (a create observed on add, a deletion observed on delete
 * or when it starts terminating); an orphan wakes every RC in its namespace whose selector
 * matches it (adoption); a pod whose controller ref changes wakes both RCs.
 *
 * @module
 */
import type { Pod, ReplicationController } from '../../api/model/index.js';
import type { OwnerReference } from '../../api/object.js';
import { deletedObject } from '../../client/shared-informer.js';
import type { ControllerContext, ControllerDefinition } from '../../controller/context.js';
import { RESOURCES } from '../../controller/context.js';
import { runController } from '../../controller/controller.js';
import { controllerRefOf } from '../../controller/controller-ref.js';
import { EXPECTATIONS_TIMEOUT_MS, UIDTrackingExpectations } from '../../controller/expectations.js';
import { kindInformer } from '../../controller/kind-informer.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { BURST_REPLICAS } from '../replicaset/manage-replicas.js';
import { REPLICATION_CONTROLLER_KIND, REPLICATION_CONTROLLERS, rcSelector } from './adapter.js';
import { syncReplicationController } from './sync.js';

export const REPLICATION_CONTROLLER_NAME = 'replicationcontroller-controller';
/** The event source upstream's replication manager records with. */
const EVENT_SOURCE = 'replication-controller';

function keyOf(obj: { metadata?: { namespace?: string; name?: string } }): string {
  return `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
}

interface Lookup {
  get(namespace: string, name: string): ReplicationController | undefined;
  listInNamespace(namespace: string): ReplicationController[];
}

/** The RC a controller ref names, when it is an RC and the cached one has its UID. */
function controllerOf(lookup: Lookup, pod: Pod, ref: OwnerReference | undefined) {
  if (ref === undefined || ref.kind !== REPLICATION_CONTROLLER_KIND.kind) return undefined;
  const rc = lookup.get(pod.metadata?.namespace ?? '', ref.name);
  return rc !== undefined && rc.metadata?.uid === ref.uid ? rc : undefined;
}

/** The RCs whose selector matches an orphan pod (none for a pod without labels). */
function matchingControllers(lookup: Lookup, pod: Pod): ReplicationController[] {
  const labels = pod.metadata?.labels ?? {};
  if (Object.keys(labels).length === 0) return [];
  return lookup
    .listInNamespace(pod.metadata?.namespace ?? '')
    .filter((rc) => rcSelector(rc)?.matches(labels) === true);
}

async function run(ctx: ControllerContext): Promise<void> {
  const rcInformer = kindInformer(
    ctx.informers.informer(REPLICATION_CONTROLLERS),
    'ReplicationController',
  );
  const podInformer = kindInformer(ctx.informers.informer(RESOURCES.pods), 'Pod');
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'replicationmanager',
    metrics: ctx.metrics.queue,
  });
  const expectations = new UIDTrackingExpectations({
    clock: ctx.clock,
    ttlMs: EXPECTATIONS_TIMEOUT_MS,
  });
  const lookup = rcInformer.lister;
  const forget = (rc: ReplicationController): void => {
    expectations.delete(keyOf(rc));
    queue.add(keyOf(rc));
  };
  const rcRegistration = rcInformer.addEventHandler({
    onAdd: (rc) => queue.add(keyOf(rc)),
    onUpdate: (old, cur) => {
      if (old.metadata?.uid !== cur.metadata?.uid) forget(old);
      queue.add(keyOf(cur));
    },
    onDelete: (deleted) => forget(deletedObject(deleted)),
  });
  const podGone = (pod: Pod): void => {
    const rc = controllerOf(lookup, pod, controllerRefOf(pod));
    if (rc === undefined) return;
    expectations.deletionObserved(keyOf(rc), keyOf(pod));
    queue.add(keyOf(rc));
  };
  const podSeen = (pod: Pod): void => {
    const ref = controllerRefOf(pod);
    if (ref !== undefined) {
      const rc = controllerOf(lookup, pod, ref);
      if (rc !== undefined) queue.add(keyOf(rc));
      return;
    }
    for (const rc of matchingControllers(lookup, pod)) queue.add(keyOf(rc));
  };
  const podRegistration = podInformer.addEventHandler({
    onAdd: (pod) => {
      if (pod.metadata?.deletionTimestamp) return podGone(pod);
      const rc = controllerOf(lookup, pod, controllerRefOf(pod));
      if (rc !== undefined) expectations.creationObserved(keyOf(rc));
      podSeen(pod);
    },
    onUpdate: (old, cur) => {
      if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
      if (cur.metadata?.deletionTimestamp && !old.metadata?.deletionTimestamp) podGone(cur);
      const before = controllerOf(lookup, old, controllerRefOf(old));
      if (before !== undefined && controllerRefOf(cur)?.uid !== before.metadata?.uid) {
        queue.add(keyOf(before));
      }
      podSeen(cur);
    },
    onDelete: (deleted) => podGone(deletedObject(deleted)),
  });

  try {
    const caches = [rcInformer.informer, podInformer.informer];
    if (!(await ctx.informers.waitForSync(caches, ctx.signal))) return;
    const deps = {
      client: ctx.client,
      controllers: rcInformer.lister,
      pods: podInformer.lister,
      // Upstream's RC events come from component `replication-controller`.
      recorder: ctx.eventRecorder(EVENT_SOURCE),
      expectations,
      clock: ctx.clock,
      warn: (fields: Record<string, unknown>, msg: string) => ctx.log.warn(fields, msg),
      burstReplicas: BURST_REPLICAS,
    };
    await runController({
      name: REPLICATION_CONTROLLER_NAME,
      queue,
      reconcile: (key) => syncReplicationController(deps, key),
      workers: 5,
      clock: ctx.clock,
      log: ctx.log,
      metrics: ctx.metrics.controller,
      signal: ctx.signal,
    });
  } finally {
    rcRegistration.remove();
    podRegistration.remove();
    queue.shutdown();
  }
}

/** The ReplicationController controller (5 workers, burst 500, 5 min expectations, as upstream). */
export const replicationControllerController: ControllerDefinition = {
  name: REPLICATION_CONTROLLER_NAME,
  start: run,
};
