/**
 * Upstream's JSON type errors for built-in kinds. The apiserver decodes a built-in object into
 * Go structs (`sigs.k8s.io/json`, a fork of `encoding/json`); a value of the wrong JSON type
 * fails the whole request with 400 and the text
 * `<Kind> in version "<v>" cannot be handled as a <Kind>: <decode error>` (apiserver
 * `transformDecodeError`). We store JSON, so this module re-derives the decode error from the
 * kind's component schema: `findTypeError` returns the `<decode error>` part, or `undefined`.
 *
 * Which error wins, as in Go: a plain type mismatch is saved (only the first one, in document
 * order) and decoding goes on, skipping the mismatched value; an error from a type's own
 * `UnmarshalJSON` (`resource.Quantity`, `intstr.IntOrString`, `metav1.Time`) aborts at once
 * and is returned even when a mismatch was saved earlier. `null` is accepted everywhere.
 *
 * It runs on every write, so the walk allocates nothing until it finds an error. Go's own texts
 * (base64 and `time.Parse` errors, `UnmarshalTypeError`, named Go types) are in
 * `go-decode-texts.ts`.
 *
 * @module
 */
import { parseQuantity, QUANTITY_FORMAT_ERROR } from '../validation/quantity.js';
import {
  base64ErrorIndex,
  base64ErrorText,
  goFieldTypeError,
  goValueTypeError,
  jsonKind,
  NAMED_FIELD_TYPES,
  timeParseError,
} from './go-decode-texts.js';
import type { SchemaNavigator } from './navigator.js';
import { REF_PREFIX, type Schema } from './types.js';

/** Part of this module's API since before Go's texts moved out; kept so importers need not change. */
export { base64ErrorIndex, timeParseError } from './go-decode-texts.js';

const QUANTITY_REF = `${REF_PREFIX}io.k8s.apimachinery.pkg.api.resource.Quantity`;
const MICRO_TIME_REF = `${REF_PREFIX}io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime`;
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
/** 2⁶³: a double cannot tell 2⁶³−1 from 2⁶³, so only values above it are surely out of range. */
const INT64_LIMIT = 2 ** 63;

/** Go's decoder context: the field stack (JSON names, no indices) and each field's struct. */
interface WalkState {
  nav: SchemaNavigator;
  root: Schema | undefined;
  readonly fields: string[];
  readonly owners: (string | undefined)[];
  saved: string | undefined;
  hard: string | undefined;
}

/**
 * Reused across calls (the walk is synchronous) so a clean walk allocates nothing; made by the
 * first call, which has a navigator to put in it.
 */
let shared: WalkState | undefined;

/**
 * The error Go's decoder reports for `value` decoded as a built-in kind whose root schema is
 * `schema` (a component or a `$ref` to one), i.e. the text after
 * `cannot be handled as a <Kind>: `; `undefined` when it decodes. Unknown fields are ignored
 * (pruning handles them), as are preserve-unknown-fields (opaque) types.
 */
export function findTypeError(
  value: unknown,
  schema: Schema | undefined,
  nav: SchemaNavigator,
): string | undefined {
  shared ??= { nav, root: undefined, fields: [], owners: [], saved: undefined, hard: undefined };
  const state = shared;
  state.nav = nav;
  state.root = schema;
  state.fields.length = 0;
  state.owners.length = 0;
  state.saved = undefined;
  state.hard = undefined;
  walk(state, value, schema, 0);
  const found = state.hard ?? state.saved;
  state.root = undefined;
  return found;
}

/** The full 400 message, as the apiserver's create and update handlers build it. */
export function typeErrorMessage(
  kind: string,
  version: string,
  intoKind: string,
  detail: string,
): string {
  return `${kind} in version "${version}" cannot be handled as a ${intoKind}: ${detail}`;
}

function refOf(schema: Schema): string | undefined {
  if (schema.$ref !== undefined) return schema.$ref;
  const all = schema.allOf;
  return all?.length === 1 && !schema.properties ? all[0]?.$ref : undefined;
}

