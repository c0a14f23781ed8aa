/**
 * Random objects shaped by a schema, for property tests of everything that walks schemas
 * (strategic merge patch, server-side apply, validation): a fast-check `Arbitrary` that follows
 * `$ref`s, types, enums and int-or-string, and keeps list invariants the API relies on:
 * elements of a keyed list (`x-kubernetes-patch-merge-key`, `x-kubernetes-list-map-keys`)
 * always carry their keys and the keys are unique; sets (`x-kubernetes-list-type: set`, or a
 * merged list of primitives) hold distinct values.
 *
 * Values are "valid-shaped", not valid: patterns, formats other than `date-time`, lengths and
 * CEL rules are ignored. Objects hold no `null`s. By default strings and integers come from
 * tiny domains (`a`…`c`, 0…9) so that two independently generated objects share map keys and
 * merge keys often, which is what merge properties need; pass `smallValues: false` for wider
 * ones. Generation is lazy (only the fields picked are built), so the recursive, wide Pod
 * schema is fine.
 *
 * @module
 */
import fc from 'fast-check';
import type { SchemaNavigator } from '../navigator.js';
import type { Schema } from '../types.js';

export interface ArbitraryObjectOptions {
  /** Nesting depth of objects and lists before they are generated empty. Default 8. */
  readonly maxDepth?: number;
  /** Optional properties picked per object, at most. Default 4. */
  readonly maxProperties?: number;
  /** Optional properties picked per object, at least (when there are that many). Default 0. */
  readonly minProperties?: number;
  /** Elements per list and entries per map. Default 3. */
  readonly maxItems?: number;
  /** Draw strings and integers from tiny domains so values collide. Default true. */
  readonly smallValues?: boolean;
}

interface Ctx {
  readonly nav: SchemaNavigator;
  readonly maxDepth: number;
  readonly maxProperties: number;
  readonly minProperties: number;
  readonly maxItems: number;
  readonly small: boolean;
}

type Obj = Record<string, unknown>;

/** An arbitrary of values of `schema` (an object for an object schema). */
export function arbitraryFromSchema(
  schema: Schema | undefined,
  nav: SchemaNavigator,
  opts: ArbitraryObjectOptions = {},
): fc.Arbitrary<unknown> {
  const ctx: Ctx = {
    nav,
    maxDepth: opts.maxDepth ?? 8,
    maxProperties: opts.maxProperties ?? 4,
    minProperties: opts.minProperties ?? 0,
    maxItems: opts.maxItems ?? 3,
    small: opts.smallValues ?? true,
  };
  return valueArb(ctx, schema, 0);
}

function valueArb(ctx: Ctx, schema: Schema | undefined, depth: number): fc.Arbitrary<unknown> {
  const s = ctx.nav.resolve(schema);
  if (s === undefined) return scalar(ctx);
  if (s.enum && s.enum.length > 0) return fc.constantFrom(...s.enum);
  if (s['x-kubernetes-int-or-string'] || schema?.['x-kubernetes-int-or-string']) {
    return fc.oneof(integer(ctx, s), text(ctx));
  }
  switch (s.type) {
    case 'object':
      return objectOf(ctx, s, depth);
    case 'array':
      return arrayOf(ctx, schema, depth);
    case 'string':
      return s.format === 'date-time' ? dateTime() : text(ctx);
    case 'integer':
      return integer(ctx, s);
    case 'number':
      return fc.oneof(
        integer(ctx, s),
        fc.double({ min: -1e6, max: 1e6, noNaN: true }).map(noNegZero),
      );
    case 'boolean':
      return fc.boolean();
    default:
      return s.properties ? objectOf(ctx, s, depth) : scalar(ctx);
  }
}

function noNegZero(x: number): number {
  return x === 0 ? 0 : x;
}

function scalar(ctx: Ctx): fc.Arbitrary<unknown> {
  return fc.oneof(text(ctx), fc.integer({ min: 0, max: 9 }), fc.boolean());
}

function text(ctx: Ctx): fc.Arbitrary<string> {
  if (ctx.small) return fc.constantFrom('a', 'b', 'c');
  return fc.string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-.'),
    maxLength: 12,
  });
}

function integer(ctx: Ctx, s: Schema): fc.Arbitrary<number> {
  const min = s.minimum ?? (ctx.small ? 0 : -1000);
  const max = s.maximum ?? (ctx.small ? 9 : 1000);
  return fc.integer({ min: Math.ceil(min), max: Math.max(Math.ceil(min), Math.floor(max)) });
}

