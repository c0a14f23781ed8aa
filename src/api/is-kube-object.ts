/**
 * A type guard for values built from JSON that are meant to be whole objects (a merge of two
 * objects, a decoded body): true when the value is a JSON object whose `apiVersion` and `kind`
 * are strings or absent and whose `metadata` is an object or absent. As `kindMismatch` in
 * `model/index.ts`, it checks identity and shape, not every metadata field: the objects it is
 * used on are built from ones the server validated, and are validated again before storage.
 *
 * @module
 */
import { isJsonObject, type KubeObject } from './object.js';

export function isKubeObject(v: unknown): v is KubeObject {
  if (!isJsonObject(v)) return false;
  const { apiVersion, kind, metadata } = v;
  return (
    (apiVersion === undefined || typeof apiVersion === 'string') &&
    (kind === undefined || typeof kind === 'string') &&
    (metadata === undefined || isJsonObject(metadata))
  );
}
