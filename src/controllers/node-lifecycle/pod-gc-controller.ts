/**
 * The pod garbage collector (upstream `pkg/controller/podgc`, `gc` every 20 s): force-deletes
 * (grace 0) terminated pods above the threshold (12,500, evicted then oldest first), terminating
 * pods on a not-Ready node tainted `node.kubernetes.io/out-of-service`, pods bound to a node that
 * has been missing for the 40 s quarantine, and terminating pods never bound to a node. A pod not
 * yet terminal is first patched to phase Failed (orphans also get the `DisruptionTarget`
 * condition, reason `DeletionByPodGC`), as upstream's `markFailedAndDeletePodWithCondition`.
 *
 * The choice is the pure {@link podGarbage} planner; one key (`gc`) runs a pass, requeued after
 * the GC period or when a quarantine ends, whichever comes first. As upstream, an orphan is only
 * deleted after a live GET confirms its node is really gone (the cache may lag a re-created node).
 *
 * @module
 */

import { isNotFound } from '../../client/api-client.js';
import {
  type ControllerContext,
  type ControllerDefinition,
  RESOURCES,
} from '../../controller/context.js';
import { type ReconcileResult, runController } from '../../controller/controller.js';
import { kindInformer } from '../../controller/kind-informer.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { type PodDeletion, type PodGarbageOptions, podGarbage } from './pod-gc.js';
import { podNodeName } from './taints.js';

export const POD_GARBAGE_COLLECTOR = 'pod-garbage-collector';
/** Upstream's field manager for the status patch. */
const FIELD_MANAGER = 'PodGC';
const KEY = 'gc';

export interface PodGarbageCollectorOptions
  extends Pick<PodGarbageOptions, 'terminatedPodGCThreshold' | 'quarantineMs'> {
  /** How often a pass runs (upstream `gcCheckPeriod`). @default 20_000 */
  gcPeriodMs?: number;
}

export const DEFAULT_GC_PERIOD_MS = 20_000;

/** The pod garbage collector, for the controller manager. */
export function podGarbageCollector(
  options: PodGarbageCollectorOptions = {},
): ControllerDefinition {
  return { name: POD_GARBAGE_COLLECTOR, start: (ctx) => run(ctx, options) };
}

async function run(ctx: ControllerContext, options: PodGarbageCollectorOptions): Promise<void> {
  const nodes = kindInformer(ctx.informers.informer(RESOURCES.nodes), 'Node');
  const pods = kindInformer(ctx.informers.informer(RESOURCES.pods), 'Pod');
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: POD_GARBAGE_COLLECTOR,
    metrics: ctx.metrics.queue,
  });
  if (!(await ctx.informers.waitForSync([nodes.informer, pods.informer], ctx.signal))) return;
  const period = options.gcPeriodMs ?? DEFAULT_GC_PERIOD_MS;
  let missingNodesSince = new Map<string, number>();

  const pass = async (): Promise<ReconcileResult> => {
    const now = ctx.clock.now();
    const plan = podGarbage(pods.lister.list(), nodes.lister.list(), now, {
      ...options,
      missingNodesSince,
    });
    missingNodesSince = plan.missingNodesSince;
    let failure: unknown;
    for (const deletion of plan.deletions) {
      try {
        await collect(ctx, deletion);
      } catch (err) {
        failure ??= err;
      }
    }
    if (failure !== undefined) throw failure;
    const next = plan.recheckAt === undefined ? period : Math.min(period, plan.recheckAt - now);
    return { requeueAfter: Math.max(1, next) };
  };

  queue.add(KEY);
  await runController({
    name: POD_GARBAGE_COLLECTOR,
    queue,
    reconcile: pass,
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
  });
}

/** Marks the pod Failed when it is not terminal yet, then deletes it with grace 0. */
async function collect(ctx: ControllerContext, deletion: PodDeletion): Promise<void> {
  const { pod } = deletion;
  const ref = {
    ...RESOURCES.pods,
    namespace: pod.metadata?.namespace ?? '',
    name: pod.metadata?.name ?? '',
  };
  if (deletion.reason === 'orphaned' && (await nodeExists(ctx, podNodeName(pod)))) return;
  try {
    if (deletion.markFailed) {
      const status: Record<string, unknown> = { phase: 'Failed' };
      if (deletion.condition !== undefined) status.conditions = [deletion.condition];
      await ctx.client.patch(ref, { status }, 'strategic', {
        subresource: 'status',
        fieldManager: FIELD_MANAGER,
      });
    }
    const uid = pod.metadata?.uid;
    await ctx.client.delete(ref, {
      gracePeriodSeconds: deletion.gracePeriodSeconds,
      ...(uid ? { preconditions: { uid } } : {}),
    });
    ctx.log.info(
      { pod: `${ref.namespace}/${ref.name}`, reason: deletion.reason },
      'PodGC force-deleted pod',
    );
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

/** A live read, not the cache: upstream `checkIfNodeExists` before deleting an orphan. */
async function nodeExists(ctx: ControllerContext, name: string): Promise<boolean> {
  try {
    await ctx.client.get({ ...RESOURCES.nodes, name });
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}
