/**
 * Leader election with a `coordination.k8s.io/v1` Lease, after client-go's
 * `tools/leaderelection` (`leaderelection.go`, `resourcelock/leaselock.go`).
 *
 * A candidate tries to acquire the Lease every `retryPeriod` (jittered by up to 1.2×, as
 * upstream's `JitterUntil`). It may take the Lease when nobody holds it, or when the record it
 * observed has not changed for `leaseDurationSeconds` **of its own clock** (upstream judges
 * expiry by when *it* last saw the record change, never by the holder's `renewTime`, so clock
 * skew between candidates does not matter). Taking over from someone else increments
 * `leaseTransitions`; every write is an update with the read `resourceVersion`, so of two
 * racing candidates one gets 409 and stays a follower.
 *
 * The leader renews every `retryPeriod`; when it has not managed to renew within
 * `renewDeadline` it stops leading: the signal given to `onStartedLeading` aborts,
 * `onStoppedLeading` runs, and {@link runLeaderElection} resolves (upstream's `Run` returns;
 * kube-controller-manager then exits). renewDeadline (10 s) < leaseDuration (15 s) is what keeps
 * two leaders from overlapping: the old one gives up 5 s before anyone may take over.
 *
 * On cancel (the caller's signal) the leader first waits for `onStartedLeading`'s promise (so
 * the controllers have stopped writing), then with `releaseOnCancel` writes an empty holder with
 * `leaseDurationSeconds: 1`, so a standby takes over within a second instead of 15.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { asKind, type Lease, type LeaseSpec } from '../api/model/index.js';
import { formatMicroTime } from '../api/time.js';
import { type ApiClient, isNotFound } from '../client/api-client.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/log.js';
import { RESOURCES } from './context.js';
import type { EventRecorder } from './events.js';

export interface LeaderElectionOptions {
  readonly client: Pick<ApiClient, 'get' | 'create' | 'update'>;
  readonly clock: Clock;
  readonly log: Logger;
  /** The Lease's name, e.g. `kube-controller-manager`. */
  readonly name: string;
  /** @default 'kube-system' */
  readonly namespace?: string;
  /** This candidate's holderIdentity. @default `<hostname>_<uuid>` */
  readonly identity?: string;
  /** How long a Lease is valid without renewal (kube-controller-manager). @default 15_000 */
  readonly leaseDurationMs?: number;
  /** How long the leader keeps trying to renew before giving up. @default 10_000 */
  readonly renewDeadlineMs?: number;
  /** Time between tries. @default 2_000 */
  readonly retryPeriodMs?: number;
  /** Hand the Lease back when `signal` aborts. @default false */
  readonly releaseOnCancel?: boolean;
  /** Stops the election (and leading). */
  readonly signal: AbortSignal;
  /** Jitter of the acquire loop. @default Math.random */
  readonly random?: () => number;
  /** Records `LeaderElection` events on the Lease, as upstream. */
  readonly events?: EventRecorder;
  /** Runs once leadership is acquired; `signal` aborts when it is lost or cancelled. */
  onStartedLeading(signal: AbortSignal): void | Promise<void>;
  /** Runs after leading ended (not when this candidate never led). */
  onStoppedLeading?(): void;
  /** A new holder was observed (including this candidate). */
  onNewLeader?(identity: string): void;
}

/** Upstream's `JitterFactor` of the acquire loop; renewDeadline must exceed retryPeriod × it. */
const JITTER_FACTOR = 1.2;

/** Upstream `NewLeaderElector`'s checks. */
export function validateTimings(lease: number, renew: number, retry: number): void {
  if (lease <= renew) throw new RangeError('leaseDuration must be greater than renewDeadline');
  if (renew <= JITTER_FACTOR * retry) {
    throw new RangeError('renewDeadline must be greater than retryPeriod*JitterFactor');
  }
  if (lease < 1 || renew < 1 || retry < 1) throw new RangeError('timings must be positive');
}

