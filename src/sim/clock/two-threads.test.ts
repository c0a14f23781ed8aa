import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { FixtureCommand, FixtureReport } from './testing/replica-fixture.js';
import { VirtualClock } from './virtual-clock.js';

const START = Date.UTC(2026, 0, 1);

/** Starts the fixture thread (a TypeScript entry: tsx registers itself in the worker first). */
function startFixture(clock: VirtualClock): Worker {
  const channel = new MessageChannel();
  clock.attachPeer(channel.port1);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const entry = JSON.stringify(new URL('./testing/replica-fixture.ts', import.meta.url).href);
  const boot = `import(${tsx}).then((t) => { t.register(); return import(${entry}); });`;
  return new Worker(boot, {
    eval: true,
    workerData: { buffer: clock.shared.buffer, port: channel.port2 },
    transferList: [channel.port2],
  });
}

describe('VirtualClock with a replica in another thread', () => {
  let clock: VirtualClock;
  let worker: Worker;
  const reports: (FixtureReport & { mainOrder: number })[] = [];
  let order = 0;

  before(async () => {
    clock = new VirtualClock({ start: START, speed: 0 });
    worker = startFixture(clock);
    await new Promise<void>((resolve) => {
      worker.on('message', (m: FixtureReport | 'ready') => {
        if (m === 'ready') resolve();
        else reports.push({ ...m, mainOrder: order++ });
      });
    });
  });

  after(async () => {
    clock.detachPeer();
    clock.stop();
    await worker.terminate();
  });

  const send = (c: FixtureCommand): void => worker.postMessage(c);

  it("fires both threads' timers at their times, in time order, and waits for the work each starts", async () => {
    reports.length = 0;
    const main: { id: string; now: number; mainOrder: number }[] = [];
    send({ do: 'timer', id: 'w10', ms: 10_000, holdWallMs: 50, next: { id: 'w10+3', ms: 3_000 } });
    send({ do: 'timer', id: 'w20', ms: 20_000 });
    await sleep(50); // the commands reach the worker
    clock.setTimer(11_000, () => main.push({ id: 'm11', now: clock.now(), mainOrder: order++ }));
    clock.setTimer(15_000, () => main.push({ id: 'm15', now: clock.now(), mainOrder: order++ }));
    await clock.runUntil(START + 30_000);
    const events = [
      ...reports
        .filter((r) => r.phase === 'start')
        .map((r) => ({ id: r.fired, now: r.now, mainOrder: r.mainOrder })),
      ...main,
    ].sort((a, b) => a.mainOrder - b.mainOrder);
    assert.deepEqual(
      events.map((e) => [e.id, e.now - START]),
      [
        ['w10', 10_000],
        ['m11', 11_000],
        ['w10+3', 13_000],
        ['m15', 15_000],
        ['w20', 20_000],
      ],
    );
    // The worker's 50 ms of wall-time work at 10 s ended before time moved on.
    const end = reports.find((r) => r.fired === 'w10' && r.phase === 'end');
    assert.equal(end?.now, START + 10_000);
    assert.equal(clock.now(), START + 30_000);
  });

  it('does not move on while a watch event written to the replica is not yet handled', async () => {
    const from = clock.now();
    clock.watchEvents(1); // the server wrote one event to the worker's watch
    let done = false;
    const run = clock.runUntil(from + 60_000).then(() => {
      done = true;
    });
    await sleep(100);
    assert.equal(done, false);
    assert.equal(clock.now(), from);
    assert.equal(clock.status().quiescent, false);
    send({ do: 'watch', n: 1 }); // the worker handled it
    await run;
    assert.equal(clock.now(), from + 60_000);
  });
});
