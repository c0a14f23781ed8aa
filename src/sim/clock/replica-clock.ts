/**
 * The cluster clock as the controller thread sees it: the time is read from the shared
 * buffer the main thread's {@link VirtualClock} writes; timers are kept here and fire when
 * that time reaches them (a wall timer while time runs paced, a `fire` message after a jump).
 * Holds and watch events are published for the main thread's quiescence check, and every
 * change that may make this thread idle bumps the shared `signal` the main thread waits on.
 *
 * @module
 */
import type { MessagePort } from 'node:worker_threads';
import { type Clock, sleepOnTimer } from '../../util/clock.js';
import type { FromReplica, ToReplica } from './peer-link.js';
import { SharedClock } from './shared-clock.js';
import { type PendingTimer, runTimer, TimerHeap } from './timer-heap.js';
import { Turns } from './turns.js';

export class ReplicaClock implements Clock {
  readonly #shared: SharedClock;
  readonly #port: MessagePort;
  readonly #timers = new TimerHeap();
  #wallTimer: NodeJS.Timeout | undefined;
  #armedAt = Number.POSITIVE_INFINITY;
  #fireScheduled = false;

  /** Serial runs (`turns.ts`): due timers and work wait for the main thread's `turn`. */
  readonly turns: Turns | undefined;

  constructor(buffer: SharedArrayBuffer, port: MessagePort, options: { serial?: boolean } = {}) {
    this.#shared = new SharedClock(buffer);
    this.turns = options.serial ? new Turns() : undefined;
    this.#port = port;
    port.on('message', (message: ToReplica) => this.#onMessage(message));
    port.unref();
  }

  now(): number {
    return this.#shared.now();
  }

  setTimer(ms: number, fn: () => void): () => void {
    const at = this.now() + Math.max(0, ms);
    const timer = this.#timers.push(at, fn);
    this.#publishNext();
    if (this.turns !== undefined) return () => this.#cancel(timer);
    if (at <= this.now()) this.#scheduleFire();
    else if (at < this.#armedAt) this.#arm();
    return () => this.#cancel(timer);
  }

  #cancel(timer: PendingTimer): void {
    this.#timers.cancel(timer);
    this.#publishNext();
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOnTimer((t, fn) => this.setTimer(t, fn), ms, signal);
  }

  hold(): () => void {
    return this.#shared.hold('peer', () => this.#shared.signal());
  }

  watchEvents(delta: number): void {
    this.#shared.add('watchReceived', delta);
    if (this.#shared.get('holdsPeer') === 0) this.#shared.signal();
  }

  #onMessage(message: ToReplica): void {
    if (message.t === 'ping') {
      this.#post({ t: 'pong', id: message.id });
    } else if (message.t === 'turn') {
      const ran = this.turns?.take({ fireOne: () => this.#fireOne() }) ?? 'none';
      setImmediate(() => {
        this.#shared.set('tickPending', 0);
        this.#post({ t: 'took', id: message.id, ran });
        this.#shared.signal();
      });
    } else if (message.t === 'fire') {
      this.#fireDue();
      // After this turn's microtasks: what the timers started has taken its holds by then.
      setImmediate(() => {
        this.#shared.set('tickPending', 0);
        this.#shared.signal();
      });
    } else {
      this.#arm();
    }
  }

  #post(message: FromReplica): void {
    this.#port.postMessage(message);
  }

  #scheduleFire(): void {
    if (this.#fireScheduled) return;
    this.#fireScheduled = true;
    setImmediate(() => {
      this.#fireScheduled = false;
      this.#fireDue();
    });
  }

  #fireOne(): boolean {
    const timer = this.#timers.popDue(this.now());
    this.#publishNext();
    if (timer === undefined) return false;
    runTimer(timer.fn);
    return true;
  }

  #fireDue(): void {
    const now = this.now();
    for (let t = this.#timers.popDue(now); t !== undefined; t = this.#timers.popDue(now)) {
      runTimer(t.fn);
    }
    this.#publishNext();
    this.#arm();
  }

  /** Arms a wall timer for the earliest timer while time runs paced. */
  #arm(): void {
    if (this.turns !== undefined) return;
    if (this.#wallTimer) clearTimeout(this.#wallTimer);
    this.#wallTimer = undefined;
    const next = this.#timers.nextAt();
    const delay = this.#shared.wallDelayUntil(next);
    this.#armedAt = Number.isFinite(delay) ? next : Number.POSITIVE_INFINITY;
    if (!Number.isFinite(delay)) return;
    this.#wallTimer = setTimeout(() => this.#fireDue(), Math.min(delay, 2 ** 31 - 1));
    this.#wallTimer.unref();
  }

  #publishNext(): void {
    this.#shared.setPeerNext(this.#timers.nextAt());
    this.#shared.set('peerTimers', this.#timers.size);
  }
}
