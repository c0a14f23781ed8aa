/**
 * The Job controller against a real in-memory API server, pods ended by the test as a kubelet
 * would: completions with parallelism, exactly-once counting through the tracking finalizer,
 * backoffLimit, Indexed Jobs with a failed index, suspension, and orphan pods set free.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { COMPLETION_INDEX_KEY, JOB_TRACKING_FINALIZER, jobController } from './index.js';
import {
  condition,
  createJob,
  createNamespace,
  finishPod,
  getJob,
  jobPods,
  jobRef,
} from './testing/fixtures.js';

let h: Harness;

before(async () => {
  h = await startHarness();
  h.run(jobController);
});

after(async () => {
  await h.close();
});

const reasons = (uid: string | undefined): string[] =>
  h.events.events.filter((e) => e.object.metadata?.uid === uid).map((e) => e.reason);

describe('job controller', () => {
  it('runs completions 3 with parallelism 2 to Complete, counting each pod once', async () => {
    await createNamespace(h, 'c3');
    const job = await createJob(h, 'c3', 'work', { completions: 3, parallelism: 2 });
    const first = await eventually(async () => {
      const pods = await jobPods(h, job);
      return pods.length === 2 ? pods : false;
    });
    for (const p of first) assert.ok(p.metadata?.finalizers?.includes(JOB_TRACKING_FINALIZER));
    await finishPod(h, first[0]!, 0);
    await finishPod(h, first[1]!, 0);
    const third = await eventually(async () => {
      const pods = await jobPods(h, job);
      return pods.length === 3 ? pods.find((p) => p.status?.phase !== 'Succeeded') : false;
    });
    await finishPod(h, third, 0);
    const done = await eventually(async () => {
      const cur = await getJob(h, 'c3', 'work');
      return condition(cur, 'Complete') === 'True' ? cur : false;
    });
    assert.equal(done.status?.succeeded, 3);
    assert.equal(done.status?.failed, undefined);
    assert.equal(done.status?.active, undefined);
    assert.deepEqual(done.status?.uncountedTerminatedPods, {});
    assert.equal(condition(done, 'SuccessCriteriaMet'), 'True');
    assert.ok(done.status?.completionTime);
    await eventually(async () =>
      (await jobPods(h, job)).every((p) => !p.metadata?.finalizers?.length),
    );
    assert.ok(reasons(job.metadata?.uid).includes('Completed'));
  });

  it('fails with BackoffLimitExceeded after backoffLimit + 1 failures', async () => {
    await createNamespace(h, 'bl');
    const job = await createJob(h, 'bl', 'flaky', { backoffLimit: 0 });
    const [pod] = await eventually(async () => {
      const pods = await jobPods(h, job);
      return pods.length === 1 ? pods : false;
    });
    await finishPod(h, pod!, 1);
    const failed = await eventually(async () => {
      const cur = await getJob(h, 'bl', 'flaky');
      return condition(cur, 'Failed') === 'True' ? cur : false;
    });
    assert.equal(failed.status?.failed, 1);
    const reason = failed.status?.conditions?.find((c) => c.type === 'Failed')?.reason;
    assert.equal(reason, 'BackoffLimitExceeded');
    assert.equal(condition(failed, 'FailureTarget'), 'True');
    assert.ok(reasons(job.metadata?.uid).includes('BackoffLimitExceeded'));
  });

  it('ends an Indexed Job with a failed index as Failed with failedIndexes', async () => {
    await createNamespace(h, 'ix');
    const job = await createJob(h, 'ix', 'shards', {
      completionMode: 'Indexed',
      completions: 3,
      parallelism: 3,
      backoffLimitPerIndex: 0,
    });
    const pods = await eventually(async () => {
      const list = await jobPods(h, job);
      return list.length === 3 ? list : false;
    });
    const byIndex = new Map(pods.map((p) => [p.metadata?.annotations?.[COMPLETION_INDEX_KEY], p]));
    assert.deepEqual([...byIndex.keys()].sort(), ['0', '1', '2']);
    const one = byIndex.get('1')!;
    assert.equal(one.spec?.hostname, 'shards-1');
    assert.equal(one.metadata?.labels?.[COMPLETION_INDEX_KEY], '1');
    assert.match(one.metadata?.name ?? '', /^shards-1-[a-z0-9]{5}$/);
    assert.equal(one.spec?.containers[0]?.env?.[0]?.name, 'JOB_COMPLETION_INDEX');
    await finishPod(h, byIndex.get('0')!, 0);
    await finishPod(h, one, 3);
    await finishPod(h, byIndex.get('2')!, 0);
    const failed = await eventually(async () => {
      const cur = await getJob(h, 'ix', 'shards');
      return condition(cur, 'Failed') === 'True' ? cur : false;
    });
    assert.equal(failed.status?.completedIndexes, '0,2');
    assert.equal(failed.status?.failedIndexes, '1');
    assert.equal(failed.status?.succeeded, 2);
    assert.equal(failed.status?.failed, 1);
    assert.equal(
      failed.status?.conditions?.find((c) => c.type === 'Failed')?.reason,
      'FailedIndexes',
    );
  });

  it('suspends: deletes active pods, sets Suspended, clears startTime; resumes', async () => {
    await createNamespace(h, 'sus');
    const job = await createJob(h, 'sus', 'later', { parallelism: 2, completions: 2 });
    await eventually(async () => (await jobPods(h, job)).length === 2);
    // The controller writes the status meanwhile: a write may meet a conflict (409) once.
    const suspend = (value: boolean) =>
      eventually(() =>
        h.client.patch(jobRef('sus', 'later'), { spec: { suspend: value } }, 'merge'),
      );
    await suspend(true);
    const suspended = await eventually(async () => {
      const j = await getJob(h, 'sus', 'later');
      return condition(j, 'Suspended') === 'True' && j.status?.active === undefined ? j : false;
    });
    assert.equal(suspended.status?.startTime, undefined);
    await eventually(async () =>
      (await jobPods(h, job)).every((p) => p.metadata?.deletionTimestamp),
    );
    await suspend(false);
    const resumed = await eventually(async () => {
      const j = await getJob(h, 'sus', 'later');
      return condition(j, 'Suspended') === 'False' ? j : false;
    });
    assert.ok(resumed.status?.startTime);
    assert.deepEqual(
      reasons(job.metadata?.uid).filter((r) => r === 'Suspended' || r === 'Resumed'),
      ['Suspended', 'Resumed'],
    );
  });

  it('frees the pods of a deleted Job from the tracking finalizer', async () => {
    await createNamespace(h, 'orph');
    const job = await createJob(h, 'orph', 'gone', { completions: 1 });
    const [pod] = await eventually(async () => {
      const pods = await jobPods(h, job);
      return pods.length === 1 ? pods : false;
    });
    // No garbage collector runs here: the pod keeps its ownerReference to the deleted Job.
    await h.client.delete(jobRef('orph', 'gone'));
    await eventually(async () => {
      const p = await h.get({
        ...RESOURCES.pods,
        namespace: 'orph',
        name: pod!.metadata?.name ?? '',
      });
      return p !== undefined && !(p.metadata?.finalizers ?? []).includes(JOB_TRACKING_FINALIZER);
    });
  });
});
