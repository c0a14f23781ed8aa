/**
 * A CronJob over one hour of injected time on `fleetyard up --clock virtual` (paused at a fixed
 * start, so every time is exact), driven by kubectl 1.33 and `fleetyard clock advance`: a
 * CronJob scheduled every ten minutes gets one Job per ten minutes, created at its time, named
 * `<cronjob>-<minutes since the epoch>` and annotated with its scheduled time; finished Jobs are
 * trimmed to `successfulJobsHistoryLimit`; the status and the table show the last schedule. Then
 * `kubectl create cronjob` (a protobuf body from kubectl 1.33) and `kubectl create job
 * --from=cronjob/…`.
 *
 * Only the CronJob controller runs (`--controllers=cronjob-controller`): the test writes each
 * Job's status as the Job controller would, so it tests the CronJob controller alone, and an
 * hour of virtual time costs about 15 s of wall time (every timer of an idle cluster is a jump
 * of the clock; more controllers and nodes mean more of them).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { FLEETYARD_BIN } from './testing/cluster.js';
import { type Kubectl, kubectl } from './testing/kubectl.js';
import { clusterForFile, lines, pollUntil } from './testing/kubectl-fixtures.js';

const run = promisify(execFile);
const START = Date.parse('2026-01-01T00:00:00Z');
const MINUTE = 60_000;
const cluster = clusterForFile({
  args: [
    '--clock=virtual',
    '--clock-start=2026-01-01T00:00:00Z',
    '--speed=0',
    '--controllers=cronjob-controller',
  ],
});

interface Job {
  readonly metadata: {
    readonly name: string;
    readonly creationTimestamp?: string;
    readonly annotations?: Record<string, string>;
    readonly ownerReferences?: { readonly name: string; readonly kind: string }[];
  };
  readonly status?: { readonly conditions?: { readonly type: string; readonly status: string }[] };
}

const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
const finished = (j: Job): boolean =>
  j.status?.conditions?.some(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  ) ?? false;

async function advance(duration: string): Promise<void> {
  const { stdout } = await run(
    process.execPath,
    [FLEETYARD_BIN, 'clock', 'advance', duration, '--kubeconfig', cluster().kubeconfig],
    { timeout: 60_000 },
  );
  assert.match(stdout, /^clock advanced to /);
}

async function jobsOf(k: Kubectl, cronJob: string): Promise<Job[]> {
  const list = JSON.parse(await k.ok(['get', 'jobs', '-o', 'json'])) as { items: Job[] };
  return list.items
    .filter((j) =>
      j.metadata.ownerReferences?.some((r) => r.kind === 'CronJob' && r.name === cronJob),
    )
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
}

/** What the Job controller writes when a Job's pod succeeded. */
async function completeJob(k: Kubectl, name: string, at: number): Promise<void> {
  const status = {
    startTime: iso(at),
    completionTime: iso(at),
    succeeded: 1,
    conditions: [
      { type: 'SuccessCriteriaMet', status: 'True' },
      { type: 'Complete', status: 'True' },
    ],
  };
  await k.ok([
    'patch',
    'job',
    name,
    '--subresource=status',
    '--type=merge',
    '-p',
    JSON.stringify({ status }),
  ]);
}

const tick = {
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name: 'tick', namespace: 'default' },
  spec: {
    schedule: '*/10 * * * *',
    successfulJobsHistoryLimit: 2,
    jobTemplate: {
      spec: {
        template: {
          spec: { restartPolicy: 'Never', containers: [{ name: 'tick', image: 'busybox' }] },
        },
      },
    },
  },
};

