import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import {
  applyError,
  applyResult,
  type ControllerLogger,
  isTerminalError,
  type ReconcileOutcome,
  type ReconcileResult,
  runController,
  TerminalError,
} from './controller.js';
import { exponentialFailureRateLimiter } from './rate-limiter.js';
import { WorkQueue } from './workqueue.js';

// Compile-time check: a pino Logger is a ControllerLogger.
const _pinoFits = (l: Logger): ControllerLogger => l;
void _pinoFits;

async function settle(): Promise<void> {
  await new Promise<void>((r) => setImmediate(r));
}

function newQueue(clock: FakeClock): WorkQueue {
  return new WorkQueue({ clock, rateLimiter: exponentialFailureRateLimiter() });
}

/** A promise plus its resolver, to hold a reconcile open until the test lets it finish. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => {};
  const promise = new Promise<void>((r) => {
    open = r;
  });
  return { promise, open };
}

describe('reconcile outcome → queue', () => {
  const failing = new Error('boom');
  const cases: {
    name: string;
    apply: (q: WorkQueue) => ReconcileOutcome;
    outcome: ReconcileOutcome;
    requeues: number;
    /** Clock ms until the key is ready again; undefined = never. */
    readyAfter?: number;
  }[] = [
    {
      name: 'success forgets',
      apply: (q) => applyResult(q, 'k', {}),
      outcome: 'success',
      requeues: 0,
    },
    {
      name: 'requeueAfter forgets, then waits exactly that long',
      apply: (q) => applyResult(q, 'k', { requeueAfter: 1000, requeue: true }),
      outcome: 'requeue_after',
      requeues: 0,
      readyAfter: 1000,
    },
    {
      name: 'requeue is rate limited (third retry: 20 ms)',
      apply: (q) => applyResult(q, 'k', { requeue: true }),
      outcome: 'requeue',
      requeues: 3,
      readyAfter: 20,
    },
    {
      name: 'requeueAfter 0 with requeue is rate limited',
      apply: (q) => applyResult(q, 'k', { requeueAfter: 0, requeue: true }),
      outcome: 'requeue',
      requeues: 3,
      readyAfter: 20,
    },
    {
      name: 'an error is rate limited',
      apply: (q) => applyError(q, 'k', failing),
      outcome: 'error',
      requeues: 3,
      readyAfter: 20,
    },
    {
      name: 'a TerminalError forgets and never retries',
      apply: (q) => applyError(q, 'k', new TerminalError('bad spec')),
      outcome: 'terminal_error',
      requeues: 0,
    },
    {
      name: 'a TerminalError in the cause chain is terminal too',
      apply: (q) => applyError(q, 'k', new Error('wrap', { cause: new TerminalError('bad') })),
      outcome: 'terminal_error',
      requeues: 0,
    },
    {
      name: 'a thrown non-Error is an ordinary error',
      apply: (q) => applyError(q, 'k', 'string thrown'),
      outcome: 'error',
      requeues: 3,
      readyAfter: 20,
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const clock = new FakeClock();
      const q = newQueue(clock);
      q.addRateLimited('k'); // two earlier failures: the next backoff step is 20 ms
      q.addRateLimited('k');
      await clock.step(100);
      assert.equal(await q.get(), 'k');
      assert.equal(c.apply(q), c.outcome);
      assert.equal(q.numRequeues('k'), c.requeues);
      q.done('k');
      if (c.readyAfter === undefined) {
        await clock.step(10_000_000);
        assert.equal(q.len(), 0);
        return;
      }
      await clock.step(c.readyAfter - 1);
      assert.equal(q.len(), 0, 'not early');
      await clock.step(1);
      assert.equal(q.len(), 1, 'ready on time');
    });
  }
});

describe('isTerminalError', () => {
  it('survives a cyclic cause chain', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    a.cause = b;
    assert.equal(isTerminalError(a), false);
  });
});

