/**
 * The scheduling queue of unscheduled pods, after upstream
 * `pkg/scheduler/internal/queue/scheduling_queue.go` (`PriorityQueue`):
 *
 * - **activeQ**: pods to try now, highest `spec.priority` first, then oldest enqueue time.
 * - **backoffQ**: pods that failed and wait out their backoff: 1 s after the first attempt,
 *   doubling per attempt up to 10 s (attempts 1, 2, 3, 4, 5+ → 1, 2, 4, 8, 10 s), counted from
 *   the failure. They move to activeQ when it expires.
 * - **unschedulable**: pods no node fits. A cluster event that may help
 *   ({@link SchedulingQueue.moveAllToActiveOrBackoff}: node added or changed, a bound pod
 *   deleted, …) moves them to activeQ (or backoffQ while still backing off); otherwise they
 *   are retried after 5 min (`podMaxInUnschedulablePodsDuration`), checked every 30 s as
 *   upstream's `flushUnschedulablePodsLeftover`.
 * - **gated**: pods with `spec.schedulingGates`; they wait for an update that removes the
 *   last gate (upstream keeps them in unschedulablePods, flagged gated; moves skip them).
 *
 * A pod handed out by {@link SchedulingQueue.pop} is "in flight" until `done`. If a move
 * event or an update of that pod arrives while it is in flight, a failure sends it to backoffQ
 * instead of unschedulable (upstream `moveRequestCycle`), so the event is not lost.
 *
 * Keys are `namespace/name`. All times come from the injected clock.
 *
 * @module
 */
import type { Pod } from '../api/model/index.js';
import type { KubeObject } from '../api/object.js';
import { type Clock, holdClock, type TurnGate } from '../util/clock.js';
import { KeyedHeap } from './keyed-heap.js';
import { podSpecOf } from './pod-view.js';

export const POD_INITIAL_BACKOFF_MS = 1_000;
export const POD_MAX_BACKOFF_MS = 10_000;
/** Upstream `DefaultPodMaxInUnschedulablePodsDuration`. */
export const POD_MAX_IN_UNSCHEDULABLE_MS = 5 * 60_000;
/** Upstream flushes leftover unschedulable pods every 30 s. */
export const UNSCHEDULABLE_FLUSH_INTERVAL_MS = 30_000;

/** One queued pod and its scheduling history (upstream `QueuedPodInfo`). */
export interface QueuedPod {
  readonly key: string;
  /** The newest version the informer delivered. */
  pod: Pod;
  /** When it entered its current queue (orders activeQ; starts backoff after a failure). */
  timestamp: number;
  /** Scheduling attempts so far (incremented by `pop`). */
  attempts: number;
  /** When it was first popped. */
  initialAttemptTimestamp?: number;
}

export type QueueName = 'active' | 'backoff' | 'unschedulable' | 'gated' | 'inFlight';

export interface SchedulingQueueOptions {
  readonly clock: Clock;
  readonly initialBackoffMs?: number;
  readonly maxBackoffMs?: number;
  readonly maxInUnschedulableMs?: number;
}

