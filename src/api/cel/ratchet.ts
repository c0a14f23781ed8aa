/**
 * Validation ratcheting (upstream `CRDValidationRatcheting`, on by default since 1.30): on an
 * update, a failing rule that does not read `oldSelf` is only a warning when the value it
 * checked is unchanged from the old object. Values are correlated through object fields and
 * map keys, and through map-type lists by their keys; below a value that cannot be correlated
 * the nearest correlated ancestor decides.
 *
 * @module
 */
import { isDeepStrictEqual } from 'node:util';

export interface Correlation {
  /** The new and old value here, when the two can be correlated. */
  readonly current?: { readonly value: unknown; readonly old: unknown };
  /** Whether the nearest correlated ancestor is unchanged. */
  readonly parentUnchanged: boolean;
}

export const NO_CORRELATION: Correlation = { parentUnchanged: false };

export function rootCorrelation(value: unknown, old: unknown): Correlation {
  return old === undefined || old === null
    ? NO_CORRELATION
    : { current: { value, old }, parentUnchanged: false };
}

function unchanged(c: Correlation['current']): boolean {
  return c !== undefined && isDeepStrictEqual(c.value, c.old);
}

/** Whether errors found here are ratcheted into warnings. */
export function shouldRatchet(c: Correlation): boolean {
  return c.current ? unchanged(c.current) : c.parentUnchanged;
}

/** The correlation one step down, to `value` whose old counterpart is `old` (undefined: none). */
export function descend(c: Correlation, value: unknown, old: unknown): Correlation {
  if (!c.current) return c;
  const parentUnchanged = unchanged(c.current);
  if (old === undefined || old === null) return { parentUnchanged };
  return { current: { value, old }, parentUnchanged };
}
