/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) for built-in kinds: apply a
 * patch to a live object, and compute the patch between two objects as kubectl does.
 *
 * Errors are {@link StrategicMergePatchError}s, i.e. `StatusError`s with upstream's code and
 * message (400 for malformed directives or a non-object body, 422 for lists of lists, 500 with
 * no reason otherwise); the PATCH handler can throw them as they are.
 *
 * @module
 */
export { applyStrategicMergePatch } from './apply.js';
export { createTwoWayMergePatch } from './diff.js';
export {
  BAD_PRIMITIVE_LIST,
  BAD_RETAIN_KEYS,
  BAD_SET_ELEMENT_ORDER,
  decodeStrategicMergePatch,
  GENERIC_UNPROCESSABLE,
  isStrategicMergePatchError,
  NO_LIST_OF_LISTS,
  StrategicMergePatchError,
} from './errors.js';
