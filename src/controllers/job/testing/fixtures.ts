/**
 * Helpers for Job controller tests against the in-process API server: Jobs from a spec, the
 * pods a Job owns, and pod outcomes written as the kubelet would (phase, exit codes).
 *
 * @module
 */
import type { Job, JobSpec } from '../../../api/model/batch.generated.js';
import { asKind, type Pod } from '../../../api/model/index.js';
import { RESOURCES } from '../../../controller/context.js';
import type { Harness } from '../../../controller/testing/harness.js';
import { JOBS } from '../constants.js';

export const jobRef = (namespace: string, name: string) => ({ ...JOBS, namespace, name });

export async function createNamespace(h: Harness, name: string): Promise<void> {
  await h.client.create(RESOURCES.namespaces, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
  });
}

export async function createJob(
  h: Harness,
  namespace: string,
  name: string,
  spec: Partial<JobSpec>,
): Promise<Job> {
  const body = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: {
      template: {
        spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] },
      },
      ...spec,
    },
  };
  return asKind(await h.client.create({ ...JOBS, namespace }, body), 'Job');
}

export async function getJob(h: Harness, namespace: string, name: string): Promise<Job> {
  return asKind(await h.client.get(jobRef(namespace, name)), 'Job');
}

/** The pods `job` controls, oldest first. */
export async function jobPods(h: Harness, job: Job): Promise<Pod[]> {
  const pods = await h.list({ ...RESOURCES.pods, namespace: job.metadata?.namespace ?? '' });
  return pods
    .map((p) => asKind(p, 'Pod'))
    .filter((p) => p.metadata?.ownerReferences?.some((r) => r.uid === job.metadata?.uid))
    .sort((a, b) =>
      (a.metadata?.creationTimestamp ?? '').localeCompare(b.metadata?.creationTimestamp ?? ''),
    );
}

/** Ends `pod` as the kubelet would: phase and one terminated container with `exitCode`. */
export async function finishPod(h: Harness, pod: Pod, exitCode: number): Promise<void> {
  const at = new Date(h.ctx.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
  const ref = {
    ...RESOURCES.pods,
    namespace: pod.metadata?.namespace ?? '',
    name: pod.metadata?.name ?? '',
  };
  const cur = asKind(await h.client.get(ref), 'Pod');
  const status = {
    ...cur.status,
    phase: exitCode === 0 ? 'Succeeded' : 'Failed',
    containerStatuses: [
      {
        name: 'main',
        image: 'busybox',
        imageID: '',
        ready: false,
        restartCount: 0,
        state: {
          terminated: {
            exitCode,
            reason: exitCode === 0 ? 'Completed' : 'Error',
            startedAt: at,
            finishedAt: at,
          },
        },
      },
    ],
  };
  await h.client.updateStatus(ref, { ...cur, status });
}

export function condition(job: Job, type: string): string | undefined {
  return job.status?.conditions?.find((c) => c.type === type)?.status;
}
