import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Pod } from '../api/model/index.js';
import { FakeClock } from '../util/clock.js';
import { KeyedHeap } from './keyed-heap.js';
import { backoffDuration, isPodUpdated, podKey, SchedulingQueue } from './scheduling-queue.js';
import { makePod } from './testing/fixtures.js';

function setup() {
  const clock = new FakeClock();
  const queue = new SchedulingQueue({ clock });
  return { clock, queue };
}

async function popNow(queue: SchedulingQueue) {
  const info = await queue.pop();
  assert.ok(info, 'a pod is ready');
  return info;
}

function gated(name: string): Pod {
  return makePod(name, { spec: { schedulingGates: [{ name: 'example.com/wait' }] } });
}

describe('backoffDuration', () => {
  const table: [number, number][] = [
    [1, 1_000],
    [2, 2_000],
    [3, 4_000],
    [4, 8_000],
    [5, 10_000],
    [30, 10_000],
  ];
  for (const [attempts, ms] of table) {
    it(`attempt ${attempts} waits ${ms} ms`, () => {
      assert.equal(backoffDuration(attempts, 1_000, 10_000), ms);
    });
  }
});

describe('isPodUpdated', () => {
  const base = makePod('a', { labels: { app: 'x' } });
  const table: [string, Pod, boolean][] = [
    [
      'status only',
      { ...base, status: { phase: 'Pending', conditions: [{ type: 'X', status: 'True' }] } },
      false,
    ],
    [
      'resourceVersion only',
      { ...base, metadata: { ...base.metadata, resourceVersion: '9' } },
      false,
    ],
    ['labels', { ...base, metadata: { ...base.metadata, labels: { app: 'y' } } }, true],
    ['spec', { ...base, spec: { containers: [], ...base.spec, nodeSelector: { a: 'b' } } }, true],
  ];
  for (const [name, changed, want] of table) {
    it(name, () => assert.equal(isPodUpdated(base, changed), want));
  }
});

describe('KeyedHeap', () => {
  it('pops in order after arbitrary adds, updates and deletes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer(), fc.boolean())),
        (ops) => {
          const heap = new KeyedHeap<{ k: string; v: number }>(
            (x) => x.k,
            (a, b) => a.v < b.v,
          );
          const model = new Map<string, number>();
          for (const [k, v, del] of ops) {
            if (del) {
              heap.delete(String(k));
              model.delete(String(k));
            } else {
              heap.addOrUpdate({ k: String(k), v });
              model.set(String(k), v);
            }
          }
          const out: number[] = [];
          for (let x = heap.pop(); x !== undefined; x = heap.pop()) out.push(x.v);
          assert.deepEqual(
            out,
            [...model.values()].sort((a, b) => a - b),
          );
        },
      ),
    );
  });
});