describe('CronJob over an hour of virtual time (kubectl 1.33)', () => {
  const k = (): Kubectl => {
    const c = kubectl('1.33', cluster().kubeconfig);
    assert.ok(c, 'kubectl.1.33 is not installed beside the kubectl on the PATH');
    return c;
  };

  it('runs */10 six times in an hour, at the scheduled times, and keeps two finished Jobs', async (t) => {
    const served = await k().ok(['api-resources', '--api-group=batch', '-o', 'name']);
    if (!served.includes('jobs.batch')) {
      t.skip('the Job kind is not served yet: a CronJob has nothing to create');
      return;
    }
    await k().ok(['apply', '-f', '-'], { input: JSON.stringify(tick) });
    // The controller wakes 100 ms after each time (upstream's delta), so go 1 s past the hour.
    await advance('1h0m1s');
    const times = [1, 2, 3, 4, 5, 6].map((n) => START + n * 10 * MINUTE);
    const seen = times.map((at) => `tick-${at / MINUTE}`);
    const jobs = await jobsOf(k(), 'tick');
    assert.deepEqual(
      jobs.map((j) => j.metadata.name),
      seen,
    );
    jobs.forEach((job, i) => {
      const at = iso(times[i] ?? 0);
      assert.equal(job.metadata.creationTimestamp, at, 'created at its scheduled time');
      assert.equal(
        job.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'],
        at,
      );
      assert.ok(!finished(job));
    });
    // concurrencyPolicy Allow: all six are active until they finish.
    const running = JSON.parse(
      await k().ok(['get', 'cronjob', 'tick', '-o', 'jsonpath={.status}']),
    ) as { active?: { name: string }[]; lastScheduleTime?: string };
    assert.deepEqual(
      running.active?.map((r) => r.name),
      seen,
    );
    assert.equal(running.lastScheduleTime, '2026-01-01T01:00:00Z');
    for (const [i, name] of seen.entries()) await completeJob(k(), name, (times[i] ?? 0) + 1000);
    const kept = await pollUntil('history trimmed to 2', async () => {
      const names = (await jobsOf(k(), 'tick')).map((j) => j.metadata.name);
      return names.length === 2 ? names : undefined;
    });
    assert.deepEqual(kept, seen.slice(4));

    const status = JSON.parse(
      await k().ok(['get', 'cronjob', 'tick', '-o', 'jsonpath={.status}']),
    ) as Record<string, unknown>;
    assert.equal(status.lastScheduleTime, '2026-01-01T01:00:00Z');
    assert.equal(status.active, undefined);
    assert.match(String(status.lastSuccessfulTime), /^2026-01-01T01:00:0\dZ$/);

    const table = lines(await k().ok(['get', 'cronjob', 'tick']));
    assert.match(
      table[0] ?? '',
      /^NAME\s+SCHEDULE\s+TIMEZONE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE$/,
    );
    assert.match(table[1] ?? '', /^tick\s+\*\/10 \* \* \* \*\s+<none>\s+False\s+0\s+\S+\s+60m$/);

    const events = JSON.parse(
      await k().ok(['get', 'events', '--field-selector', 'involvedObject.name=tick', '-o', 'json']),
    ) as { items: { reason: string; count?: number }[] };
    const count = (reason: string) =>
      events.items.filter((e) => e.reason === reason).reduce((n, e) => n + (e.count ?? 1), 0);
    assert.equal(count('SuccessfulCreate'), 6);
    assert.equal(count('SuccessfulDelete'), 4);
  });

  it('kubectl create cronjob, then create job --from=cronjob', async (t) => {
    const created = await k().run([
      'create',
      'cronjob',
      'made',
      '--image=busybox',
      '--schedule=*/10 * * * *',
    ]);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout, 'cronjob.batch/made created\n');
    const cj = JSON.parse(await k().ok(['get', 'cronjob', 'made', '-o', 'json'])) as {
      spec: Record<string, unknown> & {
        jobTemplate: { spec: { template: { spec: { restartPolicy: string } } } };
      };
    };
    assert.equal(cj.spec.concurrencyPolicy, 'Allow');
    assert.equal(cj.spec.suspend, false);
    assert.equal(cj.spec.successfulJobsHistoryLimit, 3);
    assert.equal(cj.spec.failedJobsHistoryLimit, 1);
    assert.equal(cj.spec.jobTemplate.spec.template.spec.restartPolicy, 'OnFailure');

    const served = await k().ok(['api-resources', '--api-group=batch', '-o', 'name']);
    if (!served.includes('jobs.batch')) {
      t.skip(
        'the Job kind is not served yet: kubectl create job --from=cronjob has nothing to create',
      );
      return;
    }
    const job = await k().run(['create', 'job', 'by-hand', '--from=cronjob/made']);
    assert.equal(job.code, 0, job.stderr);
    assert.equal(job.stdout, 'job.batch/by-hand created\n');
    const owner = await k().ok([
      'get',
      'job',
      'by-hand',
      '-o',
      'jsonpath={.metadata.ownerReferences[0].name}',
    ]);
    assert.equal(owner, 'made');
  });
});
