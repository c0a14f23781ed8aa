import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Job } from '../../api/model/batch.generated.js';
import type { Pod } from '../../api/model/index.js';
import { type JobLookup, podAdded, podDeleted, podUpdated } from './pod-events.js';
import { makeJob, makePod } from './testing/world.js';

const running = makeJob({});
const finished: Job = {
  ...running,
  status: { conditions: [{ type: 'Complete', status: 'True' }] },
};
const lookup = (job?: Job): JobLookup => ({ get: () => job });
const noFinalizer = (p: Pod): Pod => ({ ...p, metadata: { ...p.metadata, finalizers: [] } });

describe('job pod events', () => {
  it('a new pod of a live Job is an observed creation and a sync', () => {
    const e = podAdded(lookup(running), makePod('a'));
    assert.deepEqual(e.creationsObserved, ['ns/j']);
    assert.deepEqual(e.enqueue, ['ns/j']);
    assert.deepEqual(e.orphans, []);
  });

  it('a tracked pod whose Job is gone or finished is an orphan to free', () => {
    assert.deepEqual(podAdded(lookup(undefined), makePod('a')).orphans, ['ns/p-a']);
    assert.deepEqual(podAdded(lookup(finished), makePod('a')).orphans, ['ns/p-a']);
    assert.deepEqual(podAdded(lookup(undefined), noFinalizer(makePod('a'))).orphans, []);
  });

  it('a pod of a namesake Job (other UID) belongs to nobody', () => {
    const other = { ...running, metadata: { ...running.metadata, uid: 'other' } };
    const e = podAdded(lookup(other), makePod('a'));
    assert.deepEqual(e.enqueue, []);
    assert.deepEqual(e.orphans, ['ns/p-a']);
  });

  it('an update that drops the finalizer ends the pending removal', () => {
    const e = podUpdated(lookup(running), makePod('a'), noFinalizer(makePod('a')));
    assert.deepEqual(e.finalizerGone, ['a']);
    assert.deepEqual(e.enqueue, ['ns/j']);
  });

  it('an update that sets the deletionTimestamp observes the deletion', () => {
    const e = podUpdated(lookup(running), makePod('a'), makePod('a', { deleted: true }));
    assert.deepEqual(e.deletionsObserved, [{ jobKey: 'ns/j', podKey: 'ns/p-a' }]);
  });

  it('a deleted pod observes the deletion and ends any pending removal', () => {
    const e = podDeleted(lookup(running), makePod('a'));
    assert.deepEqual(e.deletionsObserved, [{ jobKey: 'ns/j', podKey: 'ns/p-a' }]);
    assert.deepEqual(e.finalizerGone, ['a']);
  });
});
