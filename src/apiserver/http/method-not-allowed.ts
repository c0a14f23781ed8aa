/**
 * The 405 for a method a path has no route for. Upstream registers one go-restful route per
 * verb a resource's storage implements, and go-restful answers any other method on a known
 * path with 405, which the apiserver renders as a generic Status.
 *
 * @module
 */
import { StatusError } from '../../api/errors.js';

/** A verb the path does not serve (upstream: no route, 405). */
export function methodNotAllowed(): StatusError {
  return new StatusError(
    405,
    'MethodNotAllowed',
    'the server does not allow this method on the requested resource',
  );
}
