/**
 * The CronJob controller against a real in-memory API server on a fake clock: Jobs appear at
 * the scheduled times with their names, annotation and owner, `status.active` and
 * `lastScheduleTime` follow; completing a Job (the test writes its status: no Job controller
 * runs here) moves it out of the active list, sets `lastSuccessfulTime`, and the history limit
 * trims the oldest; a controller that starts late creates only the most recent missed run.
 *
 * The Job kind is served by the Job kind's own definition when it is registered; otherwise a
 * bare stand-in (no defaults or validation) is added, so these tests do not depend on it.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { builtinResources } from '../../api/kinds/index.js';
import type { KubeObject } from '../../api/object.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { FakeClock } from '../../util/clock.js';
import { createCronJobController } from './controller.js';
import { SCHEDULED_TIMESTAMP_ANNOTATION } from './job-template.js';
import { CRON_JOBS, JOBS } from './sync.js';

const START = Date.parse('2026-01-01T00:00:00Z');
const MINUTE = 60_000;

const STAND_IN_JOBS: ResourceDefinition = {
  group: 'batch',
  version: 'v1',
  kind: 'Job',
  listKind: 'JobList',
  plural: 'jobs',
  singular: 'job',
  namespaced: true,
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: true,
  strategy: {},
};

async function bench(): Promise<{ h: Harness; clock: FakeClock }> {
  const clock = new FakeClock(START);
  const h = await startHarness({ clock });
  const served = builtinResources.some((d) => d.group === 'batch' && d.plural === 'jobs');
  if (!served) h.api.server.registry.add(STAND_IN_JOBS);
  return { h, clock };
}

function cronJob(name: string, spec: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name, namespace: 'default' },
    spec: {
      schedule: '*/10 * * * *',
      successfulJobsHistoryLimit: 2,
      jobTemplate: {
        metadata: { labels: { app: name } },
        spec: {
          template: {
            spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
          },
        },
      },
      ...spec,
    },
  };
}

const jobNames = async (h: Harness): Promise<string[]> =>
  (await h.list({ ...JOBS, namespace: 'default' })).map((j) => j.metadata?.name ?? '').sort();

async function status(h: Harness, name: string): Promise<Record<string, unknown>> {
  const cj = await h.get({ ...CRON_JOBS, namespace: 'default', name });
  return (cj?.status as Record<string, unknown> | undefined) ?? {};
}

/** Steps the clock and fires what is due until `probe` holds. */
async function until<T>(clock: FakeClock, probe: () => Promise<T | undefined | false>): Promise<T> {
  return eventually(async () => {
    await clock.step(0);
    return probe();
  });
}

