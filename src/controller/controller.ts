/**
 * The worker loop that turns queued keys into reconcile calls, after controller-runtime's
 * `pkg/internal/controller/controller.go` (`processNextWorkItem` + `reconcileHandler`).
 *
 * Each of N workers takes a key, reconciles it, and applies the outcome to the queue:
 *
 * | outcome                         | queue calls                         | metrics outcome   |
 * |---------------------------------|-------------------------------------|-------------------|
 * | throws {@link TerminalError}    | `forget` (no retry), error logged   | `terminal_error`  |
 * | throws anything else            | `addRateLimited`, error logged      | `error`           |
 * | `{ requeueAfter: ms }` (ms > 0) | `forget`, then `addAfter(key, ms)`  | `requeue_after`   |
 * | `{ requeue: true }`             | `addRateLimited`                    | `requeue`         |
 * | `{}`                            | `forget`                            | `success`         |
 *
 * and always `done(key)` afterwards, so a key re-added during its reconcile runs once more.
 * `requeueAfter` wins over `requeue`, and a result returned alongside an error cannot exist in
 * TypeScript (a throw has no result), so upstream's "both a result and an error" warning has no
 * equivalent. Reconciles are level-based: a key carries no event, the reconciler re-reads state.
 *
 * @module
 */
import { isConflict } from '../client/api-errors.js';
import type { Clock } from '../util/clock.js';
import type { WorkQueue } from './workqueue.js';

/** What a reconcile asks for next. An empty object means "done until something changes". */
export interface ReconcileResult {
  /**
   * Run again after this many ms, with the key's backoff reset. For time-based waits
   * (minReadySeconds, progress deadlines); errors should throw instead.
   */
  readonly requeueAfter?: number;
  /** Run again after the rate limiter's delay (like upstream, prefer `requeueAfter`). */
  readonly requeue?: boolean;
}

/** Thrown by a reconciler for an error that retrying cannot fix: it is logged, not retried. */
export class TerminalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TerminalError';
  }
}

/** True when `err` or any error in its `cause` chain is a {@link TerminalError}. */
export function isTerminalError(err: unknown): boolean {
  const seen = new Set<unknown>();
  while (err instanceof Error && !seen.has(err)) {
    if (err instanceof TerminalError) return true;
    seen.add(err);
    err = err.cause;
  }
  return false;
}

/** What the loop logs through; a pino `Logger` fits. Fields first, then a constant message. */
export interface ControllerLogger {
  error(fields: Record<string, unknown>, msg: string): void;
  /** Conflicts (409) go here when present; a logger without it drops them. */
  debug?(fields: Record<string, unknown>, msg: string): void;
}

/** How one reconcile ended; the label values of controller-runtime's reconcile_total. */
export type ReconcileOutcome = 'success' | 'requeue' | 'requeue_after' | 'error' | 'terminal_error';

/** Hooks for controller metrics; all optional. Queue metrics are on the queue itself. */
export interface ControllerMetrics {
  /** One finished reconcile: its outcome and duration in clock ms. */
  reconciled?(controller: string, outcome: ReconcileOutcome, durationMs: number): void;
  /** Reconciles in progress, after every change (0 … workers). */
  activeWorkers?(controller: string, active: number): void;
}

/** Options of {@link runController}. */
export interface ControllerOptions<K> {
  /** Used in logs and metrics. */
  readonly name: string;
  readonly queue: WorkQueue<K>;
  /** Drives one key to its desired state; `signal` aborts when the controller stops. */
  readonly reconcile: (key: K, signal: AbortSignal) => Promise<ReconcileResult>;
  /** Concurrent reconciles (controller-runtime's MaxConcurrentReconciles). @default 1 */
  readonly workers?: number;
  /** Measures reconcile durations. */
  readonly clock: Clock;
  readonly log?: ControllerLogger;
  readonly metrics?: ControllerMetrics;
  /**
   * Stops the controller: the queue shuts down, idle workers exit, and the returned promise
   * resolves once in-flight reconciles have finished (they see this signal and should return).
   * Without it the controller runs until the queue is shut down by its owner.
   */
  readonly signal?: AbortSignal;
}

const neverAborted = new AbortController().signal;

/**
 * Runs `workers` loops over `queue` until stopped; resolves when all have exited and every
 * processing key is done. Rejects only on invalid options.
 */
export async function runController<K>(options: ControllerOptions<K>): Promise<void> {
  const workers = options.workers ?? 1;
  if (!Number.isInteger(workers) || workers < 1) {
    throw new RangeError(`controller ${options.name}: workers must be a positive integer`);
  }
  const { queue, signal = neverAborted } = options;
  const stop = (): void => {
    queue.shutdown();
  };
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  const state: WorkerState<K> = { options, signal, active: 0, seq: 0 };
  try {
    await Promise.all(Array.from({ length: workers }, () => workerLoop(state)));
    await queue.shutdownWithDrain();
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

interface WorkerState<K> {
  readonly options: ControllerOptions<K>;
  readonly signal: AbortSignal;
  active: number;
  /** Numbers reconciles for the `reconcileID` log field (deterministic, unlike a UUID). */
  seq: number;
}

async function workerLoop<K>(state: WorkerState<K>): Promise<void> {
  const { queue, name, metrics } = state.options;
  for (;;) {
    const key = await queue.get();
    if (key === undefined) return;
    metrics?.activeWorkers?.(name, ++state.active);
    try {
      await reconcileKey(state, key);
    } finally {
      // Always, so the key can be handed out again (client-go's deferred Done).
      queue.done(key);
      metrics?.activeWorkers?.(name, --state.active);
    }
  }
}

async function reconcileKey<K>(state: WorkerState<K>, key: K): Promise<void> {
  const { options, signal } = state;
  const { clock, name } = options;
  const reconcileID = `${name}-${++state.seq}`;
  const start = clock.now();
  let outcome: ReconcileOutcome;
  try {
    const result = await options.reconcile(key, signal);
    outcome = applyResult(options.queue, key, result);
  } catch (err) {
    outcome = applyError(options.queue, key, err);
    // A 409 is optimistic concurrency doing its job (a write raced a newer one; the retry
    // re-reads): expected under load, so not an error line (upstream logs these at V(4)).
    if (isConflict(err)) {
      options.log?.debug?.({ controller: name, key, reconcileID, err }, 'Reconciler conflict');
    } else {
      options.log?.error({ controller: name, key, reconcileID, err }, 'Reconciler error');
    }
  }
  options.metrics?.reconciled?.(name, outcome, clock.now() - start);
}

/** Applies a returned result; exported for table tests of the outcome → queue mapping. */
export function applyResult<K>(
  queue: WorkQueue<K>,
  key: K,
  result: ReconcileResult | undefined,
): ReconcileOutcome {
  const after = result?.requeueAfter ?? 0;
  if (after > 0) {
    // Reset the backoff first: a timed requeue is not a failure.
    queue.forget(key);
    queue.addAfter(key, after);
    return 'requeue_after';
  }
  if (result?.requeue === true) {
    queue.addRateLimited(key);
    return 'requeue';
  }
  queue.forget(key);
  return 'success';
}

/** Applies a thrown error; exported for table tests of the outcome → queue mapping. */
export function applyError<K>(queue: WorkQueue<K>, key: K, err: unknown): ReconcileOutcome {
  if (isTerminalError(err)) {
    queue.forget(key);
    return 'terminal_error';
  }
  queue.addRateLimited(key);
  return 'error';
}
