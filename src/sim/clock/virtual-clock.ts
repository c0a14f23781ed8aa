/**
 * The cluster's virtual clock (`fleetyard up --clock virtual`), owned by the main thread. It
 * runs paced (virtual time = N × wall time), paused, or at speed `max`, where time stands
 * still while the cluster works and jumps to the next due timer once the cluster is
 * quiescent; it never jumps past a due timer, so every timer fires at its time and the cluster
 * reacts to it before time moves on. `runUntil(t)` runs that way up to `t`.
 *
 * **Quiescence** (docs/simulation.md, "The virtual clock"), judged on the main thread:
 * 1. no hold open in either thread: no HTTP request being served (watches count only until
 *    their headers are sent), no request in flight from the controller thread, no work queue
 *    with a key ready or being processed;
 * 2. every watch event the API server wrote to the controller thread's watches has been
 *    decoded and handed to its informer (`watchSent === watchReceived`);
 * 3. the controller thread has fired the timers of the last jump (`tickPending === 0`), and
 *    no timer of either thread is due;
 * 4. the same still holds after a round trip to the controller thread and a turn of the main
 *    thread's event loop, with no hold taken in between (the `gen` counters did not move):
 *    work that was running on either thread when the first look was taken has, by then,
 *    either finished or taken a hold.
 *
 * @module
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { MessagePort } from 'node:worker_threads';
import { type Clock, sleepOnTimer } from '../../util/clock.js';
import type { ClockControl, ClockStatus, Speed } from '../../util/clock-control.js';
import type { FromReplica, ToReplica } from './peer-link.js';
import { SharedClock, wallNow } from './shared-clock.js';
import { runTimer, TimerHeap } from './timer-heap.js';
import { Turns, type TurnTaken } from './turns.js';

export interface VirtualClockOptions {
  /** The virtual time at start (ms since the epoch). */
  readonly start: number;
  /** @default 0 */
  readonly speed?: Speed;
  /** @default false */
  readonly paused?: boolean;
  /** The wall clock pacing speed N. @default wallNow */
  readonly wall?: () => number;
  /** Run serially, one turn at a time, for deterministic runs (`turns.ts`). @default false */
  readonly serial?: boolean;
}

/** How long (wall ms) a waiting clock sleeps before it looks again without being woken. */
const FALLBACK_POLL_MS = 50;

export class VirtualClock implements Clock, ClockControl {
  readonly shared: SharedClock;
  readonly turns: Turns | undefined;
  #turnReplies = new Map<number, (ran: TurnTaken) => void>();
  readonly #timers = new TimerHeap();
  #speed: Speed;
  #paused: boolean;
  #runUntil: number | undefined;
  #untilWaiters: { at: number; resolve: () => void }[] = [];
  #peer: MessagePort | undefined;
  #pings = new Map<number, () => void>();
  #nextPing = 1;
  #quiescent = false;
  #pumpScheduled = false;
  #pumping = false;
  #pumpAgain = false;
  #waitingSignal = false;
  #wallTimer: NodeJS.Timeout | undefined;
  /** The virtual time the wall timer is armed for (Infinity: none). */
  #armedAt = Number.POSITIVE_INFINITY;
  #stopped = false;
  #jumps = 0;
  /** {@link #activityStamp} when both threads last had nothing to run (serial). */
  #idleStamp = '';