function dateTime(): fc.Arbitrary<string> {
  return fc
    .integer({ min: 0, max: 4_000_000_000 })
    .map((sec) => new Date(sec * 1000).toISOString().replace('.000Z', 'Z'));
}

/** Map keys: never `$…` (directives) nor prototype names. */
function mapKey(ctx: Ctx): fc.Arbitrary<string> {
  if (ctx.small) return fc.constantFrom('k1', 'k2', 'k3', 'x.io/y');
  return fc.string({ unit: fc.constantFrom(...'abcxyz-./'), minLength: 1, maxLength: 8 });
}

function objectOf(ctx: Ctx, s: Schema, depth: number): fc.Arbitrary<Obj> {
  if (depth >= ctx.maxDepth) return fc.constant({});
  const props = s.properties ?? {};
  const extra = s.additionalProperties;
  if (Object.keys(props).length === 0 && extra !== undefined && extra !== false) {
    const valueSchema = extra === true ? undefined : extra;
    return fc.dictionary(mapKey(ctx), valueArb(ctx, valueSchema, depth + 1), {
      maxKeys: ctx.maxItems,
      noNullPrototype: true,
    });
  }
  const required = (s.required ?? []).filter((k) => k in props);
  const optional = Object.keys(props).filter((k) => !required.includes(k));
  const maxLength = Math.min(ctx.maxProperties, optional.length);
  const minLength = Math.min(ctx.minProperties, maxLength);
  return fc
    .shuffledSubarray(optional, { minLength, maxLength })
    .chain((picked) => fieldsOf(ctx, props, [...required, ...picked], depth));
}

function fieldsOf(
  ctx: Ctx,
  props: Readonly<Record<string, Schema>>,
  keys: readonly string[],
  depth: number,
): fc.Arbitrary<Obj> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const k of keys) {
    const p = props[k];
    if (p) model[k] = valueArb(ctx, p, depth + 1);
  }
  return fc.record(model, { noNullPrototype: true }) as fc.Arbitrary<Obj>;
}

/** The keys identifying an element of a keyed list, from the SMP and SSA extensions. */
function identityKeys(ctx: Ctx, list: Schema | undefined): string[] {
  const sem = ctx.nav.listSemantics(list);
  const keys = new Set<string>(sem.mapKeys);
  if (sem.patchMerge && sem.patchMergeKey) keys.add(sem.patchMergeKey);
  return [...keys];
}

function arrayOf(ctx: Ctx, list: Schema | undefined, depth: number): fc.Arbitrary<unknown[]> {
  if (depth >= ctx.maxDepth) return fc.constant([]);
  const items = ctx.nav.items(list);
  const sem = ctx.nav.listSemantics(list);
  const keys = identityKeys(ctx, list);
  const itemType = ctx.nav.resolve(items)?.type;
  if (keys.length > 0 && (itemType === 'object' || itemType === undefined)) {
    return keyedList(ctx, list, items, keys, depth);
  }
  const element = valueArb(ctx, items, depth + 1);
  const isSet = sem.listType === 'set' || (sem.patchMerge && itemType !== 'object');
  if (isSet) {
    return fc.uniqueArray(element, { maxLength: ctx.maxItems, selector: (v) => JSON.stringify(v) });
  }
  return fc.array(element, { maxLength: ctx.maxItems });
}

function keyedList(
  ctx: Ctx,
  list: Schema | undefined,
  items: Schema | undefined,
  keys: readonly string[],
  depth: number,
): fc.Arbitrary<unknown[]> {
  const keyArbs = keys.map((k) => valueArb(ctx, ctx.nav.property(items, k), depth + 2));
  const element = fc
    .tuple(valueArb(ctx, items, depth + 1), fc.tuple(...keyArbs))
    .map(([body, values]) => {
      const out: Obj = typeof body === 'object' && body !== null ? { ...(body as Obj) } : {};
      keys.forEach((k, i) => {
        out[k] = values[i];
      });
      return out;
    });
  // Unique by the merge key when there is one: it is one of the map keys in every built-in
  // (ports: containerPort of containerPort+protocol), so the key tuples are unique as well.
  const mergeKey = ctx.nav.listSemantics(list).patchMergeKey;
  const unique = mergeKey && ctx.nav.listSemantics(list).patchMerge ? [mergeKey] : keys;
  return fc.uniqueArray(element, {
    maxLength: ctx.maxItems,
    selector: (v) => JSON.stringify(unique.map((k) => v[k])),
  });
}
