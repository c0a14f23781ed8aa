/**
 * manageReplicas with a fake PodControl: slow start, burst cap, expectations on failures, NotFound.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asKind, type Pod, type ReplicaSet } from '../../api/model/index.js';
import { StatusCodeError } from '../../client/lister-watcher.js';
import { UIDTrackingExpectations } from '../../controller/expectations.js';
import { FakeClock } from '../../util/clock.js';
import { manageReplicas, replicaChange } from './manage-replicas.js';
import type { PodControl } from './pod-control.js';

describe('replicaChange', () => {
  const cases: [number, number, number, number][] = [
    // active, desired, burst, change
    [0, 3, 500, 3],
    [3, 3, 500, 0],
    [5, 2, 500, -3],
    [0, 1000, 500, 500],
    [1000, 0, 500, -500],
    [0, 0, 500, 0],
  ];
  for (const [active, desired, burst, want] of cases) {
    it(`${active} active, ${desired} desired, burst ${burst} → ${want}`, () =>
      assert.equal(replicaChange(active, desired, burst), want));
  }
});

const RS = asKind(
  {
    metadata: { name: 'rs', namespace: 'ns', uid: 'u' },
    spec: { replicas: 0 },
  },
  'ReplicaSet',
);

function withReplicas(n: number): ReplicaSet {
  return asKind({ ...RS, spec: { replicas: n } }, 'ReplicaSet');
}

function pod(name: string): Pod {
  return asKind({ metadata: { name, namespace: 'ns', uid: `uid-${name}` } }, 'Pod');
}

const quota = () => new StatusCodeError(403, { reason: 'Forbidden', message: 'exceeded quota' });
const terminating = () =>
  new StatusCodeError(403, {
    reason: 'Forbidden',
    message: 'ns is being terminated',
    details: { causes: [{ reason: 'NamespaceTerminating' }] },
  });
const notFound = () => new StatusCodeError(404, { reason: 'NotFound', message: 'gone' });

/** A PodControl whose n-th create (1-based) fails with `failCreate(n)`, if that returns an error. */
function fakeControl(opts: {
  failCreate?: (n: number) => Error | undefined;
  failDelete?: (name: string) => Error | undefined;
}) {
  const log = { creates: 0, deleted: [] as string[] };
  const control: PodControl = {
    async createPod() {
      log.creates++;
      const err = opts.failCreate?.(log.creates);
      if (err) throw err;
    },
    async deletePod(_rs, p) {
      const err = opts.failDelete?.(p.metadata?.name ?? '');
      if (err) throw err;
      log.deleted.push(p.metadata?.name ?? '');
    },
  };
  return { control, log };
}

describe('manageReplicas', () => {
  it('slow start stops at the first failing batch and lowers the expectations for the rest', async () => {
    const expectations = new UIDTrackingExpectations({ clock: new FakeClock() });
    // Batches 1, 2, 4: the 4th create (in the third batch) fails, so the batch of 4 ends the run.
    const { control, log } = fakeControl({ failCreate: (n) => (n === 4 ? quota() : undefined) });
    const err = await manageReplicas(
      { pods: control, expectations, now: 0 },
      withReplicas(10),
      [],
      [],
    );
    assert.equal(err?.message, 'exceeded quota');
    assert.equal(log.creates, 7);
    // 10 expected; 6 succeeded and will be observed; the 4 others were lowered now.
    assert.equal(expectations.get('ns/rs')?.add, 6);
  });

  it('a terminating namespace counts as success', async () => {
    const expectations = new UIDTrackingExpectations({ clock: new FakeClock() });
    const { control } = fakeControl({ failCreate: () => terminating() });
    const err = await manageReplicas(
      { pods: control, expectations, now: 0 },
      withReplicas(3),
      [],
      [],
    );
    assert.equal(err, undefined);
    assert.equal(expectations.get('ns/rs')?.add, 3);
  });

  it('caps creates at the burst size', async () => {
    const expectations = new UIDTrackingExpectations({ clock: new FakeClock() });
    const { control, log } = fakeControl({});
    await manageReplicas(
      { pods: control, expectations, now: 0, burstReplicas: 4 },
      withReplicas(9),
      [],
      [],
    );
    assert.equal(log.creates, 4);
  });

  it('deletes victims, ignores NotFound and reports the first other error', async () => {
    const expectations = new UIDTrackingExpectations({ clock: new FakeClock() });
    const pods = ['a', 'b', 'c', 'd'].map(pod);
    const { control, log } = fakeControl({
      failDelete: (n) => (n === 'a' ? notFound() : n === 'b' ? quota() : undefined),
    });
    const err = await manageReplicas(
      { pods: control, expectations, now: 0 },
      withReplicas(0),
      pods,
      [],
    );
    assert.equal(err?.message, 'exceeded quota');
    assert.deepEqual(log.deleted.sort(), ['c', 'd']);
    // a and b will never be observed: only c and d remain expected.
    assert.deepEqual([...expectations.deleteKeys('ns/rs')].sort(), ['ns/c', 'ns/d']);
    assert.equal(expectations.get('ns/rs')?.del, 2);
  });

  it('does nothing when the count is right', async () => {
    const expectations = new UIDTrackingExpectations({ clock: new FakeClock() });
    const { control, log } = fakeControl({});
    const err = await manageReplicas(
      { pods: control, expectations, now: 0 },
      withReplicas(1),
      [pod('a')],
      [],
    );
    assert.equal(err, undefined);
    assert.equal(log.creates + log.deleted.length, 0);
    assert.equal(expectations.get('ns/rs'), undefined);
  });
});
