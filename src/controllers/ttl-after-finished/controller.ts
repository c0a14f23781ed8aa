/**
 * The TTL-after-finished controller (upstream `pkg/controller/ttlafterfinished`): deletes a
 * finished Job `ttlSecondsAfterFinished` after it finished, on the injected clock. Before
 * deleting it reads the Job again from the API server (the cache may be stale: the TTL may
 * have been changed or removed meanwhile), and deletes with foreground propagation and the
 * UID as precondition, so the Job disappears after its pods and never a namesake.
 *
 * @module
 */
import type { Job } from '../../api/model/batch.generated.js';
import { asKind } from '../../api/model/index.js';
import { isNotFound } from '../../client/api-client.js';
import { splitKey } from '../../client/store.js';
import type { ControllerContext, ControllerDefinition } from '../../controller/context.js';
import { runController } from '../../controller/controller.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { needsCleanup, ttlVerdict } from './ttl.js';

export const TTL_AFTER_FINISHED_CONTROLLER_NAME = 'ttl-after-finished-controller';
const JOBS = { group: 'batch', version: 'v1', plural: 'jobs' } as const;

const keyOf = (job: Job): string => `${job.metadata?.namespace ?? ''}/${job.metadata?.name ?? ''}`;

/**
 * Upstream `processJob` after the cached Job expired: read it fresh (the TTL may have changed),
 * and delete it in the foreground with its UID as precondition if it is still expired.
 */
async function deleteIfExpired(
  ctx: ControllerContext,
  namespace: string,
  name: string,
): Promise<{ requeueAfter?: number }> {
  const ref = { ...JOBS, namespace, name };
  let fresh: Job;
  try {
    fresh = asKind(await ctx.client.get(ref), 'Job');
  } catch (err) {
    if (isNotFound(err)) return {};
    throw err;
  }
  const verdict = ttlVerdict(fresh, ctx.clock.now());
  if (verdict.kind === 'wait') return { requeueAfter: verdict.ms };
  if (verdict.kind !== 'expired') return {};
  const preconditions = { uid: fresh.metadata?.uid ?? '' };
  await ctx.client.delete(ref, { propagationPolicy: 'Foreground', preconditions }).catch((err) => {
    if (!isNotFound(err)) throw err;
  });
  return {};
}

async function run(ctx: ControllerContext): Promise<void> {
  const informer = ctx.informers.informer(JOBS);
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'ttl_jobs_to_delete',
    metrics: ctx.metrics.queue,
  });
  const enqueue = (o: unknown): void => {
    const job = asKind(o, 'Job');
    if (needsCleanup(job)) queue.add(keyOf(job));
  };
  const registration = informer.addEventHandler({
    onAdd: enqueue,
    onUpdate: (_old, cur) => enqueue(cur),
  });

  const reconcile = async (key: string): Promise<{ requeueAfter?: number }> => {
    const [namespace, name] = splitKey(key);
    const cached = informer.lister.get(namespace, name);
    if (cached === undefined) return {};
    const verdict = ttlVerdict(asKind(cached, 'Job'), ctx.clock.now());
    if (verdict.kind === 'wait') return { requeueAfter: verdict.ms };
    return verdict.kind === 'expired' ? deleteIfExpired(ctx, namespace, name) : {};
  };

  try {
    if (!(await ctx.informers.waitForSync([informer], ctx.signal))) return;
    await runController({
      name: TTL_AFTER_FINISHED_CONTROLLER_NAME,
      queue,
      reconcile,
      workers: 5,
      clock: ctx.clock,
      log: ctx.log,
      metrics: ctx.metrics.controller,
      signal: ctx.signal,
    });
  } finally {
    registration.remove();
    queue.shutdown();
  }
}

/** The TTL-after-finished controller (5 workers, as `--concurrent-ttl-after-finished-syncs`). */
export const ttlAfterFinishedController: ControllerDefinition = {
  name: TTL_AFTER_FINISHED_CONTROLLER_NAME,
  start: run,
};
