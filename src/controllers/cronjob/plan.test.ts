/**
 * The CronJob planner, table-driven after upstream's `TestControllerV2SyncCronJob` situations:
 * first runs, missed times after a restart (within and beyond `startingDeadlineSeconds`),
 * too many misses, suspend, Forbid, Replace, an already processed time, finished Jobs
 * (`SawCompletedJob`, `lastSuccessfulTime`, history limits), unexpected and missing Jobs, a
 * CronJob being deleted, and bad zones and schedules. Invariants checked on every row: a
 * created Job is named `<cronjob>-<minutes>` for a time at or before now and owned by the
 * CronJob, and the requeue lands in the future.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CronJob, CronJobSpec, Job } from '../../api/model/batch.generated.js';
import { SCHEDULED_TIMESTAMP_ANNOTATION } from './job-template.js';
import { type Plan, planCronJob } from './plan.js';

const T = (iso: string): number => Date.parse(iso);
const CREATED = '2026-01-01T00:00:00Z';

function cronJob(
  spec: Partial<CronJobSpec> = {},
  status: CronJob['status'] = {},
  meta = {},
): CronJob {
  return {
    metadata: { name: 'cj', namespace: 'ns', uid: 'cj-uid', creationTimestamp: CREATED, ...meta },
    spec: {
      schedule: '*/10 * * * *',
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
      jobTemplate: {
        metadata: { labels: { app: 'x' } },
        spec: { template: { spec: { containers: [] } } },
      },
      ...spec,
    },
    status,
  };
}

type Outcome = 'Complete' | 'Failed' | 'Running';
function job(name: string, outcome: Outcome, times: { start?: string; end?: string } = {}): Job {
  const conditions = outcome === 'Running' ? [] : [{ type: outcome, status: 'True' }];
  return {
    metadata: {
      name,
      namespace: 'ns',
      uid: `${name}-uid`,
      ownerReferences: [
        { apiVersion: 'batch/v1', kind: 'CronJob', name: 'cj', uid: 'cj-uid', controller: true },
      ],
    },
    status: {
      conditions,
      ...(times.start === undefined ? {} : { startTime: times.start }),
      ...(times.end === undefined ? {} : { completionTime: times.end }),
    },
  };
}
const ref = (name: string) => ({
  kind: 'Job',
  namespace: 'ns',
  name,
  uid: `${name}-uid`,
  apiVersion: 'batch/v1',
});

interface Row {
  readonly name: string;
  readonly cronJob: CronJob;
  readonly jobs?: Job[];
  readonly missing?: string[];
  readonly now: string;
  /** The Job created for this time, or none. */
  readonly creates?: string;
  readonly events?: string[];
  readonly replace?: string[];
  readonly historyDeletes?: string[];
  /** Requeue: an ISO time it lands at, or 'none'. */
  readonly requeueAt?: string;
  readonly check?: (plan: Plan) => void;
}

