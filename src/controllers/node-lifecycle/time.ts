/**
 * metav1.Time / MicroTime helpers for the node-lifecycle planners: times travel as RFC3339
 * strings on the wire and as epoch milliseconds inside the planners.
 *
 * @module
 */

/** Epoch ms of a metav1.Time or MicroTime string; `undefined` for absent, null, "" or unparsable. */
export function parseTime(v: unknown): number | undefined {
  if (typeof v !== 'string' || v === '') return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

/** RFC3339 with second precision, the wire form of metav1.Time (sub-second part dropped). */
export function formatTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}
