import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Registry } from 'prom-client';
import { realClock } from '../util/clock.js';
import { runController, TerminalError } from './controller.js';
import { createControllerMetrics } from './metrics.js';
import { WorkQueue } from './workqueue.js';

/** Runs `keys` through one controller until each reconciled once. */
async function reconcileOnce(
  metrics: ReturnType<typeof createControllerMetrics>,
  outcomes: Record<string, 'ok' | 'terminal'>,
): Promise<void> {
  const stop = new AbortController();
  const queue = new WorkQueue<string>({ clock: realClock, name: 'demo', metrics: metrics.queue });
  let left = Object.keys(outcomes).length;
  const running = runController({
    name: 'demo',
    queue,
    clock: realClock,
    metrics: metrics.controller,
    signal: stop.signal,
    reconcile: async (key) => {
      if (--left === 0) setImmediate(() => stop.abort());
      if (outcomes[key] === 'terminal') throw new TerminalError('bad spec');
      return {};
    },
  });
  for (const key of Object.keys(outcomes)) queue.add(key);
  await running;
}

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('createControllerMetrics', () => {
  test('reconciles recorded before register show up in the exposition', async () => {
    const metrics = createControllerMetrics();
    await reconcileOnce(metrics, { a: 'ok', b: 'ok', c: 'terminal' });
    const registry = new Registry();
    await metrics.register(registry);
    const text = await registry.metrics();
    const expected: [string, number][] = [
      ['controller_runtime_reconcile_total{controller="demo",result="success"}', 2],
      ['controller_runtime_reconcile_total{controller="demo",result="error"}', 1],
      ['controller_runtime_reconcile_errors_total{controller="demo"}', 1],
      ['controller_runtime_terminal_reconcile_errors_total{controller="demo"}', 1],
      ['controller_runtime_reconcile_time_seconds_count{controller="demo"}', 3],
      ['controller_runtime_active_workers{controller="demo"}', 0],
      ['workqueue_adds_total{name="demo"}', 3],
      ['workqueue_depth{name="demo"}', 0],
      ['workqueue_queue_duration_seconds_count{name="demo"}', 3],
    ];
    for (const [series, value] of expected) assert.equal(sample(text, series), value, series);
  });

  test('recordings after register go straight in, into every registry given', async () => {
    const metrics = createControllerMetrics();
    const first = new Registry();
    const second = new Registry();
    await metrics.register(first);
    await metrics.register(second);
    await metrics.register(second);
    metrics.queue.retry?.('q');
    metrics.queue.retry?.('q');
    for (const registry of [first, second]) {
      assert.equal(sample(await registry.metrics(), 'workqueue_retries_total{name="q"}'), 2);
    }
  });

  test('two sets do not collide in separate registries', async () => {
    const one = createControllerMetrics();
    const two = createControllerMetrics();
    one.controller.activeWorkers?.('x', 3);
    two.controller.activeWorkers?.('x', 1);
    const [r1, r2] = [new Registry(), new Registry()];
    await one.register(r1);
    await two.register(r2);
    assert.equal(
      sample(await r1.metrics(), 'controller_runtime_active_workers{controller="x"}'),
      3,
    );
    assert.equal(
      sample(await r2.metrics(), 'controller_runtime_active_workers{controller="x"}'),
      1,
    );
  });
});