/** What the Job controller would write when a Job succeeds. */
async function complete(h: Harness, clock: FakeClock, name: string): Promise<void> {
  const ref = { ...JOBS, namespace: 'default', name };
  const job = await h.client.get(ref);
  const at = new Date(clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
  await h.client.updateStatus(ref, {
    ...job,
    status: {
      startTime: at,
      completionTime: at,
      succeeded: 1,
      conditions: [
        { type: 'SuccessCriteriaMet', status: 'True' },
        { type: 'Complete', status: 'True' },
      ],
    },
  });
}

describe('cronjob controller', () => {
  let h: Harness;
  let clock: FakeClock;
  before(async () => {
    ({ h, clock } = await bench());
    h.run(createCronJobController({ workers: 1 }));
  });
  after(async () => h.close());

  it('creates a Job at each time, records it, and trims finished Jobs to the limit', async () => {
    const created = await h.client.create(
      { ...CRON_JOBS, namespace: 'default' },
      cronJob('backup'),
    );
    const uid = created.metadata?.uid;
    const expected: string[] = [];
    for (let run = 1; run <= 4; run++) {
      await clock.step(10 * MINUTE + 1000 - (clock.now() - START - (run - 1) * 10 * MINUTE));
      const name = `backup-${(START + run * 10 * MINUTE) / MINUTE}`;
      expected.push(name);
      const s = await until(clock, async () => {
        const st = await status(h, 'backup');
        const active = (st.active as { name?: string }[] | undefined) ?? [];
        return active.some((a) => a.name === name) ? st : undefined;
      });
      assert.equal(
        s.lastScheduleTime,
        new Date(START + run * 10 * MINUTE).toISOString().replace('.000Z', 'Z'),
      );
      const job = await h.client.get({ ...JOBS, namespace: 'default', name });
      assert.equal(job.metadata?.ownerReferences?.[0]?.uid, uid);
      assert.equal(job.metadata?.ownerReferences?.[0]?.kind, 'CronJob');
      assert.equal(job.metadata?.labels?.app, 'backup');
      assert.equal(
        job.metadata?.annotations?.[SCHEDULED_TIMESTAMP_ANNOTATION],
        new Date(START + run * 10 * MINUTE).toISOString().replace('.000Z', 'Z'),
      );
      await complete(h, clock, name);
      await until(clock, async () =>
        (await status(h, 'backup')).active === undefined ? true : undefined,
      );
    }
    // Four succeeded, the limit is two: the two oldest were deleted.
    assert.deepEqual(
      await until(clock, async () => {
        const names = await jobNames(h);
        return names.length === 2 ? names : undefined;
      }),
      expected.slice(2),
    );
    const s = await status(h, 'backup');
    assert.equal(
      s.lastSuccessfulTime,
      new Date(START + 40 * MINUTE + 1000).toISOString().replace('.000Z', 'Z'),
    );
    const reasons = h.events.events
      .filter((e) => e.object.metadata?.uid === uid)
      .map((e) => e.reason);
    assert.equal(reasons.filter((r) => r === 'SuccessfulCreate').length, 4);
    assert.equal(reasons.filter((r) => r === 'SawCompletedJob').length, 4);
    assert.equal(reasons.filter((r) => r === 'SuccessfulDelete').length, 2);
    assert.ok(!reasons.includes('UnexpectedJob'), reasons.join(','));
  });
});

describe('cronjob controller started late', () => {
  let h: Harness;
  let clock: FakeClock;
  before(async () => ({ h, clock } = await bench()));
  after(async () => h.close());

  it('creates only the most recent missed run', async () => {
    await h.client.create(
      { ...CRON_JOBS, namespace: 'default' },
      cronJob('late', { startingDeadlineSeconds: 600 }),
    );
    await clock.step(35 * MINUTE);
    h.run(createCronJobController({ workers: 1 }));
    const names = await until(clock, async () => {
      const n = await jobNames(h);
      return n.length > 0 ? n : undefined;
    });
    assert.deepEqual(names, [`late-${(START + 30 * MINUTE) / MINUTE}`]);
    const s = await until(clock, async () => {
      const st = await status(h, 'late');
      return st.lastScheduleTime !== undefined ? st : undefined;
    });
    assert.equal(s.lastScheduleTime, '2026-01-01T00:30:00Z');
  });
});

describe('cronjob controller: concurrency and the name lock', () => {
  let h: Harness;
  let clock: FakeClock;
  before(async () => {
    ({ h, clock } = await bench());
    h.run(createCronJobController({ workers: 1 }));
  });
  after(async () => h.close());

  const activeNames = async (name: string): Promise<string[]> =>
    (((await status(h, name)).active as { name?: string }[] | undefined) ?? []).map(
      (a) => a.name ?? '',
    );
  const reasonsOf = (uid: string | undefined) =>
    h.events.events.filter((e) => e.object.metadata?.uid === uid).map((e) => e.reason);

  it('Replace deletes the running Job and starts the next; Forbid skips while one runs', async () => {
    const replace = await h.client.create(
      { ...CRON_JOBS, namespace: 'default' },
      cronJob('swap', { concurrencyPolicy: 'Replace' }),
    );
    const forbid = await h.client.create(
      { ...CRON_JOBS, namespace: 'default' },
      cronJob('hold', { concurrencyPolicy: 'Forbid' }),
    );
    const first = (START + 10 * MINUTE) / MINUTE;
    await clock.step(10 * MINUTE + 1000);
    await until(clock, async () => ((await activeNames('swap')).length === 1 ? true : undefined));
    await until(clock, async () => ((await activeNames('hold')).length === 1 ? true : undefined));
    await clock.step(10 * MINUTE);
    const second = first + 10;
    assert.deepEqual(
      await until(clock, async () => {
        const names = await activeNames('swap');
        return names[0] === `swap-${second}` ? names : undefined;
      }),
      [`swap-${second}`],
    );
    assert.deepEqual(
      (await jobNames(h)).filter((n) => n.startsWith('swap-')),
      [`swap-${second}`],
    );
    await until(clock, async () =>
      reasonsOf(forbid.metadata?.uid).includes('JobAlreadyActive') ? true : undefined,
    );
    assert.deepEqual(await activeNames('hold'), [`hold-${first}`]);
    assert.ok(reasonsOf(replace.metadata?.uid).includes('SuccessfulDelete'));
  });

  it('records a Job of its own that already has the name, without creating it again', async () => {
    const cj = await h.client.create({ ...CRON_JOBS, namespace: 'default' }, cronJob('lock'));
    const due = Math.ceil((clock.now() + 1) / (10 * MINUTE)) * 10 * MINUTE;
    const name = `lock-${due / MINUTE}`;
    // As if a previous controller created it and crashed before writing the status.
    await h.client.create(
      { ...JOBS, namespace: 'default' },
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: {
          name,
          ownerReferences: [
            {
              apiVersion: 'batch/v1',
              kind: 'CronJob',
              name: 'lock',
              uid: cj.metadata?.uid ?? '',
              controller: true,
            },
          ],
        },
        spec: {
          template: {
            spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] },
          },
        },
      },
    );
    await clock.step(due - clock.now() + 1000);
    assert.deepEqual(
      await until(clock, async () => {
        const names = await activeNames('lock');
        return names.length > 0 ? names : undefined;
      }),
      [name],
    );
    assert.ok(!reasonsOf(cj.metadata?.uid).includes('SuccessfulCreate'));
  });
});
