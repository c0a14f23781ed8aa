/**
 * The TTL-after-finished controller against the in-memory API server on a fake clock: a
 * finished Job is deleted exactly when its TTL has passed, not a moment before, and one whose
 * TTL was removed meanwhile is kept.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asKind } from '../../api/model/index.js';
import { formatTime } from '../../api/time.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { FakeClock } from '../../util/clock.js';
import { ttlAfterFinishedController } from './index.js';

const START = Date.parse('2026-01-01T00:00:00Z');
const JOBS = { group: 'batch', version: 'v1', plural: 'jobs', namespace: 'default' } as const;

let h: Harness;
let clock: FakeClock;

before(async () => {
  clock = new FakeClock(START);
  h = await startHarness({ clock });
  h.run(ttlAfterFinishedController);
});

after(async () => {
  await h.close();
});

async function finishedJob(name: string, ttl: number): Promise<void> {
  const created = await h.client.create(JOBS, {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: {
      ttlSecondsAfterFinished: ttl,
      template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
    },
  });
  const at = formatTime(clock.now());
  const status = {
    startTime: at,
    completionTime: at,
    succeeded: 1,
    conditions: [
      { type: 'SuccessCriteriaMet', status: 'True', lastTransitionTime: at },
      { type: 'Complete', status: 'True', lastTransitionTime: at },
    ],
  };
  await h.client.updateStatus({ ...JOBS, name }, { ...created, status });
}

/** Not deleted yet. No garbage collector runs here, so a foreground delete only marks the Job. */
const exists = async (name: string): Promise<boolean> => {
  const job = await h.get({ ...JOBS, name });
  return job !== undefined && !job.metadata?.deletionTimestamp;
};

describe('ttl-after-finished controller', () => {
  it('deletes a finished Job when its TTL has passed, not before', async () => {
    await finishedJob('done', 60);
    // Let the controller see it and park the key until the TTL passes.
    await new Promise((r) => setTimeout(r, 200));
    await clock.step(59_000);
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(await exists('done'), 'deleted before its TTL');
    await clock.step(1_000);
    await eventually(async () => !(await exists('done')));
    const job = await h.get({ ...JOBS, name: 'done' });
    assert.deepEqual(job?.metadata?.finalizers, ['foregroundDeletion']);
  });

  it('re-reads the Job before deleting: a TTL removed meanwhile keeps it', async () => {
    await finishedJob('kept', 30);
    await new Promise((r) => setTimeout(r, 200));
    await h.client.patch(
      { ...JOBS, name: 'kept' },
      { spec: { ttlSecondsAfterFinished: null } },
      'merge',
    );
    await clock.step(31_000);
    await new Promise((r) => setTimeout(r, 300));
    const job = asKind(await h.client.get({ ...JOBS, name: 'kept' }), 'Job');
    assert.equal(job.spec?.ttlSecondsAfterFinished, undefined);
  });
});