  constructor(options: VirtualClockOptions) {
    this.shared = new SharedClock(undefined, options.wall ?? wallNow);
    this.#speed = options.speed ?? 0;
    this.#paused = options.paused ?? false;
    this.turns = options.serial ? new Turns() : undefined;
    this.shared.setBase(options.start, this.#pacedRate());
  }

  now(): number {
    return this.shared.now();
  }

  setTimer(ms: number, fn: () => void): () => void {
    const at = this.now() + Math.max(0, ms);
    const timer = this.#timers.push(at, fn);
    // Paced, only a timer earlier than the armed one changes anything.
    if (at < this.#armedAt || this.#driving()) this.#kick();
    return () => this.#timers.cancel(timer);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOnTimer((t, fn) => this.setTimer(t, fn), ms, signal);
  }

  hold(): () => void {
    // Only a clock that waits for quiescence cares that the last hold went.
    return this.shared.hold('main', () => this.#driving() && this.#kick());
  }

  watchEvents(delta: number): void {
    this.shared.add('watchSent', delta);
  }

  /** Connects the controller thread's replica (`ReplicaClock`) over `port`. */
  attachPeer(port: MessagePort): void {
    this.#peer = port;
    port.on('message', (message: FromReplica) => {
      if (message.t === 'pong') {
        this.#pings.get(message.id)?.();
        this.#pings.delete(message.id);
      } else {
        this.#turnReplies.get(message.id)?.(message.ran);
        this.#turnReplies.delete(message.id);
      }
    });
    port.unref();
  }

  /** Forgets the replica (its thread stopped): nothing of it is awaited any more. */
  detachPeer(): void {
    this.#peer?.close();
    this.#peer = undefined;
    for (const resolve of this.#pings.values()) resolve();
    this.#pings.clear();
    for (const resolve of this.#turnReplies.values()) resolve('none');
    this.#turnReplies.clear();
    for (const name of ['holdsPeer', 'tickPending'] as const) this.shared.set(name, 0);
    this.shared.set('watchReceived', this.shared.get('watchSent'));
    this.shared.setPeerNext(Number.POSITIVE_INFINITY);
    this.#kick();
  }

  status(): ClockStatus {
    const nextTimer = Math.min(this.#timers.nextAt(), this.#peerNext());
    return {
      mode: 'virtual',
      now: this.now(),
      speed: this.#speed,
      paused: this.#paused,
      // Advancing until the target is reached *and* the cluster is quiescent there.
      state:
        this.#runUntil !== undefined
          ? 'Advancing'
          : this.#pacedRate() === 0 && this.#speed !== 'max'
            ? 'Paused'
            : 'Running',
      ...(this.#runUntil !== undefined ? { runUntil: this.#runUntil } : {}),
      pendingTimers: this.#timers.size + (this.#peer ? this.shared.get('peerTimers') : 0),
      ...(Number.isFinite(nextTimer) ? { nextTimer } : {}),
      quiescent: this.#quiescent && this.#idleNow(),
      jumps: this.#jumps,
    };
  }

  setSpeed(speed: Speed): void {
    if (speed !== 'max' && !(speed >= 0 && Number.isFinite(speed))) {
      throw new RangeError(`invalid speed ${speed}`);
    }
    this.#speed = speed;
    this.#rebase();
  }

  setPaused(paused: boolean): void {
    this.#paused = paused;
    this.#rebase();
  }

  runUntil(at: number | undefined): Promise<void> {
    if (at === undefined) {
      this.#runUntil = undefined;
      this.#resolveWaiters(Number.POSITIVE_INFINITY);
      this.#rebase();
      return Promise.resolve();
    }
    this.#runUntil = at;
    this.#rebase();
    return new Promise((resolve) => this.#untilWaiters.push({ at, resolve }));
  }

  /** Times the clock jumped to a timer at speed `max` (the benchmark's count of steps). */
  get jumps(): number {
    return this.#jumps;
  }

  /** Runs through the next `ms` of virtual time; see {@link runUntil}. */
  advance(ms: number): Promise<void> {
    return this.runUntil(this.now() + ms);
  }

  /** Stops driving time (the process is stopping): no more wall timers or waits. */
  stop(): void {
    this.#stopped = true;
    if (this.#wallTimer) clearTimeout(this.#wallTimer);
    this.#resolveWaiters(Number.POSITIVE_INFINITY);
  }

  #advancing(): boolean {
    return this.#runUntil !== undefined && this.now() < this.#runUntil;
  }

  /** The rate time runs at on the wall clock: 0 when paused, jumping or advancing. */
  #pacedRate(): number {
    if (this.#advancing() || this.#paused || this.#speed === 'max') return 0;
    return this.#speed;
  }

  /** Waits for quiescence to move on: jumping, advancing, or granting turns (serial). */
  #driving(): boolean {
    return this.turns !== undefined || this.#jumping() || this.#runUntil !== undefined;
  }

  #jumping(): boolean {
    return this.#advancing() || (!this.#paused && this.#speed === 'max');
  }

  #rebase(): void {
    this.shared.setBase(this.now(), this.#pacedRate());
    this.#post({ t: 'rebase' });
    this.#kick();
  }

  #peerNext(): number {
    return this.#peer ? this.shared.peerNext() : Number.POSITIVE_INFINITY;
  }

  #post(message: ToReplica): void {
    this.#peer?.postMessage(message);
  }

  #kick(): void {
    if (this.#stopped) return;
    this.#armedAt = Number.POSITIVE_INFINITY;
    if (this.#pumping) {
      this.#pumpAgain = true;
      return;
    }
    if (this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    setImmediate(() => {
      this.#pumpScheduled = false;
      void this.#pump();
    });
  }

  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      do {
        this.#pumpAgain = false;
        await this.#step();
      } while (this.#pumpAgain && !this.#stopped);
    } finally {
      this.#pumping = false;
    }
  }

  /** One look: fire what is due, then pace, jump or wait. */
  async #step(): Promise<void> {
    // Read before looking: a signal the replica sends while we look is not missed.
    const seen = this.shared.get('signal');
    if (this.turns !== undefined) return this.#serialStep(seen, this.turns);
    if (this.#fireDue()) {
      this.#pumpAgain = true;
      return;
    }
    if (this.#runUntil !== undefined && this.now() >= this.#runUntil) {
      // Arrived: the target counts as reached once the cluster is quiescent there.
      if (!(await this.#checkQuiescent())) return this.#waitForPeer(seen);
      return this.#arrive(this.#runUntil);
    }
    if (!this.#jumping()) {
      this.#armWallTimer();
      return;
    }
    if (!(await this.#checkQuiescent())) return this.#waitForPeer(seen);
    const next = this.#nextStop();
    // Idle with nothing scheduled: a new timer kicks.
    if (Number.isFinite(next)) this.#jumpTo(next);
  }

  /** Where time may jump to: the earliest timer of either thread, or the run-until target. */
  #nextStop(): number {
    return Math.min(this.#timers.nextAt(), this.#peerNext(), this.#runUntil ?? Infinity);
  }

  #jumpTo(next: number): void {
    this.#jumps++;
    this.shared.setBase(Math.max(next, this.now()), 0);
    this.#quiescent = false;
    this.#pumpAgain = true;
  }

  /** The run-until target is reached and the cluster quiescent there. */
  #arrive(reached: number): void {
    this.#runUntil = undefined;
    this.#resolveWaiters(reached);
    this.#rebase();
  }

  /**
   * Serial: at each quiescent point one turn, the main thread's first, then the replica's;
   * when neither has anything to run at this time, time moves (or the target is reached).
   */
  async #serialStep(seen: number, turns: Turns): Promise<void> {
    if (!(await this.#checkQuiescent())) return this.#waitForPeer(seen);
    const now = this.now();
    const due = this.#timers.nextAt() <= now || this.#peerNext() <= now;
    // Nothing started and nothing came due since both threads last had nothing to run: skip
    // asking again (an idle cluster is looked at every FALLBACK_POLL_MS).
    if (due || this.#activityStamp() !== this.#idleStamp) {
      // A turn that ran may only have queued work (an events turn's handlers queue keys, which
      // take no hold when serial): look again, whatever the stamp says.
      const ran =
        turns.take({ fireOne: () => this.#fireOne() }) !== 'none' ||
        (this.#peer !== undefined && (await this.#peerTurn()) !== 'none');
      if (ran) {
        this.#idleStamp = '';
        this.#quiescent = false;
        this.#pumpAgain = true;
        return;
      }
      this.#idleStamp = this.#activityStamp();
    }
    if (this.#runUntil !== undefined && this.now() >= this.#runUntil) {
      return this.#arrive(this.#runUntil);
    }
    const next = this.#nextStop();
    if (!this.#jumping() || !Number.isFinite(next)) {
      // Idle: a due timer (the wall timer), a request (a hold's release) or an event the
      // replica buffered (its signal) starts the next turn.
      this.#armWallTimer();
      this.#waitForPeer(seen);
      return;
    }
    this.#jumpTo(next);
  }

  /** Moves whenever either thread takes a hold or a watch event is written or handled. */
  #activityStamp(): string {
    const s = this.shared;
    return `${s.get('genMain')}/${s.get('genPeer')}/${s.get('watchSent')}/${s.get('watchReceived')}`;
  }

  #fireOne(): boolean {
    const timer = this.#timers.popDue(this.now());
    if (timer === undefined) return false;
    this.#quiescent = false;
    runTimer(timer.fn);
    return true;
  }

  /** Asks the replica to take one turn; resolves with what it ran, once that has started. */
  #peerTurn(): Promise<TurnTaken> {
    const id = this.#nextPing++;
    this.shared.set('tickPending', 1);
    return new Promise((resolve) => {
      this.#turnReplies.set(id, resolve);
      this.#post({ t: 'turn', id });
    });
  }

  /** Fires the main thread's due timers; tells the replica to fire its own. */
  #fireDue(): boolean {
    const now = this.now();
    let fired = false;
    for (let t = this.#timers.popDue(now); t !== undefined; t = this.#timers.popDue(now)) {
      fired = true;
      this.#quiescent = false;
      runTimer(t.fn);
    }
    if (this.#peer && this.#peerNext() <= now && this.shared.get('tickPending') === 0) {
      this.shared.set('tickPending', 1);
      this.#quiescent = false;
      this.#post({ t: 'fire' });
      fired = true;
    }
    return fired;
  }

  #armWallTimer(): void {
    if (this.#wallTimer) clearTimeout(this.#wallTimer);
    this.#wallTimer = undefined;
    // Serial, the replica's timers wait for turns too: the main thread wakes for them.
    const next = this.turns
      ? Math.min(this.#timers.nextAt(), this.#peerNext())
      : this.#timers.nextAt();
    const delay = this.shared.wallDelayUntil(next);
    this.#armedAt = Number.isFinite(delay) ? next : Number.POSITIVE_INFINITY;
    if (!Number.isFinite(delay)) return;
    // Node's timers take at most 2^31-1 ms; a later timer re-arms when this one fires.
    this.#wallTimer = setTimeout(() => this.#kick(), Math.min(delay, 2 ** 31 - 1));
    this.#wallTimer.unref();
  }

  /** Nothing in flight. Unless serial (where a due timer waits for its turn), nothing due. */
  #idleNow(): boolean {
    const serial = this.turns !== undefined;
    if (this.shared.get('holdsMain') > 0) return false;
    if (!serial && this.#timers.nextAt() <= this.now()) return false;
    if (this.#peer === undefined) return true;
    const s = this.shared;
    return (
      s.get('holdsPeer') === 0 &&
      s.get('tickPending') === 0 &&
      s.get('watchSent') === s.get('watchReceived') &&
      (serial || s.peerNext() > this.now())
    );
  }

  async #checkQuiescent(): Promise<boolean> {
    if (!this.#idleNow()) {
      this.#quiescent = false;
      return false;
    }
    const gens = (): string => `${this.shared.get('genMain')}/${this.shared.get('genPeer')}`;
    const before = gens();
    await this.#roundTrip();
    await nextTurn();
    this.#quiescent = this.#idleNow() && gens() === before;
    return this.#quiescent;
  }

  #roundTrip(): Promise<void> {
    if (this.#peer === undefined) return Promise.resolve();
    const id = this.#nextPing++;
    return new Promise((resolve) => {
      this.#pings.set(id, resolve);
      this.#post({ t: 'ping', id });
    });
  }

  /** Not quiescent: a main-thread release kicks; the replica bumps `signal` (or a poll). */
  #waitForPeer(seen: number): void {
    if (this.#waitingSignal || this.#stopped) return;
    this.#waitingSignal = true;
    void this.shared.waitSignal(seen, FALLBACK_POLL_MS).then(() => {
      this.#waitingSignal = false;
      this.#kick();
    });
  }

  #resolveWaiters(upTo: number): void {
    const due = this.#untilWaiters.filter((w) => w.at <= upTo);
    this.#untilWaiters = this.#untilWaiters.filter((w) => w.at > upTo);
    for (const w of due) w.resolve();
  }
}
