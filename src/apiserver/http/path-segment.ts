/**
 * Upstream's key-function check on the namespace and name taken from a request path
 * (`NamespaceKeyFunc` in `k8s.io/apiserver/pkg/registry/generic/registry/store.go`): a
 * segment that is `.` or `..`, or holds `/` or `%`, could address another key, so it is
 * refused with 400 before any key is built.
 *
 * @module
 */
import { badRequest } from '../../api/errors.js';
import { isValidPathSegmentName } from '../../api/validation/names.js';

/** Throws upstream's 400 for a namespace or name segment that is not a valid path segment. */
export function checkPathSegments(namespace: string, name: string): void {
  const nsErrors = namespace === '' ? [] : isValidPathSegmentName(namespace);
  if (nsErrors.length > 0) {
    throw badRequest(
      `Namespace parameter invalid: ${JSON.stringify(namespace)}: ${nsErrors.join(';')}`,
    );
  }
  const nameErrors = name === '' ? [] : isValidPathSegmentName(name);
  if (nameErrors.length > 0) {
    throw badRequest(`Name parameter invalid: ${JSON.stringify(name)}: ${nameErrors.join(';')}`);
  }
}
