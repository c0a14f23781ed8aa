/**
 * One sync of one Job key: read the Job and its pods from the caches, claim the pods, plan
 * (`plan.ts`), then apply in upstream's order: create and delete pods (with expectations, so a
 * sync never acts on a cache that has not seen its previous writes), write `/status` when it
 * changed (with the cached resourceVersion: a stale cache gets a conflict and a retry, never a
 * double count), then remove tracking finalizers the stored status now accounts for, then
 * record events.
 *
 * @module
 */
import { LabelSelectorParseError, labelSelectorFromObject } from '../../api/labels/selector.js';
import type { Job } from '../../api/model/batch.generated.js';
import { asKind, type Pod } from '../../api/model/index.js';
import { deepEqual } from '../../api/object.js';
import type { ApiClient } from '../../client/api-client.js';
import { isConflict, isNotFound } from '../../client/api-client.js';
import type { Lister } from '../../client/shared-informer.js';
import { splitKey } from '../../client/store.js';
import { RESOURCES } from '../../controller/context.js';
import type { ReconcileResult } from '../../controller/controller.js';
import type { EventRecorder } from '../../controller/events.js';
import type { UIDTrackingExpectations } from '../../controller/expectations.js';
import type { OwnWrites } from '../../controller/own-writes.js';
import { slowStartBatch } from '../../controller/slow-start.js';
import type { Clock } from '../../util/clock.js';
import { claimJobPods } from './claim.js';
import { JOB_CONTROLLER_MANAGER, JOB_TRACKING_FINALIZER, JOBS } from './constants.js';
import { planJob } from './plan.js';
import type { JobPlan } from './plan-types.js';
import { jobPod } from './pod-builder.js';
import type { JobLookup } from './pod-events.js';

