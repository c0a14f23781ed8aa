/**
 * The fields an object sets, as upstream `TypedValue.ToFieldSet`: every scalar leaf, every
 * atomic list or map as a whole, every element of a `set`/`map` list (as a member *and* as the
 * parent of its own fields), and every key of a map that is not a declared struct field. A
 * struct field is not itself a member; its leaves are. Also the schema-only helper
 * {@link ensureNamedFieldsAreMembers} that pruning uses.
 *
 * @module
 */
import { isJsonObject } from '../object.js';
import type { Schema } from '../schema/types.js';
import { FieldSet } from './field-set.js';
import { fieldSetOfPaths } from './field-set-builder.js';
import {
  type FieldPath,
  fieldElement,
  type PathElement,
  pathElementToString,
} from './path-element.js';
import { type Shape, TypedValueError, type TypeResolver } from './type-resolver.js';

export interface IndexedItem {
  /** The element's `fieldsV1` key. */
  readonly key: string;
  readonly pe: PathElement;
  readonly item: unknown;
}

/**
 * A granular list's elements by path element. A repeated element keeps its first occurrence
 * (upstream tolerates duplicates in stored objects); `rejectDuplicates` makes it an error, as
 * for an applied configuration. `path` (for error messages) may be given as a function, so a
 * walk builds it only when an error is thrown.
 */
export function indexList(
  r: TypeResolver,
  shape: Extract<Shape, { kind: 'list' }>,
  schema: Schema | undefined,
  list: readonly unknown[],
  path: FieldPath | (() => FieldPath),
  rejectDuplicates = false,
): Map<string, IndexedItem> {
  const out = new Map<string, IndexedItem>();
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    const { key, pe } = r.itemKeyed(shape, schema, item, i, path);
    if (out.has(key)) {
      if (rejectDuplicates) {
        throw new TypedValueError(path, `duplicate entries for key ${pathElementToString(pe)}`);
      }
      continue;
    }
    out.set(key, { key, pe, item });
  }
  return out;
}

/** Upstream `ToFieldSet` (nothing stripped). Throws {@link TypedValueError} on untypable lists. */
export function rawFieldSetOf(
  r: TypeResolver,
  value: unknown,
  opts: { rejectDuplicates?: boolean } = {},
): FieldSet {
  const out: FieldPath[] = [];
  collect(r, value, r.root, [], out, opts.rejectDuplicates ?? false);
  return fieldSetOfPaths(out);
}

function collect(
  r: TypeResolver,
  value: unknown,
  schema: Schema | undefined,
  path: FieldPath,
  out: FieldPath[],
  rejectDuplicates: boolean,
): void {
  const shape = r.shape(schema, value);
  if (shape.kind === 'scalar') {
    out.push(path);
    return;
  }
  // `r.shape` says list only of an array and map only of an object: the guards below narrow.
  if (shape.kind === 'list') {
    if (shape.listType === 'atomic' || !Array.isArray(value)) {
      out.push(path);
      return;
    }
    const items = indexList(r, shape, schema, value, path, rejectDuplicates);
    const itemSchema = r.items(schema);
    for (const { pe, item } of items.values()) {
      const p = [...path, pe];
      collect(r, item, itemSchema, p, out, rejectDuplicates);
      out.push(p);
    }
    return;
  }
  if (shape.atomic || !isJsonObject(value)) {
    out.push(path);
    return;
  }
  const atRoot = path.length === 0;
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const p = [...path, fieldElement(k)];
    collect(r, v, r.field(schema, k, atRoot), p, out, rejectDuplicates);
    if (!r.isDeclared(schema, k, atRoot)) out.push(p);
  }
}

/**
 * Upstream `EnsureNamedFieldsAreMembers`: the set plus every declared struct field that has
 * members below it, so pruning can remove a whole struct its applier no longer mentions.
 */
export function ensureNamedFieldsAreMembers(r: TypeResolver, set: FieldSet): FieldSet {
  return ensureAt(r, set, r.root, true);
}

function ensureAt(
  r: TypeResolver,
  set: FieldSet,
  schema: Schema | undefined,
  atRoot: boolean,
): FieldSet {
  const members: PathElement[] = set.members();
  const children: [PathElement, FieldSet][] = [];
  const isMap = schema !== undefined && isMapSchema(r, schema);
  for (const [pe, child] of set.children()) {
    let childSchema: Schema | undefined;
    if (pe.kind === 'field' && isMap) {
      childSchema = r.field(schema, pe.name, atRoot);
      if (r.isDeclared(schema, pe.name, atRoot)) members.push(pe);
    } else if (pe.kind === 'key') {
      childSchema = r.items(schema);
    }
    children.push([pe, ensureAt(r, child, childSchema, false)]);
  }
  return FieldSet.of(members, children);
}

function isMapSchema(r: TypeResolver, schema: Schema): boolean {
  const s = r.nav.resolve(schema);
  return s !== undefined && s.type !== 'array' && s.items === undefined;
}
