/**
 * `resourceVersion` query values: unset or "0" mean "any/latest"; a number names a revision.
 *
 * @module
 */
import { badRequest, type StatusError, tooLargeResourceVersion } from '../../api/errors.js';

/** undefined for unset, "" or "0"; the revision otherwise; 400 for garbage. */
export function parseResourceVersion(text: string | null): number | undefined {
  if (text === null || text === '' || text === '0') return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n)) {
    throw badRequest(`invalid resource version: ${JSON.stringify(text)}`);
  }
  return n;
}

/** 504 for a revision this server has not reached (upstream waits up to 3 s first). */
export function tooLargeFor(requested: number, current: number): StatusError {
  return tooLargeResourceVersion(requested, current, 1);
}