/** Walks one value; `hops` counts lists and maps since the innermost field. True: stop. */
function walk(st: WalkState, value: unknown, schema: Schema | undefined, hops: number): boolean {
  if (value === null || value === undefined || schema === undefined) return false;
  const ref = refOf(schema);
  const s = st.nav.resolve(schema);
  if (s === undefined || s['x-kubernetes-preserve-unknown-fields']) return false;
  if (ref === QUANTITY_REF) return checkQuantity(st, value);
  if (s['x-kubernetes-int-or-string'] || schema['x-kubernetes-int-or-string']) {
    return checkIntOrString(st, value);
  }
  switch (s.type) {
    case 'object':
      if (s.properties === undefined && s.additionalProperties !== undefined) {
        return walkMap(st, value, schema, s, hops);
      }
      return walkStruct(st, value, schema, s, ref, hops);
    case 'array':
      return walkList(st, value, schema, s, hops);
    case 'string':
      if (s.format === 'date-time') return checkTime(st, value, ref === MICRO_TIME_REF);
      if (s.format === 'byte') return checkBytes(st, value, schema, hops);
      break;
    case 'integer':
      checkInteger(st, value, schema, s.format === 'int32', hops);
      return false;
  }
  checkScalar(st, value, schema, s, hops);
  return false;
}

