/**
 * The Job a CronJob creates for one scheduled time (upstream `utils.go: getJobFromTemplate2`,
 * `getJobName`): named `<cronjob>-<scheduled time in minutes since the epoch>`, so a time is
 * run at most once even across restarts (the name is the lock: a second create is
 * AlreadyExists); the template's labels and annotations, plus
 * `batch.kubernetes.io/cronjob-scheduled-timestamp` (the scheduled time in RFC 3339, in the
 * CronJob's zone); a controller reference to the CronJob; the template's spec.
 *
 * @module
 */
import type { CronJob, Job } from '../../api/model/batch.generated.js';
import type { ObjectReference } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { deepCopy } from '../../api/object.js';
import { type GroupVersionKind, newControllerRef } from '../../controller/controller-ref.js';
import { offsetAt } from './schedule.js';

/** The kind of a CronJob's controller references (`batch/v1 CronJob`). */
export const CRON_JOB_KIND: GroupVersionKind = { group: 'batch', version: 'v1', kind: 'CronJob' };
/** Upstream `batchv1.CronJobScheduledTimestampAnnotation`. */
export const SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

/** Upstream `getJobName`: `<name>-<unix minutes>` (11 characters after the name until 2160). */
export function jobNameFor(cronJobName: string, scheduledTime: number): string {
  return `${cronJobName}-${Math.floor(scheduledTime / 60_000)}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Go's `t.In(zone).Format(time.RFC3339)`: `2026-01-01T09:00:00+01:00`, `Z` for UTC. */
export function formatInZone(t: number, zone: string): string {
  // Go's LoadLocation("") is UTC.
  const offset = zone === '' ? 0 : offsetAt(zone, t);
  const local = new Date(Math.floor(t / 1000) * 1000 + offset).toISOString().slice(0, 19);
  if (zone === 'UTC' || zone === '') return `${local}Z`;
  const sign = offset < 0 ? '-' : '+';
  const minutes = Math.abs(offset) / 60_000;
  return `${local}${sign}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** Upstream `getJobFromTemplate2`. */
export function jobFromTemplate(cronJob: CronJob, scheduledTime: number): Job {
  const template = cronJob.spec?.jobTemplate;
  const meta = template?.metadata;
  const zone = cronJob.spec?.timeZone ?? '';
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobNameFor(cronJob.metadata?.name ?? '', scheduledTime),
      namespace: cronJob.metadata?.namespace ?? '',
      labels: { ...meta?.labels },
      annotations: {
        ...meta?.annotations,
        [SCHEDULED_TIMESTAMP_ANNOTATION]: formatInZone(scheduledTime, zone),
      },
      ownerReferences: [newControllerRef(cronJob, CRON_JOB_KIND)],
    },
    spec: deepCopy(template?.spec ?? { template: {} }),
  };
}

/** Upstream `ref.GetReference` of a created Job, as `status.active` holds it. */
export function jobReference(job: KubeObject): ObjectReference {
  return {
    kind: 'Job',
    namespace: job.metadata?.namespace ?? '',
    name: job.metadata?.name ?? '',
    uid: job.metadata?.uid ?? '',
    apiVersion: 'batch/v1',
    resourceVersion: job.metadata?.resourceVersion ?? '',
  };
}
