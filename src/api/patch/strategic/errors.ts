/**
 * How a failed strategic merge patch reaches the client. Upstream's patcher
 * (`k8s.io/apiserver/pkg/endpoints/handlers/patch.go`, `interpretStrategicMergePatchError`)
 * sorts the errors of `strategicpatch` into three answers, and every error here is a
 * {@link StatusError} already carrying the right one:
 *
 * - **400 BadRequest**, message kept: the malformed-directive sentinels (`invalid patch format
 *   of retainKeys`, `… of primitive list`, `… of setElementOrder list`) and an undecodable
 *   body (`json: cannot unmarshal string into Go value of type map[string]interface {}`).
 * - **422 Invalid**, message replaced by the generic `the server rejected our request due to an
 *   error in our request` (upstream builds it with `NewGenericServerResponse`, which drops the
 *   cause): `lists of lists are not supported`.
 * - **500 with no reason**: every other error (`map: map[image:x] does not contain declared
 *   merge key: name`, `unknown patch type: …`, order mismatches). Upstream returns them as
 *   plain Go errors, which the server renders as a Status with code 500, no `reason`, and the
 *   error text as `message`; kubectl prints `Error from server: <message>`.
 *
 * @module
 */
import { badRequest, StatusError } from '../../errors.js';
import {
  GO_MAP,
  GO_SLICE,
  goString,
  goTypeName,
  goValue,
  isJsonObject,
  type JsonObject,
} from './go-values.js';

export const BAD_RETAIN_KEYS = 'invalid patch format of retainKeys';
export const BAD_PRIMITIVE_LIST = 'invalid patch format of primitive list';
export const BAD_SET_ELEMENT_ORDER = 'invalid patch format of setElementOrder list';
export const NO_LIST_OF_LISTS = 'lists of lists are not supported';
/** What the client sees for a 422 from `NewGenericServerResponse`. */
export const GENERIC_UNPROCESSABLE =
  'the server rejected our request due to an error in our request';

/**
 * A failed strategic merge patch. By default one upstream does not classify: code 500, no `reason`, the
 * upstream error text as the message (or 400 / 422 as {@link badPatchFormat} and
 * {@link noListOfLists} say). `upstreamMessage` keeps upstream's text even for the 422, whose
 * message is generic.
 */
export class StrategicMergePatchError extends StatusError {
  readonly upstreamMessage: string;
  constructor(code: 400 | 422 | 500, message: string) {
    if (code === 400) {
      super(400, 'BadRequest', message);
    } else if (code === 422) {
      super(422, 'Invalid', GENERIC_UNPROCESSABLE, {});
    } else {
      super(500, 'InternalError', message);
      // Upstream's StatusReasonUnknown is the empty string, omitted from the JSON.
      delete this.status.reason;
    }
    this.name = 'StrategicMergePatchError';
    this.upstreamMessage = message;
  }
}

export function isStrategicMergePatchError(e: unknown): e is StrategicMergePatchError {
  return e instanceof StrategicMergePatchError;
}

export function badPatchFormat(message: string): StrategicMergePatchError {
  return new StrategicMergePatchError(400, message);
}

export function unclassified(message: string): StrategicMergePatchError {
  return new StrategicMergePatchError(500, message);
}

export function noListOfLists(): StrategicMergePatchError {
  return new StrategicMergePatchError(422, NO_LIST_OF_LISTS);
}

/** `mergepatch.ErrNoMergeKey`. */
export function noMergeKey(m: JsonObject, key: string): StrategicMergePatchError {
  return unclassified(`map: ${goValue(m)} does not contain declared merge key: ${key}`);
}

/** `mergepatch.ErrBadArgType` with an expected map or slice. */
export function badArgType(expected: 'map' | 'slice', actual: unknown): StrategicMergePatchError {
  const want = expected === 'map' ? GO_MAP : GO_SLICE;
  return unclassified(`expected a ${want}, but received a ${goTypeName(actual)}`);
}

/** `mergepatch.ErrBadPatchType`. */
export function badPatchType(directive: unknown, m: JsonObject): StrategicMergePatchError {
  return unclassified(`unknown patch type: ${goString(directive)} in map: ${goValue(m)}`);
}

export function elementTypesDiffer(
  lists: readonly (readonly unknown[])[],
): StrategicMergePatchError {
  return unclassified(`list element types are not identical: ${goValue(lists)}`);
}

/**
 * The 400 the API server answers when the body is not a JSON object (upstream decodes it into
 * a `map[string]interface{}`; a `null` body decodes to an empty patch).
 *
 * @returns the patch as an object
 * @throws {StatusError} 400 for strings, numbers, booleans and arrays
 */
export function decodeStrategicMergePatch(body: unknown): JsonObject {
  if (body === null || body === undefined) return {};
  if (isJsonObject(body)) return body;
  const kind = Array.isArray(body)
    ? 'array'
    : typeof body === 'boolean'
      ? 'bool'
      : typeof body === 'number'
        ? 'number'
        : 'string';
  throw badRequest(`json: cannot unmarshal ${kind} into Go value of type ${GO_MAP}`);
}
