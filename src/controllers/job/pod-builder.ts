/**
 * A new pod of a Job (upstream `job_controller.go: manageJob` over `GetPodFromTemplate` and
 * `indexed_job_utils.go: addCompletionIndexEnvVariables`, `addCompletionIndexAnnotation`):
 * the template's pod, controlled by the Job, with the `batch.kubernetes.io/job-tracking`
 * finalizer. An Indexed Job's pod also gets its index as an annotation and a label
 * (`batch.kubernetes.io/job-completion-index`), the name prefix `<job>-<index>-`, the
 * hostname `<job>-<index>` (unless the template sets one), the env var `JOB_COMPLETION_INDEX`
 * read from that annotation in every container, and, with backoffLimitPerIndex, the index's
 * failure counts.
 *
 * @module
 */
import type { Job } from '../../api/model/batch.generated.js';
import type { KubeObject } from '../../api/object.js';
import { isJsonObject } from '../../api/object.js';
import { newControllerRef } from '../../controller/controller-ref.js';
import { podFromTemplate, podNamePrefix } from '../../controller/pod-template.js';
import {
  COMPLETION_INDEX_ENV,
  COMPLETION_INDEX_KEY,
  INDEX_FAILURE_COUNT_ANNOTATION,
  INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
  JOB_KIND,
  JOB_TRACKING_FINALIZER,
} from './constants.js';
import type { PodToCreate } from './plan-types.js';

const INDEX_ENV = {
  name: COMPLETION_INDEX_ENV,
  valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${COMPLETION_INDEX_KEY}']` } },
};

function addIndexEnv(spec: Record<string, unknown>): void {
  for (const key of ['initContainers', 'containers']) {
    const list = spec[key];
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      if (!isJsonObject(c)) continue;
      const env = Array.isArray(c.env) ? c.env : [];
      if (env.some((e) => isJsonObject(e) && e.name === COMPLETION_INDEX_ENV)) continue;
      c.env = [...env, structuredClone(INDEX_ENV)];
    }
  }
}

/** The pod `job` creates for `want`. */
export function jobPod(job: Job, want: PodToCreate): KubeObject {
  const pod = podFromTemplate(job.spec?.template ?? {}, job, newControllerRef(job, JOB_KIND));
  const meta = pod.metadata ?? {};
  meta.finalizers = [...(meta.finalizers ?? []), JOB_TRACKING_FINALIZER];
  if (want.index !== undefined) {
    const name = job.metadata?.name ?? '';
    const ix = String(want.index);
    meta.generateName = podNamePrefix(`${name}-${ix}`);
    meta.annotations = { ...meta.annotations, [COMPLETION_INDEX_KEY]: ix };
    meta.labels = { ...meta.labels, [COMPLETION_INDEX_KEY]: ix };
    if (job.spec?.backoffLimitPerIndex != null) {
      meta.annotations[INDEX_FAILURE_COUNT_ANNOTATION] = String(want.failureCount ?? 0);
      if ((want.ignoredFailureCount ?? 0) > 0) {
        meta.annotations[INDEX_IGNORED_FAILURE_COUNT_ANNOTATION] = String(want.ignoredFailureCount);
      }
    }
    const spec = isJsonObject(pod.spec) ? pod.spec : {};
    if (typeof spec.hostname !== 'string' || spec.hostname === '') spec.hostname = `${name}-${ix}`;
    addIndexEnv(spec);
    pod.spec = spec;
  }
  pod.metadata = meta;
  return pod;
}
