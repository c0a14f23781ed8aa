/**
 * The Job controller's wiring (upstream `job_controller.go: NewController`, `Run`): informers on
 * Jobs and pods, handlers that turn events into Job keys and expectation observations
 * (`pod-events.ts`), workers running {@link syncJob}, and a second queue that strips the
 * tracking finalizer from orphan pods (upstream `syncOrphanPod`): pods whose Job is gone or
 * finished, which nothing else would ever let go.
 *
 * @module
 */
import type { Job } from '../../api/model/batch.generated.js';
import { asKind } from '../../api/model/index.js';
import { deletedObject } from '../../client/shared-informer.js';
import { splitKey } from '../../client/store.js';
import type { ControllerContext, ControllerDefinition } from '../../controller/context.js';
import { RESOURCES } from '../../controller/context.js';
import { runController } from '../../controller/controller.js';
import { EXPECTATIONS_TIMEOUT_MS, UIDTrackingExpectations } from '../../controller/expectations.js';
import { kindInformer } from '../../controller/kind-informer.js';
import { OwnWrites } from '../../controller/own-writes.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { JOB_CONTROLLER_NAME, JOBS } from './constants.js';
import { type JobPodEffects, podAdded, podDeleted, podUpdated } from './pod-events.js';
import { hasTrackingFinalizer } from './pods.js';
import { type JobSyncDeps, removeFinalizers, syncJob } from './sync.js';

export interface JobControllerOptions {
  /** Concurrent syncs (`--concurrent-job-syncs`). @default 5 */
  readonly workers?: number;
}

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }): string =>
  `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

export function createJobController(options: JobControllerOptions = {}): ControllerDefinition {
  return { name: JOB_CONTROLLER_NAME, start: (ctx) => run(ctx, options) };
}

async function run(ctx: ControllerContext, options: JobControllerOptions): Promise<void> {
  const jobInformer = ctx.informers.informer(JOBS);
  const jobs = {
    get: (ns: string, name: string): Job | undefined => {
      const o = jobInformer.lister.get(ns, name);
      return o === undefined ? undefined : asKind(o, 'Job');
    },
  };
  const podInformer = kindInformer(ctx.informers.informer(RESOURCES.pods), 'Pod');
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'job',
    metrics: ctx.metrics.queue,
  });
  const orphanQueue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'job_orphan_pod',
    metrics: ctx.metrics.queue,
  });
  const expectations = new UIDTrackingExpectations({
    clock: ctx.clock,
    ttlMs: EXPECTATIONS_TIMEOUT_MS,
  });
  const pending = new Set<string>();
  const own = new OwnWrites<Job>();

  const jobRegistration = jobInformer.addEventHandler({
    onAdd: (job) => queue.add(keyOf(job)),
    onUpdate: (old, cur) => {
      if (old.metadata?.uid !== cur.metadata?.uid) expectations.delete(keyOf(old));
      queue.add(keyOf(cur));
    },
    onDelete: (deleted) => {
      const job = deletedObject(deleted);
      expectations.delete(keyOf(job));
      own.forget(keyOf(job), job.metadata?.uid);
      // Its pods lose their Job: free them of the tracking finalizer.
      for (const p of podInformer.lister.listInNamespace(job.metadata?.namespace ?? '')) {
        const ref = p.metadata?.ownerReferences?.find((r) => r.controller === true);
        if (ref?.uid === job.metadata?.uid && hasTrackingFinalizer(p)) orphanQueue.add(keyOf(p));
      }
    },
  });
  const apply = (e: JobPodEffects): void => {
    for (const uid of e.finalizerGone) pending.delete(uid);
    for (const key of e.creationsObserved) expectations.creationObserved(key);
    for (const d of e.deletionsObserved) expectations.deletionObserved(d.jobKey, d.podKey);
    for (const key of e.enqueue) queue.add(key);
    for (const key of e.orphans) orphanQueue.add(key);
  };
  const podRegistration = podInformer.addEventHandler({
    onAdd: (pod) => apply(podAdded(jobs, pod)),
    onUpdate: (old, cur) => apply(podUpdated(jobs, old, cur)),
    onDelete: (deleted) => apply(podDeleted(jobs, deletedObject(deleted))),
  });

  try {
    if (!(await ctx.informers.waitForSync([jobInformer, podInformer.informer], ctx.signal))) return;
    const deps: JobSyncDeps = {
      client: ctx.client,
      jobs,
      pods: podInformer.lister,
      clock: ctx.clock,
      recorder: ctx.eventRecorder(JOB_CONTROLLER_NAME),
      expectations,
      pendingFinalizerRemovals: pending,
      own,
      warn: (fields, msg) => ctx.log.warn(fields, msg),
    };
    const syncOrphan = async (key: string): Promise<Record<string, never>> => {
      const [ns, name] = splitKey(key);
      const pod = podInformer.lister.get(ns, name);
      // Re-check: adopted meanwhile, or already free.
      if (pod === undefined || podAdded(jobs, pod).orphans.length === 0) return {};
      await removeFinalizers(deps, [pod]);
      return {};
    };
    const common = {
      clock: ctx.clock,
      log: ctx.log,
      metrics: ctx.metrics.controller,
      signal: ctx.signal,
    };
    await Promise.all([
      runController({
        name: JOB_CONTROLLER_NAME,
        queue,
        reconcile: (key) => syncJob(deps, key),
        workers: options.workers ?? 5,
        ...common,
      }),
      runController({
        name: `${JOB_CONTROLLER_NAME}-orphan-pods`,
        queue: orphanQueue,
        reconcile: syncOrphan,
        workers: 1,
        ...common,
      }),
    ]);
  } finally {
    jobRegistration.remove();
    podRegistration.remove();
    queue.shutdown();
    orphanQueue.shutdown();
  }
}

/** The Job controller with upstream defaults (5 workers). */
export const jobController: ControllerDefinition = createJobController();