describe('SchedulingQueue', () => {
  it('pops higher priority first, then oldest first', async () => {
    const { clock, queue } = setup();
    queue.add(makePod('old'));
    await clock.step(10);
    queue.add(makePod('young'));
    queue.add(makePod('urgent', { spec: { priority: 1000 } }));
    const order = [];
    for (let i = 0; i < 3; i++) order.push((await popNow(queue)).key);
    assert.deepEqual(order, ['default/urgent', 'default/old', 'default/young']);
    queue.close();
  });

  it('adds a known pod only once', async () => {
    const { queue } = setup();
    queue.add(makePod('a'));
    queue.add(makePod('a'));
    await popNow(queue);
    queue.add(makePod('a'));
    assert.equal(queue.where('default/a'), 'inFlight');
    queue.close();
  });

  it('retries a failed pod after a backoff doubling from 1 s to 10 s', async () => {
    const { clock, queue } = setup();
    queue.add(makePod('a'));
    for (const wait of [1_000, 2_000, 4_000, 8_000, 10_000, 10_000]) {
      const info = await popNow(queue);
      queue.addBackoff(info);
      assert.equal(queue.where(info.key), 'backoff');
      await clock.step(wait - 1);
      assert.equal(queue.where(info.key), 'backoff', `still waiting before ${wait} ms`);
      await clock.step(1);
      assert.equal(queue.where(info.key), 'active', `ready after ${wait} ms`);
    }
    queue.close();
  });

  it('keeps an unschedulable pod until a cluster event moves it', async () => {
    const { clock, queue } = setup();
    queue.add(makePod('a'));
    queue.addUnschedulable(await popNow(queue));
    await clock.step(60_000);
    assert.equal(queue.where('default/a'), 'unschedulable');
    queue.moveAllToActiveOrBackoff();
    assert.equal(queue.where('default/a'), 'active');
    queue.close();
  });

  it('moves a pod still backing off to backoffQ, then to activeQ', async () => {
    const { clock, queue } = setup();
    queue.add(makePod('a'));
    queue.addUnschedulable(await popNow(queue));
    await clock.step(500);
    queue.moveAllToActiveOrBackoff();
    assert.equal(queue.where('default/a'), 'backoff');
    await clock.step(500);
    assert.equal(queue.where('default/a'), 'active');
    queue.close();
  });

  it('moves only the pods the event may help', async () => {
    const { clock, queue } = setup();
    queue.add(makePod('plain'));
    queue.add(makePod('affine', { labels: { wants: 'peer' } }));
    queue.addUnschedulable(await popNow(queue));
    queue.addUnschedulable(await popNow(queue));
    await clock.step(2_000);
    queue.moveAllToActiveOrBackoff((p) => p.metadata?.labels?.wants === 'peer');
    assert.equal(queue.where('default/affine'), 'active');
    assert.equal(queue.where('default/plain'), 'unschedulable');
    queue.close();
  });

  it('retries unschedulable pods after more than 5 minutes without events', async () => {
    const { clock, queue } = setup();
    queue.add(makePod('a'));
    queue.addUnschedulable(await popNow(queue));
    // The 30 s flush at exactly 5 min leaves it (upstream: strictly more than 5 min).
    await clock.step(300_000);
    assert.equal(queue.where('default/a'), 'unschedulable');
    await clock.step(30_000);
    assert.equal(queue.where('default/a'), 'active');
    queue.close();
  });

  it('sends a pod to backoff when an event arrived during its attempt', async () => {
    const { clock, queue } = setup();
    queue.add(makePod('a'));
    const info = await popNow(queue);
    queue.moveAllToActiveOrBackoff();
    queue.addUnschedulable(info);
    assert.equal(queue.where('default/a'), 'backoff');
    await clock.step(1_000);
    assert.equal(queue.where('default/a'), 'active');
    queue.close();
  });

  it('wakes an unschedulable pod on a spec or label update, not a status update', async () => {
    const { clock, queue } = setup();
    const pod = makePod('a');
    queue.add(pod);
    queue.addUnschedulable(await popNow(queue));
    await clock.step(1_000);
    const statusOnly = {
      ...pod,
      status: { phase: 'Pending', conditions: [{ type: 'X', status: 'True' }] },
    };
    queue.update(pod, statusOnly);
    assert.equal(queue.where('default/a'), 'unschedulable');
    const relabeled = { ...statusOnly, metadata: { ...pod.metadata, labels: { tier: 'x' } } };
    queue.update(statusOnly, relabeled);
    assert.equal(queue.where('default/a'), 'active');
    assert.deepEqual((await popNow(queue)).pod.metadata?.labels, { tier: 'x' });
    queue.close();
  });

  it('holds gated pods until the last gate is removed', async () => {
    const { queue } = setup();
    const pod = gated('g');
    queue.add(pod);
    assert.equal(queue.where('default/g'), 'gated');
    queue.moveAllToActiveOrBackoff();
    assert.equal(queue.where('default/g'), 'gated');
    const open = { ...pod, spec: { containers: [], ...pod.spec, schedulingGates: [] } };
    queue.update(pod, open);
    assert.equal((await popNow(queue)).key, 'default/g');
    queue.close();
  });

  it('forgets deleted pods, also when deleted during their attempt', async () => {
    const { queue } = setup();
    queue.add(makePod('a'));
    queue.add(makePod('b'));
    const a = await popNow(queue);
    queue.delete(a.pod);
    queue.addUnschedulable(a);
    queue.delete(makePod('b'));
    assert.equal(queue.where('default/a'), undefined);
    assert.equal(queue.where('default/b'), undefined);
    queue.close();
  });

  it('hands a waiting pop the next added pod; close ends waiting pops', async () => {
    const { queue } = setup();
    const waiting = queue.pop();
    queue.add(makePod('a'));
    assert.equal((await waiting)?.key, 'default/a');
    const ended = queue.pop();
    queue.close();
    assert.equal(await ended, undefined);
  });

  it('counts attempts across retries', async () => {
    const { clock, queue } = setup();
    queue.add(makePod('a'));
    queue.addBackoff(await popNow(queue));
    await clock.step(1_000);
    const second = await popNow(queue);
    assert.equal(second.attempts, 2);
    assert.equal(podKey(second.pod), 'default/a');
    queue.close();
  });
});