/** Plain strings, floats and bools: any other JSON kind is a mismatch. */
function checkScalar(st: WalkState, value: unknown, schema: Schema, s: Schema, hops: number): void {
  const type = s.type;
  if (type === 'string' && typeof value !== 'string') save(st, jsonKind(value), schema, hops);
  else if (type === 'boolean' && typeof value !== 'boolean')
    save(st, jsonKind(value), schema, hops);
  else if (type === 'number') {
    if (typeof value !== 'number') save(st, jsonKind(value), schema, hops);
    else if (!Number.isFinite(value)) save(st, `number ${value}`, schema, hops);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function walkStruct(
  st: WalkState,
  value: unknown,
  schema: Schema,
  s: Schema,
  ref: string | undefined,
  hops: number,
): boolean {
  if (!isObject(value)) {
    save(st, jsonKind(value), schema, hops);
    return false;
  }
  const props = s.properties;
  if (props === undefined) return false;
  for (const key in value) {
    const prop = Object.hasOwn(props, key) ? props[key] : undefined;
    if (prop === undefined) continue;
    st.fields.push(key);
    st.owners.push(ref);
    const stop = walk(st, value[key], prop, 0);
    st.fields.pop();
    st.owners.pop();
    if (stop) return true;
  }
  return false;
}

function walkMap(st: WalkState, value: unknown, schema: Schema, s: Schema, hops: number): boolean {
  if (!isObject(value)) {
    save(st, jsonKind(value), schema, hops);
    return false;
  }
  const extra = s.additionalProperties;
  if (typeof extra !== 'object') return false;
  for (const key in value) {
    if (walk(st, value[key], extra, hops + 1)) return true;
  }
  return false;
}

function walkList(st: WalkState, value: unknown, schema: Schema, s: Schema, hops: number): boolean {
  if (!Array.isArray(value)) {
    save(st, jsonKind(value), schema, hops);
    return false;
  }
  for (const item of value) {
    if (walk(st, item, s.items, hops + 1)) return true;
  }
  return false;
}

function checkInteger(
  st: WalkState,
  value: unknown,
  schema: Schema,
  int32: boolean,
  hops: number,
): void {
  if (typeof value === 'bigint') {
    // Beyond 2^53 (see src/api/int64-json.ts): fits an int64, never an int32.
    if (int32 || value < -(2n ** 63n) || value >= 2n ** 63n)
      save(st, `number ${value}`, schema, hops);
  } else if (typeof value !== 'number') {
    save(st, jsonKind(value), schema, hops);
  } else if (!fitsInteger(value, int32)) {
    save(st, `number ${value}`, schema, hops);
  }
}

function fitsInteger(n: number, int32: boolean): boolean {
  if (!Number.isInteger(n)) return false;
  return int32 ? n >= INT32_MIN && n <= INT32_MAX : n >= -INT64_LIMIT && n <= INT64_LIMIT;
}

/** `[]byte`: a base64 string (Go's StdEncoding), or a JSON array of `uint8` numbers. */
function checkBytes(st: WalkState, value: unknown, schema: Schema, hops: number): boolean {
  if (typeof value === 'string') {
    const at = base64ErrorIndex(value);
    if (at >= 0 && st.saved === undefined) st.saved = base64ErrorText(at);
  } else if (Array.isArray(value)) {
    for (const b of value) {
      if (b === null) continue;
      if (typeof b !== 'number') saveTyped(st, jsonKind(b), 'uint8');
      else if (!Number.isInteger(b) || b < 0 || b > 255) saveTyped(st, `number ${b}`, 'uint8');
    }
  } else {
    save(st, jsonKind(value), schema, hops);
  }
  return false;
}

/** `intstr.IntOrString.UnmarshalJSON`: strings as they are, anything else into an `int32`. */
function checkIntOrString(st: WalkState, value: unknown): boolean {
  if (typeof value === 'string') return false;
  if (typeof value === 'number' && fitsInteger(value, true)) return false;
  const kind =
    typeof value === 'number' || typeof value === 'bigint' ? `number ${value}` : jsonKind(value);
  st.hard = goValueTypeError(kind, 'int32');
  return true;
}

/** `resource.Quantity.UnmarshalJSON`: the raw JSON text, unquoted and trimmed, parsed. */
function checkQuantity(st: WalkState, value: unknown): boolean {
  let error: string | undefined;
  if (typeof value === 'string') {
    const r = parseQuantity(value.trim());
    if (!r.ok) error = r.error;
  } else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    const r = parseQuantity(String(value));
    if (!r.ok) error = r.error;
  } else {
    // `{…}` and `[…]` never match the quantity pattern.
    error = QUANTITY_FORMAT_ERROR;
  }
  if (error === undefined) return false;
  st.hard = error;
  return true;
}

/** `metav1.Time` / `MicroTime` `UnmarshalJSON`: a JSON string, then `time.Parse`. */
function checkTime(st: WalkState, value: unknown, micro: boolean): boolean {
  const error =
    typeof value === 'string'
      ? timeParseError(value, micro)
      : goValueTypeError(jsonKind(value), 'string');
  if (error === undefined) return false;
  st.hard = error;
  return true;
}

function save(st: WalkState, kind: string, schema: Schema, hops: number): void {
  if (st.saved !== undefined) return;
  saveTyped(st, kind, goTypeAt(st, schema, hops));
}

/** Records `UnmarshalTypeError.Error()` with the current struct context. */
function saveTyped(st: WalkState, kind: string, goType: string): void {
  if (st.saved !== undefined) return;
  const depth = st.fields.length;
  if (depth === 0) {
    st.saved = goValueTypeError(kind, goType);
    return;
  }
  const owner = st.owners[depth - 1];
  const struct = owner === undefined ? rootStructName(st) : shortName(owner);
  st.saved = goFieldTypeError(kind, struct, st.fields.join('.'), goType);
}

function rootStructName(st: WalkState): string {
  const name = definitionName(st, st.root);
  return name === undefined ? '' : shortName(name);
}

/** The component name of a schema: from its `$ref`, or by identity among the components. */
function definitionName(st: WalkState, schema: Schema | undefined): string | undefined {
  if (schema === undefined) return undefined;
  const ref = refOf(schema);
  if (ref !== undefined) return ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : ref;
  for (const [name, s] of Object.entries(st.nav.components)) if (s === schema) return name;
  return undefined;
}

function shortName(definition: string): string {
  return definition.slice(definition.lastIndexOf('.') + 1);
}

/** The Go type of the value at `schema`, `hops` lists/maps below the innermost field. */
function goTypeAt(st: WalkState, schema: Schema, hops: number): string {
  const depth = st.fields.length;
  const owner = st.owners[depth - 1];
  const field = st.fields[depth - 1];
  const ownerName = owner === undefined ? rootStructName(st) : shortName(owner);
  const named = field === undefined ? undefined : NAMED_FIELD_TYPES[ownerName]?.[field];
  if (named !== undefined) {
    let t: string | undefined = named;
    for (let i = 0; i < hops && t !== undefined; i++) t = elementType(t);
    if (t !== undefined) return t;
  }
  return goTypeOf(st, schema);
}

/** `[]T` → `T`, `map[K]V` → `V`; `undefined` for a named container type. */
function elementType(t: string): string | undefined {
  if (t.startsWith('[]')) return t.slice(2);
  if (t.startsWith('map[')) return t.slice(t.indexOf(']') + 1);
  return undefined;
}

/** Go's `reflect.Type.String()` for the type a schema describes. */
function goTypeOf(st: WalkState, schema: Schema | undefined): string {
  if (schema === undefined) return 'interface {}';
  const name = definitionName(st, schema);
  const s = st.nav.resolve(schema) ?? {};
  if (name !== undefined) {
    const parts = name.split('.');
    if (parts.length >= 2) return `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
  }
  switch (s.type) {
    case 'string':
      return s.format === 'byte' ? '[]uint8' : 'string';
    case 'integer':
      return s.format === 'int32' ? 'int32' : 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'array':
      return `[]${goTypeOf(st, s.items)}`;
    case 'object': {
      const extra = s.additionalProperties;
      return `map[string]${typeof extra === 'object' ? goTypeOf(st, extra) : 'interface {}'}`;
    }
    default:
      return 'interface {}';
  }
}