const rows: Row[] = [
  {
    name: 'before the first time: nothing, requeue at it',
    cronJob: cronJob(),
    now: '2026-01-01T00:05:00Z',
    requeueAt: '2026-01-01T00:10:00.100Z',
  },
  {
    name: 'at the first time: create',
    cronJob: cronJob(),
    now: '2026-01-01T00:10:00Z',
    creates: '2026-01-01T00:10:00Z',
    requeueAt: '2026-01-01T00:20:00.100Z',
  },
  {
    name: 'a restart after three missed times runs only the latest',
    cronJob: cronJob({}, { lastScheduleTime: '2026-01-01T00:10:00Z' }),
    now: '2026-01-01T00:45:00Z',
    creates: '2026-01-01T00:40:00Z',
    requeueAt: '2026-01-01T00:50:00.100Z',
  },
  {
    name: 'the latest missed time within the deadline runs',
    cronJob: cronJob(
      { startingDeadlineSeconds: 300 },
      { lastScheduleTime: '2026-01-01T00:10:00Z' },
    ),
    now: '2026-01-01T00:44:00Z',
    creates: '2026-01-01T00:40:00Z',
  },
  {
    // Upstream looks for owed times only after now - deadline, so nothing is found to miss.
    name: 'missed beyond the deadline: no Job (and no event, as upstream)',
    cronJob: cronJob({ startingDeadlineSeconds: 60 }, { lastScheduleTime: '2026-01-01T00:10:00Z' }),
    now: '2026-01-01T00:45:00Z',
    events: [],
    requeueAt: '2026-01-01T00:50:00.100Z',
  },
  {
    name: 'too many missed times (over 100): reported, the latest still runs',
    cronJob: cronJob({ schedule: '* * * * *' }),
    now: '2026-01-01T03:00:30Z',
    creates: '2026-01-01T03:00:00Z',
    events: ['Warning TooManyMissedTimes'],
  },
  {
    name: 'suspended: nothing, no requeue',
    cronJob: cronJob({ suspend: true }),
    now: '2026-01-01T00:10:00Z',
    requeueAt: 'none',
  },
  {
    name: 'Forbid with an active Job: JobAlreadyActive',
    cronJob: cronJob(
      { concurrencyPolicy: 'Forbid' },
      { active: [ref('cj-29451852')], lastScheduleTime: '2026-01-01T00:10:00Z' },
    ),
    jobs: [job('cj-29451852', 'Running')],
    now: '2026-01-01T00:20:00Z',
    events: ['Normal JobAlreadyActive'],
    requeueAt: '2026-01-01T00:30:00.100Z',
  },
  {
    name: 'Allow with an active Job: a second one runs',
    cronJob: cronJob(
      {},
      { active: [ref('cj-29451852')], lastScheduleTime: '2026-01-01T00:10:00Z' },
    ),
    jobs: [job('cj-29451852', 'Running')],
    now: '2026-01-01T00:20:00Z',
    creates: '2026-01-01T00:20:00Z',
  },
  {
    name: 'Replace deletes the active Job first',
    cronJob: cronJob(
      { concurrencyPolicy: 'Replace' },
      { active: [ref('cj-29451852')], lastScheduleTime: '2026-01-01T00:10:00Z' },
    ),
    jobs: [job('cj-29451852', 'Running')],
    now: '2026-01-01T00:20:00Z',
    creates: '2026-01-01T00:20:00Z',
    replace: ['cj-29451852'],
  },
  {
    name: 'the time was already run (lastScheduleTime): requeue only',
    cronJob: cronJob({}, { lastScheduleTime: '2026-01-01T00:10:00Z' }),
    now: '2026-01-01T00:15:00Z',
    requeueAt: '2026-01-01T00:20:00.100Z',
  },
  {
    name: 'a finished active Job: SawCompletedJob, lastSuccessfulTime',
    cronJob: cronJob(
      {},
      { active: [ref('cj-29451852')], lastScheduleTime: '2026-01-01T00:10:00Z' },
    ),
    jobs: [
      job('cj-29451852', 'Complete', {
        start: '2026-01-01T00:10:01Z',
        end: '2026-01-01T00:12:00Z',
      }),
    ],
    now: '2026-01-01T00:15:00Z',
    events: ['Normal SawCompletedJob'],
    check: (p) => {
      assert.equal(p.status.active, undefined);
      assert.equal(p.status.lastSuccessfulTime, '2026-01-01T00:12:00Z');
    },
  },
  {
    name: 'history limits: the oldest finished Jobs beyond 3 and 1 go',
    cronJob: cronJob({}, { lastScheduleTime: '2026-01-01T01:00:00Z' }),
    jobs: [
      job('ok-1', 'Complete', { start: '2026-01-01T00:10:00Z', end: '2026-01-01T00:11:00Z' }),
      job('ok-2', 'Complete', { start: '2026-01-01T00:20:00Z', end: '2026-01-01T00:21:00Z' }),
      job('ok-3', 'Complete', { start: '2026-01-01T00:30:00Z', end: '2026-01-01T00:31:00Z' }),
      job('ok-4', 'Complete', { start: '2026-01-01T00:40:00Z', end: '2026-01-01T00:41:00Z' }),
      job('bad-1', 'Failed', { start: '2026-01-01T00:50:00Z' }),
      job('bad-2', 'Failed', { start: '2026-01-01T01:00:00Z' }),
      job('bad-0', 'Failed'),
    ],
    now: '2026-01-01T01:05:00Z',
    historyDeletes: ['ok-1', 'bad-1', 'bad-2'],
    check: (p) => assert.equal(p.status.lastSuccessfulTime, '2026-01-01T00:41:00Z'),
  },
  {
    name: 'a running Job not in the active list: UnexpectedJob',
    cronJob: cronJob({}, { lastScheduleTime: '2026-01-01T00:10:00Z' }),
    jobs: [job('stray', 'Running')],
    now: '2026-01-01T00:15:00Z',
    events: ['Warning UnexpectedJob'],
  },
  {
    name: 'an active Job the API does not have: MissingJob, then the time runs',
    cronJob: cronJob(
      {},
      { active: [ref('cj-29451852')], lastScheduleTime: '2026-01-01T00:10:00Z' },
    ),
    missing: ['cj-29451852-uid'],
    now: '2026-01-01T00:20:00Z',
    events: ['Normal MissingJob'],
    creates: '2026-01-01T00:20:00Z',
  },
  {
    name: 'being deleted: status only',
    cronJob: cronJob({}, {}, { deletionTimestamp: '2026-01-01T00:09:00Z' }),
    now: '2026-01-01T00:10:00Z',
    requeueAt: 'none',
  },
  {
    name: 'an unknown zone: UnknownTimeZone, nothing else',
    cronJob: cronJob({ timeZone: 'Mars/Base' }),
    now: '2026-01-01T00:10:00Z',
    events: ['Warning UnknownTimeZone'],
    requeueAt: 'none',
  },
  {
    name: 'an unparseable schedule',
    cronJob: cronJob({ schedule: 'every day' }),
    now: '2026-01-01T00:10:00Z',
    events: ['Warning UnparseableSchedule'],
    requeueAt: 'none',
  },
  {
    name: 'a schedule that never fires: InvalidSchedule',
    cronJob: cronJob({ schedule: '0 0 30 2 *' }),
    now: '2026-01-01T00:10:00Z',
    events: ['Warning InvalidSchedule'],
    requeueAt: 'none',
  },
  {
    name: 'a zone: the time is read there, the annotation carries its offset',
    cronJob: cronJob({ schedule: '0 9 * * *', timeZone: 'Europe/Berlin' }),
    now: '2026-01-01T08:00:00Z',
    creates: '2026-01-01T08:00:00Z',
    check: (p) =>
      assert.equal(
        p.create?.job.metadata?.annotations?.[SCHEDULED_TIMESTAMP_ANNOTATION],
        '2026-01-01T09:00:00+01:00',
      ),
  },
];

