/**
 * Pruning of fields a structural schema does not declare (upstream
 * `apiserver/schema/pruning/algorithm.go`), returning the removed paths in upstream's format
 * (`spec.foo`, `spec.items[0].bar`) so strict field validation can report
 * `unknown field "spec.foo"`.
 *
 * Rules, as upstream:
 * - `apiVersion`, `kind` and `metadata` are kept at the root and in embedded resources
 *   (`x-kubernetes-embedded-resource`); the root's metadata is the server's business.
 * - Under `x-kubernetes-preserve-unknown-fields` unknown fields stay, but declared properties
 *   are still pruned below.
 * - `additionalProperties: true|false` (no schema) keeps the key but prunes everything inside
 *   object values; validation then rejects keys under `false`.
 * - An embedded resource's `metadata` keeps only ObjectMeta's fields (upstream decodes it into
 *   ObjectMeta and back).
 *
 * @module
 */
import { deepCopy, isJsonObject, type KubeObject } from '../../api/object.js';
import type { Schema } from '../../api/schema/types.js';

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/** ObjectMeta's JSON fields (upstream `metav1.ObjectMeta`). */
const OBJECT_META_FIELDS = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);

export interface PruneResult {
  readonly pruned: KubeObject;
  /** Removed fields, e.g. `spec.foo`; in object order. */
  readonly unknownPaths: string[];
}

/** A pruned deep copy of `obj` and the paths that were removed. `obj` is not modified. */
export function pruneUnknownFields(obj: KubeObject, schema: Schema | undefined): PruneResult {
  const pruned = deepCopy(obj);
  const unknownPaths = pruneInPlace(pruned, schema);
  return { pruned, unknownPaths };
}

/**
 * Prunes `obj` in place as a resource root (its metadata fields are kept) and returns the
 * removed paths. Without a schema everything but apiVersion/kind/metadata is removed.
 */
export function pruneInPlace(obj: unknown, schema: Schema | undefined): string[] {
  const root: Schema = { ...(schema ?? {}), 'x-kubernetes-embedded-resource': true };
  const paths: string[] = [];
  prune(obj, root, '', paths, true);
  return paths;
}

/**
 * Upstream `Prune(value, schema, isResourceRoot)` for a value that is not necessarily an object
 * root (a schema default): metadata fields are kept only if `isResourceRoot` or the schema
 * marks an embedded resource.
 */
export function pruneValue(value: unknown, schema: Schema, isResourceRoot: boolean): string[] {
  const s: Schema = isResourceRoot ? { ...schema, 'x-kubernetes-embedded-resource': true } : schema;
  const paths: string[] = [];
  prune(value, s, '', paths, isResourceRoot);
  return paths;
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function prune(x: unknown, s: Schema | undefined, path: string, out: string[], root = false): void {
  if (s?.['x-kubernetes-preserve-unknown-fields']) {
    skipPrune(x, s, path, out, root);
    return;
  }
  if (Array.isArray(x)) {
    x.forEach((v, i) => {
      prune(v, s?.items, `${path}[${i}]`, out);
    });
    return;
  }
  if (!isJsonObject(x)) return;
  for (const k of Object.keys(x)) {
    const p = join(path, k);
    if (s?.['x-kubernetes-embedded-resource'] && META_FIELDS.has(k)) {
      if (!root && k === 'metadata') pruneObjectMeta(x[k], p, out);
      continue;
    }
    const prop = s?.properties?.[k];
    if (prop) prune(x[k], prop, p, out);
    else if (s?.additionalProperties !== undefined) {
      prune(x[k], additionalSchema(s), p, out);
    } else {
      out.push(p);
      delete x[k];
    }
  }
}

/**
 * `additionalProperties: true` or `false` carries no schema: values are pruned against nothing
 * (a scalar stays, an object is emptied), as upstream's `StructuralOrBool` without a schema.
 */
function additionalSchema(s: Schema): Schema | undefined {
  return isJsonObject(s.additionalProperties) ? s.additionalProperties : undefined;
}

function skipPrune(x: unknown, s: Schema, path: string, out: string[], root: boolean): void {
  if (Array.isArray(x)) {
    const items = s.items;
    x.forEach((v, i) => {
      if (items) skipPrune(v, items, `${path}[${i}]`, out, false);
    });
    return;
  }
  if (!isJsonObject(x)) return;
  for (const k of Object.keys(x)) {
    const p = join(path, k);
    if (s['x-kubernetes-embedded-resource'] && META_FIELDS.has(k)) {
      if (!root && k === 'metadata') pruneObjectMeta(x[k], p, out);
      continue;
    }
    const prop = s.properties?.[k];
    if (prop) prune(x[k], prop, p, out);
    else if (s.additionalProperties !== undefined) {
      prune(x[k], additionalSchema(s), p, out);
    }
  }
}

function pruneObjectMeta(meta: unknown, path: string, out: string[]): void {
  if (!isJsonObject(meta)) return;
  for (const k of Object.keys(meta)) {
    if (OBJECT_META_FIELDS.has(k)) continue;
    out.push(join(path, k));
    delete meta[k];
  }
}
