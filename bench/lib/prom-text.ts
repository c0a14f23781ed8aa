/**
 * Reads the Prometheus text exposition of `/metrics` just enough for the benchmarks: samples
 * with their labels, sums over a label, and a quantile from a histogram's cumulative buckets.
 *
 * @module
 */

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!;
    const value = m[3] === '+Inf' ? Number.POSITIVE_INFINITY : Number(m[3]);
    samples.push({ name: m[1]!, labels, value });
  }
  return samples;
}

/** Sum of `name`'s samples grouped by a function of their labels. */
export function sumBy(
  samples: readonly Sample[],
  name: string,
  key: (labels: Readonly<Record<string, string>>) => string | undefined,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of samples) {
    if (s.name !== name) continue;
    const k = key(s.labels);
    if (k !== undefined) out.set(k, (out.get(k) ?? 0) + s.value);
  }
  return out;
}

/** `after − before` for every key (keys only in `after` count from 0). */
export function difference(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, v] of after) {
    const d = v - (before.get(k) ?? 0);
    if (d !== 0) out.set(k, d);
  }
  return out;
}

export interface HistogramQuantile {
  /** The upper bound of the bucket the quantile falls in (`+Inf` past the last bucket). */
  readonly upperBound: number;
  /** The largest finite bucket bound (what `+Inf` means: above this). */
  readonly lastBound: number;
  readonly count: number;
  readonly sum: number;
}

/**
 * Quantile `q` (0..1) of the histogram `name` among samples whose labels match `where`, as
 * the upper bound of the first cumulative bucket holding at least `q × count` observations.
 * A bucket bound is all a histogram can say; upstream's `histogram_quantile` interpolates
 * inside the bucket, which can only be lower.
 */
export function histogramQuantile(
  samples: readonly Sample[],
  name: string,
  where: (labels: Readonly<Record<string, string>>) => boolean,
  q: number,
): HistogramQuantile | undefined {
  const buckets = new Map<number, number>();
  let count = 0;
  let sum = 0;
  for (const s of samples) {
    if (!where(s.labels)) continue;
    if (s.name === `${name}_bucket`) {
      const le = s.labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(s.labels.le);
      buckets.set(le, (buckets.get(le) ?? 0) + s.value);
    } else if (s.name === `${name}_count`) count += s.value;
    else if (s.name === `${name}_sum`) sum += s.value;
  }
  if (count === 0) return undefined;
  const need = q * count;
  const bounds = [...buckets.keys()].sort((a, b) => a - b);
  const upperBound = bounds.find((b) => (buckets.get(b) ?? 0) >= need) ?? Number.POSITIVE_INFINITY;
  const finite = bounds.filter((b) => Number.isFinite(b));
  return { upperBound, lastBound: finite.at(-1) ?? Number.NaN, count, sum };
}
