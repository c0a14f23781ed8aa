/**
 * The ReplicaSet controller's wiring (upstream `replica_set.go: NewBaseController`, `Run`, the
 * ReplicaSet handlers): informers on ReplicaSets (with the controller-UID index for related
 * pods) and pods, handlers that turn events into keys and expectation observations
 * (`pod-events.ts`), and workers running {@link syncReplicaSet}.
 *
 * ReplicaSet handlers: add and update always enqueue (a status-only update costs one cheap sync,
 * and it retries ReplicaSets whose last creates failed); an update that changes the UID is the
 * delete of the old object plus the add of the new; a delete forgets the expectations, so a
 * namesake created later starts clean.
 *
 * @module
 */
import type { ReplicaSet } from '../../api/model/index.js';
import { deletedObject } from '../../client/shared-informer.js';
import type { ControllerContext, ControllerDefinition } from '../../controller/context.js';
import { RESOURCES } from '../../controller/context.js';
import { runController } from '../../controller/controller.js';
import { EXPECTATIONS_TIMEOUT_MS, UIDTrackingExpectations } from '../../controller/expectations.js';
import { kindInformer } from '../../controller/kind-informer.js';
import { OwnWrites } from '../../controller/own-writes.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { CONTROLLER_UID_INDEX, controllerUidIndexFunc, objectKeyOf } from './lookup.js';
import { BURST_REPLICAS } from './manage-replicas.js';
import { apiPodControl } from './pod-control.js';
import { type PodEventEffects, podAdded, podDeleted, podUpdated } from './pod-events.js';
import { syncReplicaSet } from './sync.js';

export const REPLICA_SET_CONTROLLER_NAME = 'replicaset-controller';

export interface ReplicaSetControllerOptions {
  /** Concurrent syncs (kube-controller-manager's `--concurrent-replicaset-syncs`). @default 5 */
  readonly workers?: number;
  /** Creates/deletes per sync. @default 500 */
  readonly burstReplicas?: number;
  /** Age after which unmet expectations stop blocking syncs. @default 5 min */
  readonly expectationsTimeoutMs?: number;
}

/** A ReplicaSet controller definition with the given options. */
export function createReplicaSetController(
  options: ReplicaSetControllerOptions = {},
): ControllerDefinition {
  return {
    name: REPLICA_SET_CONTROLLER_NAME,
    start: (ctx) => run(ctx, options),
  };
}

async function run(ctx: ControllerContext, options: ReplicaSetControllerOptions): Promise<void> {
  const rsInformer = kindInformer(
    ctx.informers.informer(RESOURCES.replicasets, {
      indexers: { [CONTROLLER_UID_INDEX]: controllerUidIndexFunc },
    }),
    'ReplicaSet',
  );
  const podInformer = kindInformer(ctx.informers.informer(RESOURCES.pods), 'Pod');
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'replicaset',
    metrics: ctx.metrics.queue,
  });
  const expectations = new UIDTrackingExpectations({
    clock: ctx.clock,
    ttlMs: options.expectationsTimeoutMs ?? EXPECTATIONS_TIMEOUT_MS,
  });
  const lookup = rsInformer.lister;
  const ownReplicaSets = new OwnWrites<ReplicaSet>();

  const forgetAndSync = (rs: ReplicaSet): void => {
    const key = objectKeyOf(rs);
    expectations.delete(key);
    queue.add(key);
  };
  const rsRegistration = rsInformer.addEventHandler({
    onAdd: (rs) => queue.add(objectKeyOf(rs)),
    onUpdate: (old, cur) => {
      if (old.metadata?.uid !== cur.metadata?.uid) forgetAndSync(old);
      queue.add(objectKeyOf(cur));
    },
    onDelete: (deleted) => forgetAndSync(deletedObject(deleted)),
  });
  const apply = (effects: PodEventEffects): void => {
    for (const key of effects.creationsObserved) expectations.creationObserved(key);
    for (const d of effects.deletionsObserved) expectations.deletionObserved(d.rsKey, d.podKey);
    for (const key of effects.enqueue) queue.add(key);
    for (const a of effects.enqueueAfter) queue.addAfter(a.rsKey, a.ms);
  };
  const podRegistration = podInformer.addEventHandler({
    onAdd: (pod) => apply(podAdded(lookup, pod)),
    onUpdate: (old, cur) => apply(podUpdated(lookup, old, cur)),
    onDelete: (deleted) => apply(podDeleted(lookup, deletedObject(deleted))),
  });

  try {
    const caches = [rsInformer.informer, podInformer.informer];
    if (!(await ctx.informers.waitForSync(caches, ctx.signal))) return;
    const deps = {
      client: ctx.client,
      replicaSets: rsInformer.lister,
      ownReplicaSets,
      pods: podInformer.lister,
      podControl: apiPodControl(ctx.client, ctx.eventRecorder(REPLICA_SET_CONTROLLER_NAME)),
      expectations,
      clock: ctx.clock,
      warn: (fields: Record<string, unknown>, msg: string) => ctx.log.warn(fields, msg),
      burstReplicas: options.burstReplicas ?? BURST_REPLICAS,
    };
    await runController({
      name: REPLICA_SET_CONTROLLER_NAME,
      queue,
      reconcile: (key) => syncReplicaSet(deps, key),
      workers: options.workers ?? 5,
      clock: ctx.clock,
      log: ctx.log,
      metrics: ctx.metrics.controller,
      signal: ctx.signal,
    });
  } finally {
    rsRegistration.remove();
    podRegistration.remove();
    queue.shutdown();
  }
}

/** The ReplicaSet controller with upstream defaults (5 workers, burst 500, 5 min expectations). */
export const replicaSetController: ControllerDefinition = createReplicaSetController();
