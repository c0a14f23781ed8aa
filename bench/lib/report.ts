/**
 * One row of the `npm run bench` table. Each benchmark module returns rows; `bench/run.ts`
 * prints them together with their targets.
 *
 * @module
 */
export interface BenchRow {
  /** What was measured, e.g. `durable writes/s (sqlite backend)`. */
  readonly name: string;
  /** Median of the runs, in `unit`. */
  readonly value: number;
  readonly unit: string;
  /** The individual runs the median came from. */
  readonly runs?: readonly number[];
  /** Human-readable target, e.g. `>= 4000`; absent for context figures. */
  readonly target?: string;
  /** Whether the target was met; absent when there is no target. */
  readonly met?: boolean;
  readonly note?: string;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const idx = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[idx]!;
}