/**
 * Runs for leadership until `signal` aborts or leadership is lost; resolves then (after
 * releasing the Lease when asked). Rejects only on invalid options.
 */
export async function runLeaderElection(options: LeaderElectionOptions): Promise<void> {
  const elector = new LeaderElector(options);
  if (!(await elector.acquire())) return;
  const leading = new AbortController();
  // The leader's work (every controller, informer and queue) waits on this signal: dozens of
  // listeners are normal, not a leak (Node warns past 10).
  setMaxListeners(0, leading.signal);
  const stop = (): void => leading.abort();
  options.signal.addEventListener('abort', stop, { once: true });
  options.log.info({ lease: options.name, identity: elector.identity }, 'became leader');
  elector.record('became leader');
  const work = Promise.resolve()
    .then(() => options.onStartedLeading(leading.signal))
    .catch((err: unknown) => options.log.error({ err }, 'onStartedLeading failed'));
  try {
    await elector.renewUntilLost(leading.signal);
  } finally {
    options.signal.removeEventListener('abort', stop);
    leading.abort();
    await work;
    if (options.signal.aborted && options.releaseOnCancel) await elector.release();
    options.log.info({ lease: options.name, identity: elector.identity }, 'stopped leading');
    elector.record('stopped leading');
    options.onStoppedLeading?.();
  }
}

class LeaderElector {
  readonly identity: string;
  readonly #o: LeaderElectionOptions;
  readonly #leaseMs: number;
  readonly #renewMs: number;
  readonly #retryMs: number;
  /** The last Lease read or written, and when (our clock) its spec last changed. */
  #observed: Lease | undefined;
  #observedSpec = '';
  #observedTime = 0;

  constructor(options: LeaderElectionOptions) {
    this.#o = options;
    this.identity = options.identity ?? `${hostname()}_${randomUUID()}`;
    this.#leaseMs = options.leaseDurationMs ?? 15_000;
    this.#renewMs = options.renewDeadlineMs ?? 10_000;
    this.#retryMs = options.retryPeriodMs ?? 2_000;
    validateTimings(this.#leaseMs, this.#renewMs, this.#retryMs);
  }

  get #ref() {
    return {
      ...RESOURCES.leases,
      namespace: this.#o.namespace ?? 'kube-system',
      name: this.#o.name,
    };
  }

