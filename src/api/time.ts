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

/**
 * `metav1.MicroTime` on the wire (Lease `acquireTime`/`renewTime`): RFC 3339 in UTC with six
 * fraction digits; the clock has milliseconds, so the last three are zero.
 */
export function formatMicroTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000Z`;
}