describe('runController', () => {
  it('retries a failing key with backoff until it succeeds, then forgets it', async () => {
    const clock = new FakeClock();
    const queue = newQueue(clock);
    const stop = new AbortController();
    const calls: number[] = [];
    const outcomes: ReconcileOutcome[] = [];
    const logged: Record<string, unknown>[] = [];
    const running = runController({
      name: 'test',
      queue,
      clock,
      signal: stop.signal,
      log: { error: (fields, msg) => logged.push({ ...fields, msg }) },
      metrics: { reconciled: (_c, outcome) => outcomes.push(outcome) },
      reconcile: async () => {
        calls.push(clock.now());
        if (calls.length < 3) throw new Error('not yet');
        return {};
      },
    });
    queue.add('ns/a');
    await settle();
    await clock.step(5);
    await clock.step(10);
    const t0 = calls[0] ?? 0;
    assert.deepEqual(
      calls.map((t) => t - t0),
      [0, 5, 15],
    );
    assert.deepEqual(outcomes, ['error', 'error', 'success']);
    assert.equal(queue.numRequeues('ns/a'), 0);
    assert.deepEqual(
      logged.map((l) => [l.msg, l.controller, l.key, l.reconcileID]),
      [
        ['Reconciler error', 'test', 'ns/a', 'test-1'],
        ['Reconciler error', 'test', 'ns/a', 'test-2'],
      ],
    );
    stop.abort();
    await running;
  });

  it('runs different keys in parallel but one key never twice at once', async () => {
    const clock = new FakeClock();
    const queue = newQueue(clock);
    const stop = new AbortController();
    const inFlight = new Set<string>();
    const gates: { key: string; open: () => void }[] = [];
    const violations: string[] = [];
    let maxParallel = 0;
    const runs: string[] = [];
    const running = runController({
      name: 'par',
      queue,
      clock,
      workers: 3,
      signal: stop.signal,
      reconcile: async (key): Promise<ReconcileResult> => {
        if (inFlight.has(key)) violations.push(key);
        inFlight.add(key);
        maxParallel = Math.max(maxParallel, inFlight.size);
        runs.push(key);
        const g = gate();
        gates.push({ key, open: g.open });
        await g.promise;
        inFlight.delete(key);
        return {};
      },
    });
    queue.add('a');
    queue.add('b');
    await settle();
    queue.add('a'); // while a is in flight: must wait for its done
    queue.add('a');
    await settle();
    assert.deepEqual(runs, ['a', 'b']);
    gates.shift()?.open(); // finish the first a
    await settle();
    assert.deepEqual(runs, ['a', 'b', 'a']);
    for (const g of gates.splice(0)) g.open();
    await settle();
    assert.deepEqual(violations, []);
    assert.equal(maxParallel, 2);
    assert.deepEqual(runs, ['a', 'b', 'a'], 'two adds during processing cost one extra run');
    stop.abort();
    await running;
  });

  it('stop drains in-flight reconciles, which see the aborted signal', async () => {
    const clock = new FakeClock();
    const queue = newQueue(clock);
    const stop = new AbortController();
    const g = gate();
    let sawAbort = false;
    let finished = false;
    const running = runController({
      name: 'drain',
      queue,
      clock,
      workers: 2,
      signal: stop.signal,
      reconcile: async (_key, signal) => {
        await g.promise;
        sawAbort = signal.aborted;
        return { requeue: true };
      },
    }).then(() => {
      finished = true;
    });
    queue.add('a');
    queue.add('b');
    queue.add('c'); // queued behind two busy workers: dropped at stop
    await settle();
    stop.abort();
    await settle();
    assert.equal(finished, false, 'waits for in-flight reconciles');
    g.open();
    await running;
    assert.equal(sawAbort, true);
    assert.equal(queue.shuttingDown(), true);
    assert.equal(queue.len(), 0, 'the requeue after stop was ignored');
  });

  it('returns at once when the signal is already aborted, without reconciling', async () => {
    const clock = new FakeClock();
    const queue = newQueue(clock);
    queue.add('a');
    let calls = 0;
    await runController({
      name: 'pre',
      queue,
      clock,
      signal: AbortSignal.abort(),
      reconcile: async () => {
        calls++;
        return {};
      },
    });
    assert.equal(calls, 0);
  });

  it('exits when the queue owner shuts the queue down', async () => {
    const clock = new FakeClock();
    const queue = newQueue(clock);
    const running = runController({ name: 'q', queue, clock, reconcile: async () => ({}) });
    queue.shutdown();
    await running;
  });

  const badWorkers = [0, -1, 1.5, Number.NaN];
  for (const workers of badWorkers) {
    it(`rejects workers = ${workers}`, async () => {
      const clock = new FakeClock();
      await assert.rejects(
        runController({
          name: 'w',
          queue: newQueue(clock),
          clock,
          workers,
          reconcile: async () => ({}),
        }),
        RangeError,
      );
    });
  }
});