  #spec(): LeaseSpec {
    return this.#observed?.spec ?? {};
  }

  #isLeader(): boolean {
    return this.#spec().holderIdentity === this.identity;
  }

  #isValid(now: number): boolean {
    return this.#observedTime + (this.#spec().leaseDurationSeconds ?? 0) * 1000 > now;
  }

  #observe(lease: Lease, now: number): void {
    const spec = JSON.stringify(lease.spec ?? {});
    const previous = this.#spec().holderIdentity;
    this.#observed = lease;
    if (spec === this.#observedSpec) return;
    this.#observedSpec = spec;
    this.#observedTime = now;
    const holder = lease.spec?.holderIdentity ?? '';
    if (holder !== '' && holder !== previous) this.#o.onNewLeader?.(holder);
  }

  /** Tries every retryPeriod (jittered) until acquired (true) or cancelled (false). */
  async acquire(): Promise<boolean> {
    const { signal, clock, random = Math.random } = this.#o;
    while (!signal.aborted) {
      if (await this.#tryAcquireOrRenew(signal)) return true;
      const wait = this.#retryMs * (1 + random() * JITTER_FACTOR);
      await clock.sleep(wait, signal).catch(() => undefined);
    }
    return false;
  }

  /** Renews every retryPeriod; returns when a renewal missed its deadline or `signal` aborts. */
  async renewUntilLost(signal: AbortSignal): Promise<void> {
    const { clock, log } = this.#o;
    while (!signal.aborted) {
      if (!(await this.#renewWithinDeadline(signal))) {
        if (!signal.aborted)
          log.error({ lease: this.#o.name }, 'failed to renew lease, leading lost');
        return;
      }
      await clock.sleep(this.#retryMs, signal).catch(() => undefined);
    }
  }

  async #renewWithinDeadline(signal: AbortSignal): Promise<boolean> {
    const { clock } = this.#o;
    const deadline = new AbortController();
    const cancelTimer = clock.setTimer(this.#renewMs, () => deadline.abort());
    const onAbort = (): void => deadline.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      while (!deadline.signal.aborted) {
        if (await this.#tryAcquireOrRenew(deadline.signal)) return true;
        await clock.sleep(this.#retryMs, deadline.signal).catch(() => undefined);
      }
      return false;
    } finally {
      cancelTimer();
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** One try; never throws (upstream logs and answers false). */
  async #tryAcquireOrRenew(signal: AbortSignal): Promise<boolean> {
    try {
      return await this.#attempt(signal);
    } catch (err) {
      if (!signal.aborted) this.#o.log.debug({ err, lease: this.#o.name }, 'lease attempt failed');
      return false;
    }
  }

  async #attempt(signal: AbortSignal): Promise<boolean> {
    const { client, clock } = this.#o;
    const now = clock.now();
    const desired: LeaseSpec = {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.round(this.#leaseMs / 1000),
      acquireTime: formatMicroTime(now),
      renewTime: formatMicroTime(now),
      leaseTransitions: 0,
    };
    // Fast path: the leader renews on the Lease it wrote last, without reading it first.
    if (this.#observed !== undefined && this.#isLeader() && this.#isValid(now)) {
      const old = this.#spec();
      const spec = {
        ...desired,
        acquireTime: old.acquireTime,
        leaseTransitions: old.leaseTransitions ?? 0,
      };
      try {
        const renewed = await client.update(this.#ref, { ...this.#observed, spec }, { signal });
        this.#observe(asKind(renewed, 'Lease'), now);
        return true;
      } catch (err) {
        this.#o.log.debug({ err, lease: this.#o.name }, 'lease fast-path renew failed');
      }
    }
    let lease: Lease;
    try {
      lease = asKind(await client.get(this.#ref, { signal }), 'Lease');
    } catch (err) {
      if (!isNotFound(err)) throw err;
      const created = await client.create(
        this.#ref,
        {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: this.#o.name, namespace: this.#ref.namespace },
          spec: desired,
        },
        { signal },
      );
      this.#observe(asKind(created, 'Lease'), now);
      return true;
    }
    this.#observe(lease, now);
    const old = lease.spec ?? {};
    if ((old.holderIdentity ?? '') !== '' && this.#isValid(now) && !this.#isLeader()) return false;
    const spec: LeaseSpec = this.#isLeader()
      ? { ...desired, acquireTime: old.acquireTime, leaseTransitions: old.leaseTransitions ?? 0 }
      : { ...desired, leaseTransitions: (old.leaseTransitions ?? 0) + 1 };
    this.#observe(
      asKind(await client.update(this.#ref, { ...lease, spec }, { signal }), 'Lease'),
      now,
    );
    return true;
  }

  /** Hands the Lease back: an empty holder that expires in 1 s (upstream `release`). */
  async release(): Promise<void> {
    if (this.#observed === undefined || !this.#isLeader()) return;
    const now = this.#o.clock.now();
    const spec: LeaseSpec = {
      leaseDurationSeconds: 1,
      acquireTime: formatMicroTime(now),
      renewTime: formatMicroTime(now),
      leaseTransitions: this.#spec().leaseTransitions ?? 0,
    };
    try {
      const released = await this.#o.client.update(this.#ref, { ...this.#observed, spec });
      this.#observe(asKind(released, 'Lease'), now);
    } catch (err) {
      this.#o.log.error({ err, lease: this.#o.name }, 'failed to release lease');
    }
  }

  record(what: string): void {
    if (this.#observed !== undefined) {
      this.#o.events?.event(this.#observed, 'Normal', 'LeaderElection', `${this.identity} ${what}`);
    }
  }
}
