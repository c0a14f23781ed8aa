/**
 * Objects embedded in a custom resource (`x-kubernetes-embedded-resource: true`, e.g. a pod
 * template) carry their own `apiVersion`, `kind` and `metadata`, which upstream checks like a
 * top-level object's (`apiserver/schema/objectmeta/validation.go`): `apiVersion` and `kind` are
 * required, `kind` must look like a kind, and `metadata` is validated as ObjectMeta with names
 * as path segments. The root object itself is left to the server's generic checks.
 *
 * @module
 */
import { type FieldError, FieldPath, fieldErrors } from '../../api/field-error.js';
import { isJsonObject, type JsonObject, type ObjectMeta } from '../../api/object.js';
import type { Schema } from '../../api/schema/types.js';
import { isDNS1035Label } from '../../api/validation/dns.js';
import { validateObjectMeta } from '../../api/validation/object-meta.js';

/** Errors in the embedded resources found anywhere below the root of `obj`. */
export function validateEmbeddedResources(obj: unknown, schema: Schema | undefined): FieldError[] {
  return walk(undefined, obj, schema);
}

/**
 * Upstream `objectmeta.Validate(path, value, schema, isResourceRoot)`: like
 * {@link validateEmbeddedResources} for a value at `path` (a default), checking the value
 * itself as a resource when `isResourceRoot`.
 */
export function validateEmbeddedResourcesAt(
  value: unknown,
  schema: Schema,
  path: FieldPath,
  isResourceRoot: boolean,
): FieldError[] {
  const s = isResourceRoot ? { ...schema, 'x-kubernetes-embedded-resource': true } : schema;
  return walk(path, value, s);
}

function childPath(path: FieldPath | undefined, name: string): FieldPath {
  return path ? path.child(name) : new FieldPath(name);
}

function walk(path: FieldPath | undefined, x: unknown, s: Schema | undefined): FieldError[] {
  if (!s) return [];
  const errs: FieldError[] = [];
  if (Array.isArray(x)) {
    x.forEach((v, i) => {
      errs.push(...walk((path ?? new FieldPath('')).index(i), v, s.items));
    });
    return errs;
  }
  if (!isJsonObject(x)) return errs;
  if (s['x-kubernetes-embedded-resource'] && path) errs.push(...validateEmbeddedResource(path, x));
  const extra = isJsonObject(s.additionalProperties) ? s.additionalProperties : undefined;
  for (const [k, v] of Object.entries(x)) {
    const prop = s.properties?.[k];
    if (prop) errs.push(...walk(childPath(path, k), v, prop));
    else if (extra) errs.push(...walk((path ?? new FieldPath('')).key(k), v, extra));
  }
  return errs;
}

/** Upstream `schema.ParseGroupVersion`: at most one `/`. */
function groupVersionError(apiVersion: string): string | undefined {
  if (apiVersion === '/' || (apiVersion.match(/\//g) ?? []).length <= 1) return undefined;
  return `unexpected GroupVersion string: ${apiVersion}`;
}

function validateEmbeddedResource(path: FieldPath, x: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!Object.hasOwn(x, 'apiVersion')) errs.push(fieldErrors.required(path.child('apiVersion')));
  if (!Object.hasOwn(x, 'kind')) errs.push(fieldErrors.required(path.child('kind')));
  for (const [k, v] of Object.entries(x)) {
    if (k === 'apiVersion') errs.push(...validateApiVersion(path.child(k), v));
    else if (k === 'kind') errs.push(...validateKind(path.child(k), v));
    else if (k === 'metadata') errs.push(...validateEmbeddedMeta(path.child(k), v));
  }
  return errs;
}

function validateApiVersion(p: FieldPath, v: unknown): FieldError[] {
  if (typeof v !== 'string') return [fieldErrors.invalid(p, v, 'must be a string')];
  if (v === '') return [fieldErrors.required(p)];
  const err = groupVersionError(v);
  return err ? [fieldErrors.invalid(p, v, err)] : [];
}

function validateKind(p: FieldPath, v: unknown): FieldError[] {
  if (typeof v !== 'string') return [fieldErrors.invalid(p, v, 'must be a string')];
  if (v === '') return [fieldErrors.required(p)];
  const errs = isDNS1035Label(v.toLowerCase());
  if (errs.length === 0) return [];
  return [
    fieldErrors.invalid(p, v, `may have mixed case, but should otherwise match: ${errs.join(',')}`),
  ];
}

/** Go's `encoding/json` name for a JSON value's type, as in `cannot unmarshal <it> into …`. */
function jsonTypeName(v: unknown): string {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') return 'string';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

const STRING_FIELDS = ['name', 'generateName', 'namespace', 'uid', 'resourceVersion', 'selfLink'];
const STRING_MAP_FIELDS = ['labels', 'annotations'];

/** The `encoding/json` error decoding `metadata` into ObjectMeta would give, if any. */
function objectMetaDecodeError(v: unknown): string | undefined {
  if (!isJsonObject(v)) {
    return `json: cannot unmarshal ${jsonTypeName(v)} into Go value of type v1.ObjectMeta`;
  }
  const bad = (field: string, goType: string, value: unknown): string =>
    `json: cannot unmarshal ${jsonTypeName(value)} into Go struct field ObjectMeta.${field} of type ${goType}`;
  for (const f of STRING_FIELDS) {
    const fv = v[f];
    if (fv !== undefined && fv !== null && typeof fv !== 'string') return bad(f, 'string', fv);
  }
  for (const f of STRING_MAP_FIELDS) {
    const fv = v[f];
    if (fv === undefined || fv === null) continue;
    if (!isJsonObject(fv)) return bad(f, 'map[string]string', fv);
    const entry = Object.values(fv).find((x) => x !== null && typeof x !== 'string');
    if (entry !== undefined) return bad(f, 'string', entry);
  }
  const gen = v.generation;
  if (gen !== undefined && gen !== null && !Number.isInteger(gen))
    return bad('generation', 'int64', gen);
  return undefined;
}

/**
 * Whether `v` decodes into upstream's ObjectMeta: an object whose string, string-map and
 * integer fields are of those types (the fields `encoding/json` would refuse).
 */
function decodesAsObjectMeta(v: unknown): v is ObjectMeta {
  return objectMetaDecodeError(v) === undefined;
}

function validateEmbeddedMeta(p: FieldPath, v: unknown): FieldError[] {
  if (!decodesAsObjectMeta(v)) {
    return [fieldErrors.invalid(p, v, objectMetaDecodeError(v) ?? 'not an ObjectMeta')];
  }
  const meta = { ...v };
  // Upstream sets a fake name so that a nameless embedded object passes the required check.
  if (!meta.name) meta.name = 'fakename';
  const namespaced = typeof meta.namespace === 'string' && meta.namespace !== '';
  return validateObjectMeta(meta, { namespaced, nameValidation: 'path-segment' }, p);
}