describe('planCronJob', () => {
  for (const row of rows) {
    it(row.name, () => {
      const now = T(row.now);
      const plan = planCronJob({
        cronJob: row.cronJob,
        jobs: row.jobs ?? [],
        missing: new Set(row.missing ?? []),
        now,
      });
      const created = plan.create;
      if (row.creates === undefined) assert.equal(created, undefined);
      else {
        assert.ok(created);
        const at = T(row.creates);
        assert.equal(created.scheduledTime, at);
        assert.ok(at <= now);
        assert.equal(created.job.metadata?.name, `cj-${at / 60_000}`);
        assert.equal(created.job.metadata?.ownerReferences?.[0]?.uid, 'cj-uid');
        assert.deepEqual(created.job.metadata?.labels, { app: 'x' });
        assert.ok(created.requeueAfter > 0);
      }
      if (row.events !== undefined) {
        const seen = plan.events.map((e) => `${e.type} ${e.reason}`);
        assert.deepEqual(seen, row.events);
      }
      assert.deepEqual(
        plan.replace.map((r) => r.name),
        row.replace ?? [],
      );
      assert.deepEqual(
        plan.historyDeletes.map((j) => j.metadata?.name),
        row.historyDeletes ?? [],
      );
      if (row.requeueAt === 'none') assert.equal(plan.requeueAfter, undefined);
      else if (row.requeueAt !== undefined) {
        const wait = created?.requeueAfter ?? plan.requeueAfter;
        assert.equal(
          new Date(now + (wait ?? Number.NaN)).toISOString(),
          new Date(row.requeueAt).toISOString(),
        );
      }
      row.check?.(plan);
    });
  }
});
