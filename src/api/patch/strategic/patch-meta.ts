/**
 * Patch metadata of one field, read from the schema: upstream's `LookupPatchMeta` answered from
 * our one schema language instead of Go struct tags. A field the schema does not know (no
 * schema, or a key an object schema does not declare) has no strategy: its maps merge and its
 * lists are replaced, exactly as JSON merge patch would do.
 *
 * Upstream, with struct tags, errors (`unable to find api field …`) only when both the live
 * object and the patch hold the unknown field as a map or list; a typed live object never holds
 * one, so in practice unknown fields are copied in and then dropped by decoding. Our store is
 * untyped, so the merge-patch fallback is what a user expects; field validation is where
 * unknown fields are reported or pruned.
 *
 * @module
 */
import type { SchemaNavigator } from '../../schema/navigator.js';
import type { Schema } from '../../schema/types.js';

export interface PatchMeta {
  /** The field's own schema (unresolved), `undefined` when the schema does not know it. */
  readonly schema: Schema | undefined;
  /** `merge` (lists by key or as sets), `replace` (maps replaced whole) or none. */
  readonly strategy: 'merge' | 'replace' | '';
  /** `retainKeys`: the client sends `$retainKeys`; only kubectl's diff reads this. */
  readonly retainKeys: boolean;
  /** The merge key of a list of objects; `''` for sets of primitives and other fields. */
  readonly mergeKey: string;
}

const NO_META: PatchMeta = { schema: undefined, strategy: '', retainKeys: false, mergeKey: '' };

/** The patch metadata of field `key` of an object whose schema is `parent`. */
export function fieldPatchMeta(
  nav: SchemaNavigator,
  parent: Schema | undefined,
  key: string,
): PatchMeta {
  const schema = nav.property(parent, key);
  if (schema === undefined) return NO_META;
  const list = nav.listSemantics(schema);
  const own =
    schema['x-kubernetes-patch-strategy'] ?? nav.resolve(schema)?.['x-kubernetes-patch-strategy'];
  const strategy = list.patchMerge
    ? 'merge'
    : (own ?? '').split(',').includes('replace')
      ? 'replace'
      : '';
  return {
    schema,
    strategy,
    retainKeys: list.patchRetainKeys,
    mergeKey: list.patchMergeKey ?? '',
  };
}

/** How upstream names a list's element type in `cannot merge lists without merge key for …`. */
export function elementKindName(nav: SchemaNavigator, items: Schema | undefined): string {
  const s = nav.resolve(items);
  switch (s?.type) {
    case 'object':
      return s.additionalProperties !== undefined && !s.properties ? 'map' : 'struct';
    case 'string':
      return 'string';
    case 'integer':
      return 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'array':
      return 'slice';
    default:
      return 'interface';
  }
}
