/**
 * The create errors the namespace-seeding controllers (ServiceAccounts, root CA publisher)
 * let go, as upstream: the namespace is gone (404) or being deleted (403 with the
 * `NamespaceTerminating` cause). Either way there is nothing to seed, and the next namespace
 * event brings the key back if that changes.
 *
 * @module
 */
import { isJsonObject } from '../../api/object.js';
import { isNotFound } from '../../client/api-client.js';
import { StatusCodeError } from '../../client/lister-watcher.js';

/** Upstream `v1.NamespaceTerminatingCause`. */
const NAMESPACE_TERMINATING_CAUSE = 'NamespaceTerminating';

/** Upstream `HasStatusCause(err, NamespaceTerminatingCause)`. */
export function isNamespaceTerminating(err: unknown): boolean {
  if (!(err instanceof StatusCodeError)) return false;
  const details = err.status?.details;
  const causes = isJsonObject(details) && Array.isArray(details.causes) ? details.causes : [];
  return causes.some((c) => isJsonObject(c) && c.reason === NAMESPACE_TERMINATING_CAUSE);
}

/** A create into a namespace that cannot take it any more. */
export function isNamespaceGoneOrTerminating(err: unknown): boolean {
  return isNotFound(err) || isNamespaceTerminating(err);
}