export function podKey(pod: KubeObject): string {
  return `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
}

function priorityOf(pod: Pod): number {
  return pod.spec?.priority ?? 0;
}

export function isGated(pod: Pod): boolean {
  return (podSpecOf(pod).schedulingGates ?? []).length > 0;
}

/** Upstream `calculateBackoffDuration`: initial × 2^(attempts−1), capped at the maximum. */
export function backoffDuration(attempts: number, initialMs: number, maxMs: number): number {
  let d = initialMs;
  for (let i = 1; i < attempts; i++) {
    if (d > maxMs - d) return maxMs;
    d += d;
  }
  return Math.min(d, maxMs);
}

/**
 * Upstream `isPodUpdated`: a change beyond resourceVersion, generation, status, managedFields
 * and finalizers. The scheduler's own status patch must not wake the pod up again.
 */
export function isPodUpdated(oldPod: KubeObject, newPod: KubeObject): boolean {
  const strip = (p: KubeObject): string => {
    const {
      resourceVersion: _rv,
      generation: _g,
      managedFields: _m,
      finalizers: _f,
      ...meta
    } = p.metadata ?? {};
    const { status: _s, metadata: _meta, ...rest } = p;
    return JSON.stringify({ ...rest, metadata: meta });
  };
  return strip(oldPod) !== strip(newPod);
}

export class SchedulingQueue {
  readonly #clock: Clock;
  readonly #initialBackoff: number;
  readonly #maxBackoff: number;
  readonly #maxUnschedulable: number;
  readonly #active = new KeyedHeap<QueuedPod>(
    (p) => p.key,
    (a, b) => {
      const pa = priorityOf(a.pod);
      const pb = priorityOf(b.pod);
      return pa > pb || (pa === pb && a.timestamp < b.timestamp);
    },
  );
  readonly #backoff = new KeyedHeap<QueuedPod>(
    (p) => p.key,
    (a, b) => this.#backoffExpiry(a) < this.#backoffExpiry(b),
  );
  readonly #unschedulable = new Map<string, QueuedPod>();
  readonly #gated = new Map<string, QueuedPod>();
  /** In-flight pods → whether an event that may help them arrived meanwhile. */
  readonly #inFlight = new Map<string, { info: QueuedPod; moved: boolean; deleted: boolean }>();
  readonly #waiters: ((p: QueuedPod | undefined) => void)[] = [];
  #closed = false;
  #cancelBackoffTimer: (() => void) | undefined;
  #backoffTimerAt = Number.POSITIVE_INFINITY;
  #cancelFlushTimer: (() => void) | undefined;
  /**
   * Open while activeQ holds a pod: a jumping clock waits for it to be tried. (A pod in
   * flight is covered by its binding request's own hold.)
   */
  #release: (() => void) | undefined;
  readonly #turns: TurnGate | undefined;
  readonly #unregisterTurns: (() => void) | undefined;

  constructor(options: SchedulingQueueOptions) {
    this.#clock = options.clock;
    // Serial runs (`clock.turns`): the scheduler tries one pod per turn, the queue's first.
    this.#turns = options.clock.turns;
    this.#unregisterTurns = this.#turns?.register('kube-scheduler', {
      ready: () => this.#active.size > 0 && this.#waiters.length > 0,
      run: () => {
        const waiter = this.#waiters.shift();
        const next = this.#takeActive();
        if (next !== undefined) waiter?.(next);
      },
    });
    this.#initialBackoff = options.initialBackoffMs ?? POD_INITIAL_BACKOFF_MS;
    this.#maxBackoff = options.maxBackoffMs ?? POD_MAX_BACKOFF_MS;
    this.#maxUnschedulable = options.maxInUnschedulableMs ?? POD_MAX_IN_UNSCHEDULABLE_MS;
    this.#scheduleFlush();
  }

  /** A new unscheduled pod (informer add); ignored when already known. */
  add(pod: Pod): void {
    const key = podKey(pod);
    if (this.#closed || this.where(key) !== undefined) return;
    const info: QueuedPod = { key, pod, timestamp: this.#clock.now(), attempts: 0 };
    if (isGated(pod)) this.#gated.set(key, info);
    else this.#pushActive(info);
  }

  /** A changed unscheduled pod (upstream `Update`). */
  update(oldPod: Pod, newPod: Pod): void {
    const key = podKey(newPod);
    const flight = this.#inFlight.get(key);
    if (flight !== undefined) {
      flight.info.pod = newPod;
      if (isPodUpdated(oldPod, newPod)) flight.moved = true;
      return;
    }
    const queued = this.#active.get(key) ?? this.#backoff.get(key);
    if (queued !== undefined) {
      queued.pod = newPod;
      // Re-insert: a priority change may reorder activeQ.
      if (this.#active.has(key)) this.#active.addOrUpdate(queued);
      return;
    }
    const parked = this.#unschedulable.get(key) ?? this.#gated.get(key);
    if (parked === undefined) {
      this.add(newPod);
      return;
    }
    parked.pod = newPod;
    if (this.#gated.has(key)) {
      if (isGated(newPod)) return;
      this.#gated.delete(key);
      this.#pushActive(parked);
      return;
    }
    if (isPodUpdated(oldPod, newPod)) {
      this.#unschedulable.delete(key);
      this.#requeue(parked);
    }
  }

  /** The pod is gone, bound, or no longer ours. */
  delete(pod: KubeObject): void {
    const key = podKey(pod);
    this.#active.delete(key);
    this.#backoff.delete(key);
    this.#unschedulable.delete(key);
    this.#gated.delete(key);
    const flight = this.#inFlight.get(key);
    if (flight !== undefined) flight.deleted = true;
    this.#armBackoffTimer();
    this.#syncHold();
  }

  /** The next pod to schedule; waits while activeQ is empty; undefined once closed. */
  pop(): Promise<QueuedPod | undefined> {
    if (this.#closed) return Promise.resolve(undefined);
    const next = this.#turns === undefined ? this.#takeActive() : undefined;
    if (next !== undefined) return Promise.resolve(next);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Ends the pod's attempt without requeueing it (bound, or skipped). */
  done(key: string): void {
    this.#inFlight.delete(key);
  }

  /**
   * The attempt found no node (upstream `AddUnschedulableIfNotPresent`): the pod waits in
   * unschedulable, or in backoffQ when something that may help happened during the attempt.
   */
  addUnschedulable(info: QueuedPod): void {
    this.#returnFromFlight(info, false);
  }

  /** The attempt failed with an error (API error, binding failure): retry after backoff. */
  addBackoff(info: QueuedPod): void {
    this.#returnFromFlight(info, true);
  }

  /**
   * A cluster event that may make unschedulable pods fit: each pod `matches` accepts moves to
   * activeQ, or backoffQ while its backoff lasts (upstream `MoveAllToActiveOrBackoffQueue`).
   */
  moveAllToActiveOrBackoff(matches: (pod: Pod) => boolean = () => true): void {
    for (const flight of this.#inFlight.values()) {
      if (matches(flight.info.pod)) flight.moved = true;
    }
    for (const [key, info] of this.#unschedulable) {
      if (!matches(info.pod)) continue;
      this.#unschedulable.delete(key);
      this.#requeue(info);
    }
  }

  /** Which queue holds `key`, if any. */
  where(key: string): QueueName | undefined {
    if (this.#inFlight.has(key)) return 'inFlight';
    if (this.#active.has(key)) return 'active';
    if (this.#backoff.has(key)) return 'backoff';
    if (this.#unschedulable.has(key)) return 'unschedulable';
    if (this.#gated.has(key)) return 'gated';
    return undefined;
  }

  /** Stops timers and wakes waiting `pop`s with undefined. */
  close(): void {
    this.#closed = true;
    this.#cancelBackoffTimer?.();
    this.#cancelFlushTimer?.();
    for (const w of this.#waiters.splice(0)) w(undefined);
    this.#syncHold();
    this.#unregisterTurns?.();
  }

  #syncHold(): void {
    if (this.#active.size > 0 && !this.#closed && this.#turns === undefined) {
      this.#release ??= holdClock(this.#clock);
    } else {
      this.#release?.();
      this.#release = undefined;
    }
  }

  #returnFromFlight(info: QueuedPod, error: boolean): void {
    const flight = this.#inFlight.get(info.key);
    this.#inFlight.delete(info.key);
    if (this.#closed || flight?.deleted === true || this.where(info.key) !== undefined) return;
    info.timestamp = this.#clock.now();
    if (error || flight?.moved === true) {
      this.#backoff.addOrUpdate(info);
      this.#armBackoffTimer();
    } else {
      this.#unschedulable.set(info.key, info);
    }
  }

  #backoffExpiry(info: QueuedPod): number {
    return info.timestamp + backoffDuration(info.attempts, this.#initialBackoff, this.#maxBackoff);
  }

  #requeue(info: QueuedPod): void {
    if (info.attempts > 0 && this.#backoffExpiry(info) > this.#clock.now()) {
      this.#backoff.addOrUpdate(info);
      this.#armBackoffTimer();
    } else {
      this.#pushActive(info);
    }
  }

  #pushActive(info: QueuedPod): void {
    const waiter = this.#turns === undefined ? this.#waiters.shift() : undefined;
    if (waiter !== undefined) {
      this.#startFlight(info);
      waiter(info);
      return;
    }
    this.#active.addOrUpdate(info);
    this.#syncHold();
  }

  #takeActive(): QueuedPod | undefined {
    const info = this.#active.pop();
    if (info !== undefined) this.#startFlight(info);
    this.#syncHold();
    return info;
  }

  #startFlight(info: QueuedPod): void {
    info.attempts++;
    info.initialAttemptTimestamp ??= this.#clock.now();
    this.#inFlight.set(info.key, { info, moved: false, deleted: false });
  }

  /** Moves every pod whose backoff expired to activeQ (upstream `flushBackoffQCompleted`). */
  #flushBackoff(): void {
    const now = this.#clock.now();
    for (;;) {
      const head = this.#backoff.peek();
      if (head === undefined || this.#backoffExpiry(head) > now) break;
      this.#backoff.pop();
      this.#pushActive(head);
    }
    this.#armBackoffTimer();
  }

  /** One timer for the earliest backoff expiry (upstream polls every second instead). */
  #armBackoffTimer(): void {
    const head = this.#backoff.peek();
    const at = head === undefined ? Number.POSITIVE_INFINITY : this.#backoffExpiry(head);
    if (at === this.#backoffTimerAt || this.#closed) return;
    this.#cancelBackoffTimer?.();
    this.#cancelBackoffTimer = undefined;
    this.#backoffTimerAt = at;
    if (at === Number.POSITIVE_INFINITY) return;
    this.#cancelBackoffTimer = this.#clock.setTimer(Math.max(0, at - this.#clock.now()), () => {
      this.#backoffTimerAt = Number.POSITIVE_INFINITY;
      this.#cancelBackoffTimer = undefined;
      this.#flushBackoff();
    });
  }

  /**
   * Every 30 s, pods unschedulable for more than 5 min are retried (upstream
   * `flushUnschedulablePodsLeftover`: `Sub(lastScheduleTime) > podMaxInUnschedulablePodsDuration`,
   * so a pod parked at 0 goes back at 5m30s, not 5m).
   */
  #scheduleFlush(): void {
    this.#cancelFlushTimer = this.#clock.setTimer(UNSCHEDULABLE_FLUSH_INTERVAL_MS, () => {
      if (this.#closed) return;
      const now = this.#clock.now();
      for (const [key, info] of this.#unschedulable) {
        if (now - info.timestamp <= this.#maxUnschedulable) continue;
        this.#unschedulable.delete(key);
        this.#requeue(info);
      }
      this.#scheduleFlush();
    });
  }
}
