/**
 * Upstream `TypedValue.RemoveItems`: deletes every member of a field set from a value (a member
 * goes with everything below it) and descends where the set has deeper paths. A map or list that
 * loses its last entry this way is dropped rather than left as `null`, which is what upstream's
 * typed objects end up storing.
 *
 * @module
 */
import { isJsonObject } from '../object.js';
import type { Schema } from '../schema/types.js';
import type { FieldSet } from './field-set.js';
import { type FieldPath, fieldElement } from './path-element.js';
import { isEmptyContainer, type TypeResolver } from './type-resolver.js';

/** Fields at the root that pruning never removes: they identify the object. */
const KEPT_AT_ROOT = new Set(['apiVersion', 'kind', 'metadata']);

export function removeItems(r: TypeResolver, value: unknown, toRemove: FieldSet): unknown {
  return remove(r, value, toRemove, r.root, []);
}

function remove(
  r: TypeResolver,
  value: unknown,
  toRemove: FieldSet,
  schema: Schema | undefined,
  path: FieldPath,
): unknown {
  if (toRemove.isEmpty() || isEmptyContainer(value)) return value;
  const shape = r.shape(schema, value);
  if (shape.kind === 'scalar') return value;
  // `r.shape` says list only of an array and map only of an object: the guards below narrow.
  if (shape.kind === 'list') {
    if (shape.listType === 'atomic' || !Array.isArray(value)) return value;
    const itemSchema = r.items(schema);
    const out: unknown[] = [];
    value.forEach((item, i) => {
      const pe = r.itemElement(shape, schema, item, i, path);
      if (toRemove.hasMember(pe)) return;
      const v = remove(r, item, toRemove.withPrefix(pe), itemSchema, [...path, pe]);
      if (v !== undefined) out.push(v);
    });
    return out.length > 0 ? out : undefined;
  }
  if (shape.atomic || !isJsonObject(value)) return value;
  const atRoot = path.length === 0;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const pe = fieldElement(k);
    if (toRemove.hasMember(pe) && !(atRoot && KEPT_AT_ROOT.has(k))) continue;
    const kept = remove(r, v, toRemove.withPrefix(pe), r.field(schema, k, atRoot), [...path, pe]);
    if (kept !== undefined)
      Object.defineProperty(out, k, {
        value: kept,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return Object.keys(out).length > 0 || atRoot ? out : undefined;
}
