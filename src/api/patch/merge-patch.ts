/**
 * JSON merge patch (RFC 7386), the `application/merge-patch+json` PATCH body that `kubectl
 * label`, `annotate`, `scale` and `patch --type=merge` send.
 *
 * {@link applyMergePatch} follows the RFC's algorithm exactly: an object patch merges member by
 * member, `null` deletes, any other patch value (array, string, number, boolean) replaces the
 * target. Upstream uses evanphx/json-patch, which agrees on every case kubectl produces; it
 * differs only on odd inputs, where we keep the RFC: it drops `null` *elements* of arrays that
 * a patch adds, and it rejects a top-level `null` or scalar patch, which
 * {@link checkMergePatchDocument} reproduces for the API server.
 *
 * @module
 */
import { StatusError } from '../errors.js';

type JsonObject = Record<string, unknown>;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Sets an own, enumerable data property. Plain assignment would treat a `__proto__` member
 * (legal JSON, and `JSON.parse` creates it as an own property) as a prototype change.
 */
export function setMember(obj: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    obj[key] = value;
  }
}

/** A deep copy of a JSON value, so results never share structure with the inputs. */
export function cloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return cloneList(value);
  if (!isObject(value)) return value;
  return cloneObject(value);
}

/** {@link cloneJson} of an object, typed as one. */
export function cloneObject(value: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) setMember(out, k, cloneJson(v));
  return out;
}

/** {@link cloneJson} of a list, typed as one. */
export function cloneList(value: readonly unknown[]): unknown[] {
  return value.map(cloneJson);
}

/**
 * RFC 7386 `MergePatch(target, patch)`. Pure: neither argument is modified, and the result
 * shares no objects or arrays with them.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return cloneJson(patch);
  const out: JsonObject = isObject(target) ? cloneObject(target) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete out[key];
    } else {
      const current = Object.hasOwn(out, key) ? out[key] : undefined;
      setMember(out, key, applyMergePatch(current, value));
    }
  }
  return out;
}

/** Upstream's `ErrBadJSONPatch` text, answered as 400 BadRequest. */
export const INVALID_MERGE_PATCH_MESSAGE = 'Invalid JSON Patch';

/** 400 for a merge-patch body upstream refuses to apply (see {@link checkMergePatchDocument}). */
export class MergePatchDecodeError extends StatusError {
  constructor() {
    super(400, 'BadRequest', INVALID_MERGE_PATCH_MESSAGE);
    this.name = 'MergePatchDecodeError';
  }
}

/**
 * Rejects the decoded merge-patch bodies upstream answers 400 `Invalid JSON Patch`: `null`,
 * strings, numbers and booleans. Objects pass; arrays pass too (upstream then fails later,
 * when the array cannot be decoded as the object).
 *
 * @throws {MergePatchDecodeError}
 */
export function checkMergePatchDocument(patch: unknown): void {
  if (typeof patch !== 'object' || patch === null) throw new MergePatchDecodeError();
}
