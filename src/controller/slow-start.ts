/**
 * Slow-start batching (upstream `replica_set.go: slowStartBatch`, `stateful_set_control.go:
 * slowStartBatch`; docs/design/controller-machinery.md §3).
 *
 * Creating 500 pods against a quota or admission webhook that rejects them all would otherwise
 * send 500 doomed requests. Batches start at `initialBatch` (upstream 1) and double while every
 * call succeeds: for 10 calls the batches are 1, 2, 4, 3. The first failing batch stops the run,
 * so a systematic failure costs at most about as many calls as had succeeded before it.
 *
 * @module
 */

/** Upstream `SlowStartInitialBatchSize`. */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;

/** StatefulSet's cap on one batch (`MaxBatchSize`); ReplicaSet has none. */
export const STATEFUL_SET_MAX_BATCH_SIZE = 500;

export interface SlowStartOptions {
  /** Upper bound on one batch (StatefulSet passes 500). Default: unbounded. */
  readonly maxBatchSize?: number;
}

/**
 * The batch sizes for `count` calls: `min(count, initial)`, then `min(2·prev, remaining)` (also
 * capped by `maxBatchSize`), until nothing remains. A non-positive `initialBatch` yields no
 * batches at all, as upstream's loop condition does.
 */
export function slowStartBatchSizes(
  count: number,
  initialBatch: number,
  options: SlowStartOptions = {},
): number[] {
  const cap = options.maxBatchSize ?? Number.POSITIVE_INFINITY;
  const sizes: number[] = [];
  let remaining = count;
  for (
    let size = Math.min(remaining, initialBatch, cap);
    size > 0;
    size = Math.min(2 * size, remaining, cap)
  ) {
    sizes.push(size);
    remaining -= size;
  }
  return sizes;
}

export interface SlowStartResult {
  /** Calls that resolved. `count - successes` calls failed or were never made. */
  readonly successes: number;
  /** The first rejection (by settle order) of the first failing batch. */
  readonly error?: unknown;
}

/**
 * Runs `fn` `count` times in slow-start batches; calls within a batch run concurrently and each
 * gets its overall index (0-based, as StatefulSet uses it). After a batch with any rejection, the
 * remaining batches are skipped and the first rejection is returned with the success count.
 */
export async function slowStartBatch(
  count: number,
  initialBatch: number,
  fn: (index: number) => Promise<void>,
  options: SlowStartOptions = {},
): Promise<SlowStartResult> {
  let successes = 0;
  let next = 0;
  for (const size of slowStartBatchSizes(count, initialBatch, options)) {
    const errors: unknown[] = [];
    const calls = Array.from({ length: size }, (_, i) =>
      Promise.resolve()
        .then(() => fn(next + i))
        .then(
          () => {
            successes++;
          },
          (err: unknown) => {
            errors.push(err);
          },
        ),
    );
    await Promise.all(calls);
    next += size;
    if (errors.length > 0) return { successes, error: errors[0] };
  }
  return { successes };
}
