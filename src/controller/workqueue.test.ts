import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { FakeClock } from '../util/clock.js';
import { exponentialFailureRateLimiter } from './rate-limiter.js';
import { WorkQueue, type WorkQueueMetrics } from './workqueue.js';

function newQueue(clock = new FakeClock(), metrics?: WorkQueueMetrics): WorkQueue {
  return new WorkQueue({ clock, rateLimiter: exponentialFailureRateLimiter(), metrics });
}

/** Lets resolved promises' callbacks run. */
async function settle(): Promise<void> {
  await new Promise<void>((r) => setImmediate(r));
}

/** Takes every ready key (marking each processing) without waiting. */
async function drainReady(q: WorkQueue): Promise<string[]> {
  const keys: string[] = [];
  while (q.len() > 0) {
    const key = await q.get();
    if (key !== undefined) keys.push(key);
  }
  return keys;
}

/** The state of a pending promise, observed without awaiting it forever. */
async function peek<T>(p: Promise<T>): Promise<{ settled: boolean; value?: T }> {
  const marker = Symbol('pending');
  const value = await Promise.race([p, settle().then(() => marker)]);
  return value === marker ? { settled: false } : { settled: true, value: value as T };
}

describe('WorkQueue add/get/done', () => {
  const cases: { name: string; adds: string[]; want: string[] }[] = [
    { name: 'FIFO', adds: ['a', 'b', 'c'], want: ['a', 'b', 'c'] },
    {
      name: 'dedups while queued, keeping the first position',
      adds: ['a', 'b', 'a', 'b', 'c'],
      want: ['a', 'b', 'c'],
    },
    { name: 'empty', adds: [], want: [] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const q = newQueue();
      for (const k of c.adds) q.add(k);
      assert.equal(q.len(), c.want.length);
      assert.deepEqual(await drainReady(q), c.want);
    });
  }

  it('a key re-added while processing is held back until done, then handed out once', async () => {
    const q = newQueue();
    q.add('a');
    assert.equal(await q.get(), 'a');
    q.add('a');
    q.add('a');
    assert.equal(q.len(), 0, 'not ready while processing');
    const second = q.get();
    assert.deepEqual(await peek(second), { settled: false });
    q.done('a');
    assert.deepEqual(await peek(second), { settled: true, value: 'a' });
    q.done('a');
    assert.equal(q.len(), 0, 'one re-add, one extra run');
  });

  it('done without a re-add does not queue the key again', async () => {
    const q = newQueue();
    q.add('a');
    await q.get();
    q.done('a');
    assert.equal(q.len(), 0);
  });

  it('hands a new key straight to a waiting get, in waiting order', async () => {
    const q = newQueue();
    const first = q.get();
    const second = q.get();
    q.add('x');
    q.add('y');
    assert.equal(await first, 'x');
    assert.equal(await second, 'y');
    assert.equal(q.len(), 0);
  });

  it('reports depth, adds and latency to its metrics hooks', async () => {
    const clock = new FakeClock();
    const seen = { depth: [] as number[], adds: 0, retries: 0, latency: [] as number[] };
    const q = newQueue(clock, {
      depth: (_n, d) => seen.depth.push(d),
      add: () => seen.adds++,
      retry: () => seen.retries++,
      latency: (_n, ms) => seen.latency.push(ms),
    });
    q.add('a');
    q.add('a');
    q.add('b');
    await clock.step(30);
    await q.get();
    q.addRateLimited('c');
    assert.deepEqual(seen, { depth: [1, 2, 1], adds: 2, retries: 1, latency: [30] });
  });
});

