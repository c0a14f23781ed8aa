/**
 * `metav1.Time` on the wire: RFC 3339 in UTC with whole seconds (`2026-11-30T10:00:00Z`).
 * Every layer that writes or reads a timestamp uses these two, so the format lives in one place.
 *
 * @module
 */

/** Epoch milliseconds as `metav1.Time` (the sub-second part is dropped, as upstream does). */
export function formatTime(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/** A timestamp field's epoch milliseconds; undefined when it is absent, empty or unparseable. */
export function parseTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}