export interface JobSyncDeps {
  readonly client: ApiClient;
  readonly jobs: JobLookup;
  readonly pods: Lister<Pod>;
  readonly clock: Clock;
  readonly recorder: EventRecorder;
  readonly expectations: UIDTrackingExpectations;
  /** UIDs of pods whose finalizer removal is in flight (the controller's pod handler clears them). */
  readonly pendingFinalizerRemovals: Set<string>;
  /**
   * The status this controller last wrote per Job, until the cache has it. Without it a sync
   * that follows its own status write before the watch echoes it plans from the Job that write
   * replaced: a pod the write counted and whose finalizer is already gone is then counted
   * nowhere, one pod too many is created, and the next sync deletes it as a failure.
   */
  readonly own: OwnWrites<Job>;
  readonly warn: (fields: Record<string, unknown>, msg: string) => void;
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** `spec.managedBy` names another controller: not ours to sync (upstream JobManagedBy). */
export function managedElsewhere(job: Job): boolean {
  const by = job.spec?.managedBy;
  return by != null && by !== JOB_CONTROLLER_MANAGER;
}

export async function syncJob(deps: JobSyncDeps, key: string): Promise<ReconcileResult> {
  const [namespace, name] = splitKey(key);
  const job = deps.own.newest(key, deps.jobs.get(namespace, name));
  if (job === undefined) {
    deps.expectations.delete(key);
    return {};
  }
  const mode = job.spec?.completionMode ?? 'NonIndexed';
  if (managedElsewhere(job) || (mode !== 'NonIndexed' && mode !== 'Indexed')) return {};
  let selector: ReturnType<typeof labelSelectorFromObject>;
  try {
    selector = labelSelectorFromObject(job.spec?.selector);
  } catch (err) {
    if (!(err instanceof LabelSelectorParseError)) throw err;
    deps.warn({ job: key }, 'invalid selector; not syncing');
    return {};
  }
  try {
    return await syncWith(deps, key, job, selector);
  } catch (err) {
    // The cached Job was stale (a status write of ours not yet seen): once more on the stored
    // one. Safe for counting: UIDs whose finalizer removal is pending are never recorded again,
    // and unmet expectations keep this second pass from creating or deleting again.
    if (!isConflict(err)) throw err;
    const fresh = asKind(await deps.client.get({ ...JOBS, namespace, name }), 'Job');
    return syncWith(deps, key, fresh, selector);
  }
}

async function syncWith(
  deps: JobSyncDeps,
  key: string,
  job: Job,
  selector: ReturnType<typeof labelSelectorFromObject>,
): Promise<ReconcileResult> {
  const namespace = job.metadata?.namespace ?? '';
  const name = job.metadata?.name ?? '';
  const satisfied = deps.expectations.satisfied(key);
  const claim = await claimJobPods(
    deps.client,
    job,
    selector,
    deps.pods.listInNamespace(namespace),
  );
  if (claim.errors.length > 0) throw claim.errors[0];
  const plan = planJob({
    job,
    pods: claim.claimed,
    now: deps.clock.now(),
    pendingFinalizerRemovals: deps.pendingFinalizerRemovals,
    expectationsSatisfied: satisfied,
  });
  const failedCreates = await createPods(deps, key, job, plan);
  const deleteError = await deletePods(deps, key, job, plan);
  const status = { ...plan.status };
  if (failedCreates.count > 0)
    status.active = Math.max(0, (status.active ?? 0) - failedCreates.count);
  if (!deepEqual(job.status ?? {}, status)) {
    const ref = { ...JOBS, namespace, name };
    const written = await deps.client.updateStatus(ref, { ...job, status });
    deps.own.record(key, job.metadata?.resourceVersion, asKind(written, 'Job'));
  }
  await removeFinalizers(deps, plan.removeFinalizers);
  for (const e of plan.events) deps.recorder.event(job, e.type, e.reason, e.message);
  if (failedCreates.error !== undefined) throw failedCreates.error;
  if (deleteError !== undefined) throw deleteError;
  return plan.requeueAfterMs === undefined ? {} : { requeueAfter: plan.requeueAfterMs };
}

async function createPods(
  deps: JobSyncDeps,
  key: string,
  job: Job,
  plan: JobPlan,
): Promise<{ count: number; error?: unknown }> {
  const n = plan.create.length;
  if (n === 0) return { count: 0 };
  deps.expectations.expectCreations(key, n);
  const namespace = job.metadata?.namespace ?? '';
  const result = await slowStartBatch(n, 1, async (i) => {
    const want = plan.create[i] ?? {};
    try {
      const created = await deps.client.create({ ...RESOURCES.pods, namespace }, jobPod(job, want));
      deps.recorder.event(
        job,
        'Normal',
        'SuccessfulCreate',
        `Created pod: ${created.metadata?.name ?? ''}`,
      );
    } catch (err) {
      deps.recorder.event(job, 'Warning', 'FailedCreate', `Error creating: ${errorText(err)}`);
      throw err;
    }
  });
  // Creates that failed or never ran will not be observed.
  for (let i = result.successes; i < n; i++) deps.expectations.creationObserved(key);
  return { count: n - result.successes, error: result.error };
}

async function deletePods(
  deps: JobSyncDeps,
  key: string,
  job: Job,
  plan: JobPlan,
): Promise<unknown> {
  if (plan.delete.length === 0) return undefined;
  const podKey = (p: Pod): string => `${p.metadata?.namespace ?? ''}/${p.metadata?.name ?? ''}`;
  deps.expectations.expectDeletions(key, plan.delete.map(podKey));
  let firstError: unknown;
  await Promise.all(
    plan.delete.map(async (p) => {
      const ref = {
        ...RESOURCES.pods,
        namespace: p.metadata?.namespace ?? '',
        name: p.metadata?.name ?? '',
      };
      try {
        await deps.client.delete(ref);
        deps.recorder.event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${ref.name}`);
      } catch (err) {
        deps.expectations.deletionObserved(key, podKey(p));
        if (isNotFound(err)) return;
        deps.recorder.event(job, 'Warning', 'FailedDelete', `Error deleting: ${errorText(err)}`);
        firstError ??= err;
      }
    }),
  );
  return firstError;
}

/** Upstream `removeTrackingFinalizerPatch`. */
export const REMOVE_FINALIZER_PATCH = {
  metadata: { '$deleteFromPrimitiveList/finalizers': [JOB_TRACKING_FINALIZER] },
};

/** Removes the tracking finalizer of `pods`; NotFound is fine (the pod is gone). */
export async function removeFinalizers(
  deps: Pick<JobSyncDeps, 'client' | 'pendingFinalizerRemovals'>,
  pods: readonly Pod[],
): Promise<void> {
  const errors: unknown[] = [];
  await Promise.all(
    pods.map(async (p) => {
      const uid = p.metadata?.uid ?? '';
      const ref = {
        ...RESOURCES.pods,
        namespace: p.metadata?.namespace ?? '',
        name: p.metadata?.name ?? '',
      };
      deps.pendingFinalizerRemovals.add(uid);
      try {
        asKind(await deps.client.patch(ref, REMOVE_FINALIZER_PATCH, 'strategic'), 'Pod');
      } catch (err) {
        deps.pendingFinalizerRemovals.delete(uid);
        if (!isNotFound(err)) errors.push(err);
      }
    }),
  );
  if (errors.length > 0) throw errors[0];
}
