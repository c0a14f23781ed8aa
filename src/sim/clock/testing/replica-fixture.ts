/**
 * A controller thread in miniature for the clock's two-thread tests: a {@link ReplicaClock}
 * that sets timers, holds and reports watch events on command, and tells the test when each
 * timer fired and at what time.
 *
 * @module
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { ReplicaClock } from '../replica-clock.js';

export type FixtureCommand =
  /** A timer after `ms`; when it fires, hold for `holdWallMs` of wall time, then set `next`. */
  | {
      readonly do: 'timer';
      readonly id: string;
      readonly ms: number;
      readonly holdWallMs?: number;
      readonly next?: { readonly id: string; readonly ms: number };
    }
  /** Counts `n` watch events as handled (as an informer does). */
  | { readonly do: 'watch'; readonly n: number };

export interface FixtureReport {
  readonly fired: string;
  readonly now: number;
  readonly phase: 'start' | 'end';
}

const port = parentPort;
if (port === null) throw new Error('replica-fixture must run in a worker thread');
const data = workerData as { buffer: SharedArrayBuffer; port: MessagePort };
const clock = new ReplicaClock(data.buffer, data.port);

const timer = (c: Extract<FixtureCommand, { do: 'timer' }>): void => {
  clock.setTimer(c.ms, () => {
    port.postMessage({ fired: c.id, now: clock.now(), phase: 'start' } satisfies FixtureReport);
    const release = clock.hold();
    setTimeout(() => {
      port.postMessage({ fired: c.id, now: clock.now(), phase: 'end' } satisfies FixtureReport);
      if (c.next) timer({ do: 'timer', ...c.next });
      release();
    }, c.holdWallMs ?? 0);
  });
};

port.on('message', (c: FixtureCommand) => {
  if (c.do === 'timer') timer(c);
  else clock.watchEvents(c.n);
});
port.postMessage('ready');
