/**
 * Claiming pods for a Job (upstream `job_controller.go: getPodsForJob` over `ClaimPods`):
 * adoption adds the controller ref and the tracking finalizer, release removes both. Before
 * the first adoption the Job is read again without the cache (a Job deleted a moment ago must
 * not adopt). NotFound on adopt, NotFound or Invalid on release mean "not claimed".
 *
 * @module
 */
import type { LabelSelector } from '../../api/labels/selector.js';
import type { Job } from '../../api/model/batch.generated.js';
import { asKind, type Pod } from '../../api/model/index.js';
import type { ApiClient } from '../../client/api-client.js';
import { isNotFound } from '../../client/api-client.js';
import { StatusCodeError } from '../../client/lister-watcher.js';
import { RESOURCES } from '../../controller/context.js';
import { type ClaimPatch, claimObjects, recheckOwner } from '../../controller/controller-ref.js';
import { JOB_KIND, JOB_TRACKING_FINALIZER, JOBS } from './constants.js';

export interface ClaimResult {
  readonly claimed: Pod[];
  readonly errors: Error[];
}

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));
const isInvalid = (err: unknown): boolean => err instanceof StatusCodeError && err.code === 422;

async function patchPod(client: ApiClient, p: ClaimPatch<Pod>): Promise<Pod> {
  const m = p.object.metadata;
  const ref = { ...RESOURCES.pods, namespace: m?.namespace ?? '', name: m?.name ?? '' };
  return asKind(await client.patch(ref, p.patch, 'strategic'), 'Pod');
}

export async function claimJobPods(
  client: ApiClient,
  job: Job,
  selector: LabelSelector,
  pods: readonly Pod[],
): Promise<ClaimResult> {
  const plan = claimObjects(job, selector, pods, {
    ownerKind: JOB_KIND,
    finalizers: [JOB_TRACKING_FINALIZER],
  });
  const claimed = [...plan.claimed];
  const errors = [...plan.errors];
  const work = plan.release.map((p) =>
    patchPod(client, p).then(
      () => undefined,
      (err: unknown) => {
        if (!isNotFound(err) && !isInvalid(err)) errors.push(asError(err));
      },
    ),
  );
  if (plan.adopt.length > 0) {
    const ref = {
      ...JOBS,
      namespace: job.metadata?.namespace ?? '',
      name: job.metadata?.name ?? '',
    };
    const fresh = await client.get(ref).catch(asError);
    const refused = recheckOwner(job, fresh, JOB_KIND.kind);
    if (refused !== undefined) errors.push(refused);
    else {
      for (const p of plan.adopt) {
        work.push(
          patchPod(client, p).then(
            (pod) => {
              claimed.push(pod);
            },
            (err: unknown) => {
              if (!isNotFound(err)) errors.push(asError(err));
            },
          ),
        );
      }
    }
  }
  await Promise.all(work);
  return { claimed, errors };
}
