/**
 * What a schema declares: the one definition of "declared" shared by the unknown-field finder
 * (`unknown-fields.ts`) and the pruner (`prune-unknown.ts`), so that after pruning the finder
 * finds nothing.
 *
 * - A struct declares its own `properties` (looked up with `Object.hasOwn`, so `constructor`,
 *   `toString` or `__proto__` are never declared through `Object.prototype`); with
 *   `x-kubernetes-preserve-unknown-fields` it is open and declares every other key as anything.
 * - A map (`additionalProperties`) declares every key.
 * - Scalars (int-or-string, Quantity), untyped and opaque values (RawExtension, no schema)
 *   declare everything below them: a type mismatch is a decoding error, not an unknown field.
 * - At an object's root and at every `x-kubernetes-embedded-resource`, `apiVersion` and `kind`
 *   are declared, and `metadata` is ObjectMeta (a shallow copy of its field list when the
 *   navigator lacks the built-in components, as for a CRD's own schema).
 *
 * @module
 */
import type { SchemaNavigator } from './navigator.js';
import { REF_PREFIX, type Schema } from './types.js';

/** How a resolved schema's keys are declared. */
export type DeclaredShape = 'struct' | 'map' | 'any';

/** Accepts any value (decoding into `interface{}`). */
export const ANY_SCHEMA: Schema = { 'x-kubernetes-preserve-unknown-fields': true };

const OBJECT_META = `${REF_PREFIX}io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`;
const OBJECT_META_REF: Schema = { $ref: OBJECT_META };

/** ObjectMeta's fields, for navigators without the built-in components (a CRD's own schema). */
const OBJECT_META_FIELDS = [
  'annotations',
  'creationTimestamp',
  'deletionGracePeriodSeconds',
  'deletionTimestamp',
  'finalizers',
  'generateName',
  'generation',
  'labels',
  'managedFields',
  'name',
  'namespace',
  'ownerReferences',
  'resourceVersion',
  'selfLink',
  'uid',
];
const SHALLOW_OBJECT_META: Schema = {
  type: 'object',
  properties: Object.fromEntries(OBJECT_META_FIELDS.map((f) => [f, ANY_SCHEMA])),
};

/** The shape of a resolved schema (`undefined`: no schema, anything goes). */
export function declaredShape(s: Schema | undefined): DeclaredShape {
  if (s === undefined) return 'any';
  if (s.properties) return 'struct';
  const extra = s.additionalProperties;
  if (extra === true || (extra && typeof extra === 'object')) return 'map';
  if (isOpen(s) || s.type !== 'object') return 'any';
  return 'struct';
}

/** A struct that also keeps unknown keys (`x-kubernetes-preserve-unknown-fields`). */
export function isOpen(s: Schema | undefined): boolean {
  return s?.['x-kubernetes-preserve-unknown-fields'] === true;
}

/** `x-kubernetes-embedded-resource`: `apiVersion`, `kind` and `metadata` are declared. */
export function isEmbeddedResource(s: Schema | undefined): boolean {
  return s?.['x-kubernetes-embedded-resource'] === true;
}

/** A struct's own declared property `key` (never one inherited from `Object.prototype`). */
export function declaredProperty(s: Schema, key: string): Schema | undefined {
  const props = s.properties;
  return props !== undefined && Object.hasOwn(props, key) ? props[key] : undefined;
}

/** A map's value schema: `additionalProperties`, or anything for `true`. */
export function mapValues(s: Schema | undefined): Schema {
  const extra = s?.additionalProperties;
  return typeof extra === 'object' ? extra : ANY_SCHEMA;
}

/** The keys every resource declares: `apiVersion`, `kind`, `metadata`. */
export function isResourceKey(key: string): boolean {
  return key === 'apiVersion' || key === 'kind' || key === 'metadata';
}

/** The (unresolved) schema of a resource's `metadata` in this navigator. */
export function objectMetaSchema(nav: SchemaNavigator): Schema {
  return nav.component(OBJECT_META) ? OBJECT_META_REF : SHALLOW_OBJECT_META;
}