describe('WorkQueue addAfter', () => {
  it('makes keys ready in clock order', async () => {
    const clock = new FakeClock();
    const q = newQueue(clock);
    q.addAfter('slow', 100);
    q.addAfter('fast', 50);
    await clock.step(49);
    assert.equal(q.len(), 0);
    await clock.step(1);
    assert.deepEqual(await drainReady(q), ['fast']);
    await clock.step(50);
    assert.deepEqual(await drainReady(q), ['slow']);
  });

  const earlier = [
    { name: 'earlier second call moves the key forward', delays: [100, 10], readyAt: 10 },
    { name: 'later second call is ignored', delays: [10, 100], readyAt: 10 },
    { name: 'zero delay adds at once', delays: [100, 0], readyAt: 0 },
    { name: 'negative delay adds at once', delays: [-5], readyAt: 0 },
  ];
  for (const c of earlier) {
    it(c.name, async () => {
      const clock = new FakeClock();
      const q = newQueue(clock);
      for (const ms of c.delays) q.addAfter('a', ms);
      if (c.readyAt > 0) {
        await clock.step(c.readyAt - 1);
        assert.equal(q.len(), 0);
        await clock.step(1);
      }
      assert.deepEqual(await drainReady(q), ['a']);
      q.done('a');
      await clock.step(1000);
      assert.equal(
        q.len(),
        c.delays.includes(0) ? 1 : 0,
        'the parked entry runs only if 0 bypassed it',
      );
    });
  }

  it('a key parked while processing waits for done like any add', async () => {
    const clock = new FakeClock();
    const q = newQueue(clock);
    q.add('a');
    await q.get();
    q.addAfter('a', 10);
    await clock.step(10);
    assert.equal(q.len(), 0);
    q.done('a');
    assert.deepEqual(await drainReady(q), ['a']);
  });

  it('property: a batch of addAfter calls becomes ready in order of each key’s earliest time', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.integer({ min: 1, max: 500 })), {
          minLength: 1,
          maxLength: 20,
        }),
        async (calls) => {
          const clock = new FakeClock();
          const q = newQueue(clock);
          const earliest = new Map<string, number>();
          for (const [key, ms] of calls) {
            q.addAfter(key, ms);
            earliest.set(key, Math.min(ms, earliest.get(key) ?? Number.POSITIVE_INFINITY));
          }
          const readyAt = new Map<string, number>();
          for (let t = 1; t <= 500; t++) {
            await clock.step(1);
            for (const key of await drainReady(q)) readyAt.set(key, t);
          }
          assert.deepEqual(readyAt, new Map([...earliest].sort(([, x], [, y]) => x - y)));
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('WorkQueue rate limiting', () => {
  it('addRateLimited waits 5, 10, 20 ms and forget resets the count', async () => {
    const clock = new FakeClock();
    const q = newQueue(clock);
    for (const wait of [5, 10, 20]) {
      q.addRateLimited('a');
      await clock.step(wait - 1);
      assert.equal(q.len(), 0, `not before ${wait} ms`);
      await clock.step(1);
      assert.deepEqual(await drainReady(q), ['a']);
      q.done('a');
    }
    assert.equal(q.numRequeues('a'), 3);
    q.forget('a');
    assert.equal(q.numRequeues('a'), 0);
    q.addRateLimited('a');
    await clock.step(5);
    assert.equal(q.len(), 1);
  });
});

describe('WorkQueue shutdown', () => {
  it('resolves waiting and later gets with undefined, ignores adds, cancels parked keys', async () => {
    const clock = new FakeClock();
    const q = newQueue(clock);
    const waiting = q.get();
    q.addAfter('later', 10);
    q.shutdown();
    assert.equal(await waiting, undefined);
    q.add('a');
    q.addRateLimited('b');
    await clock.step(100);
    assert.equal(q.len(), 0);
    assert.equal(await q.get(), undefined);
    assert.equal(clock.pending(), 0, 'no timers left behind');
    assert.equal(q.shuttingDown(), true);
  });

  it('drops queued keys and does not requeue a dirty processing key at done', async () => {
    const q = newQueue();
    q.add('a');
    q.add('b');
    await q.get();
    q.add('a');
    q.shutdown();
    q.done('a');
    assert.equal(q.len(), 0);
    assert.equal(await q.get(), undefined);
  });

  it('shutdownWithDrain resolves only after every processing key is done', async () => {
    const q = newQueue();
    q.add('a');
    q.add('b');
    await q.get();
    await q.get();
    const drained = q.shutdownWithDrain();
    q.done('a');
    assert.deepEqual(await peek(drained), { settled: false });
    q.done('b');
    assert.deepEqual(await peek(drained), { settled: true, value: undefined });
  });

  it('shutdownWithDrain on an idle queue resolves at once', async () => {
    const q = newQueue();
    assert.deepEqual(await peek(q.shutdownWithDrain()), { settled: true, value: undefined });
  });
});

type Op =
  | { readonly op: 'add'; readonly key: string }
  | { readonly op: 'get'; readonly worker: number }
  | { readonly op: 'done'; readonly worker: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('add' as const), key: fc.constantFrom('a', 'b', 'c') }),
  fc.record({ op: fc.constant('get' as const), worker: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ op: fc.constant('done' as const), worker: fc.integer({ min: 0, max: 3 }) }),
);

/**
 * Simulated workers over a real queue. `owed` holds keys added since their last hand-out: each
 * must be handed out again (never lost), and no key may be handed out unless owed (dedup) or
 * while another worker holds it (no concurrent processing).
 */
class Harness {
  readonly q = newQueue();
  readonly holding: (string | undefined)[] = [undefined, undefined, undefined, undefined];
  readonly waiting = [false, false, false, false];
  readonly owed = new Set<string>();
  readonly violations: string[] = [];

  add(key: string): void {
    this.q.add(key);
    this.owed.add(key);
  }

  get(worker: number): void {
    if (this.holding[worker] !== undefined || this.waiting[worker]) return;
    this.waiting[worker] = true;
    void this.q.get().then((key) => this.#receive(worker, key));
  }

  done(worker: number): void {
    const key = this.holding[worker];
    if (key === undefined) return;
    this.holding[worker] = undefined;
    this.q.done(key);
  }

  #receive(worker: number, key: string | undefined): void {
    this.waiting[worker] = false;
    if (key === undefined) return;
    if (this.holding.includes(key)) this.violations.push(`${key} held twice`);
    if (!this.owed.has(key)) this.violations.push(`${key} handed out without an add`);
    this.owed.delete(key);
    this.holding[worker] = key;
  }

  /** Finishes all work: every worker keeps taking and finishing keys until none is left. */
  async finish(): Promise<void> {
    for (let round = 0; round < 20; round++) {
      for (let w = 0; w < 4; w++) this.done(w);
      for (let w = 0; w < 4; w++) this.get(w);
      await settle();
      if (this.holding.every((k) => k === undefined)) return;
    }
  }
}

describe('WorkQueue property: random interleavings with four workers', () => {
  it('never processes a key twice at once and never loses an added key', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 60 }), async (ops) => {
        const h = new Harness();
        for (const o of ops) {
          if (o.op === 'add') h.add(o.key);
          else if (o.op === 'get') h.get(o.worker);
          else h.done(o.worker);
          await settle();
        }
        await h.finish();
        assert.deepEqual(h.violations, []);
        assert.deepEqual([...h.owed], [], 'every added key was handed out after its add');
        assert.equal(h.q.len(), 0);
      }),
      { numRuns: 150 },
    );
  });
});
