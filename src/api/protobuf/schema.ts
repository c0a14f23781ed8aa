/**
 * The shape of the protobuf schema tables (`schema-*.ts`) and their compiled, validated form.
 *
 * A table row describes one field of an upstream message the way Go's `encoding/json` sees
 * the Go struct it is generated from, since the decoded object must equal what a JSON client
 * would have sent for the same Go value:
 *
 * - `o`: the JSON tag has `omitempty` (Go drops `""`, `0`, `false`, nil slices and maps, but
 *   never structs);
 * - `p`: the Go field is a pointer (on the wire only when set, so its zero value is kept);
 * - `r`: a slice (a repeated field); `m`: a `map[string]T` (repeated key=1/value=2 entries);
 * - `i`: an embedded struct with `json:",inline"`: its fields are merged into the parent.
 *
 * @module
 */

/**
 * Scalar field types: their JSON forms are strings, booleans, numbers and base64 strings.
 * `double` (a Go `float64`, wire type fixed64) is only ever a single field, never a list.
 */
export type ScalarType = 'string' | 'bool' | 'int32' | 'int64' | 'double' | 'bytes';

/**
 * Messages with a JSON form of their own: `Time`/`MicroTime` (RFC 3339 or `null`),
 * `IntOrString` (number or string), `Quantity` (string), `FieldsV1`, `RawExtension` and
 * apiextensions' `JSON` (embedded JSON).
 */
export type SpecialType =
  | 'Time'
  | 'MicroTime'
  | 'IntOrString'
  | 'Quantity'
  | 'FieldsV1'
  | 'RawExtension'
  | 'JSON';

/** The API groups the tables come from, as the prefix of a message name. */
export type TableGroup =
  | 'meta'
  | 'core'
  | 'apps'
  | 'apiextensions'
  | 'autoscaling'
  | 'coordination'
  | 'discovery'
  | 'events'
  | 'networking'
  | 'policy'
  | 'rbac'
  | 'storage';

/** A message of a table, e.g. `core.PodSpec` for `k8s.io.api.core.v1.PodSpec`. */
export type MessageName = `${TableGroup}.${string}`;

/** What a field holds. */
export type FieldType = ScalarType | SpecialType | MessageName;

/** One field: `[field number, JSON name ('' when inline), type, flags]`. */
export type FieldRow = readonly [no: number, json: string, type: FieldType, flags?: string];

/** Message tables by message name. */
export type MessageTables = Readonly<Record<MessageName, readonly FieldRow[]>>;

/** What a compiled field holds: `kind` tells its `type` apart, so a test of it narrows `type`. */
export type FieldKind =
  | { readonly kind: 'scalar'; readonly type: ScalarType }
  | { readonly kind: 'special'; readonly type: SpecialType }
  | { readonly kind: 'message'; readonly type: MessageName };

/** One field, compiled. */
export type FieldSpec = FieldKind & {
  /** Position in {@link MessageSpec.fields}. */
  readonly index: number;
  readonly no: number;
  readonly json: string;
  readonly omitempty: boolean;
  readonly pointer: boolean;
  readonly repeated: boolean;
  readonly map: boolean;
  readonly inline: boolean;
};

/** A field of a scalar type. */
export type ScalarFieldSpec = Extract<FieldSpec, { kind: 'scalar' }>;
/** A field whose value is a struct-like payload: a special type or a message. */
export type StructFieldSpec = Exclude<FieldSpec, { kind: 'scalar' }>;

/** One message, compiled: fields in Go struct order and by number. */
export interface MessageSpec {
  readonly name: MessageName;
  readonly fields: readonly FieldSpec[];
  readonly byNumber: ReadonlyMap<number, FieldSpec>;
}

const SCALARS: ReadonlySet<string> = new Set<ScalarType>([
  'string',
  'bool',
  'int32',
  'int64',
  'double',
  'bytes',
]);
const SPECIALS: ReadonlySet<string> = new Set<SpecialType>([
  'Time',
  'MicroTime',
  'IntOrString',
  'Quantity',
  'FieldsV1',
  'RawExtension',
  'JSON',
]);

/** Whether a field type is one of the {@link ScalarType}s. */
export function isScalarType(type: FieldType): type is ScalarType {
  return SCALARS.has(type);
}

/** Whether a field type is one of the {@link SpecialType}s. */
export function isSpecialType(type: FieldType): type is SpecialType {
  return SPECIALS.has(type);
}

const GROUPS: ReadonlySet<string> = new Set<TableGroup>([
  'meta',
  'core',
  'apps',
  'apiextensions',
  'autoscaling',
  'coordination',
  'discovery',
  'events',
  'networking',
  'policy',
  'rbac',
  'storage',
]);

/** Whether a table key is a {@link MessageName}: a known group, a dot, a name. */
export function isMessageName(name: string): name is MessageName {
  const dot = name.indexOf('.');
  return dot > 0 && dot < name.length - 1 && GROUPS.has(name.slice(0, dot));
}

function fieldKind(type: FieldType): FieldKind {
  if (isScalarType(type)) return { kind: 'scalar', type };
  if (isSpecialType(type)) return { kind: 'special', type };
  return { kind: 'message', type };
}

function compileField(message: string, row: FieldRow, index: number): FieldSpec {
  const [no, json, type, flags = ''] = row;
  const where = `${message} field ${no}`;
  if (!/^[oprmi]*$/.test(flags)) throw new Error(`${where}: unknown flags "${flags}"`);
  const has = (f: string): boolean => flags.includes(f);
  const typed = fieldKind(type);
  const kind = typed.kind;
  if (has('r') && has('m')) throw new Error(`${where}: a field is a slice or a map, not both`);
  if (has('i') && (kind !== 'message' || json !== '' || has('r') || has('m') || has('p'))) {
    throw new Error(`${where}: only a plain embedded message can be inline`);
  }
  if (!has('i') && json === '') throw new Error(`${where}: no JSON name`);
  // Packed fixed64 lists and double map values occur in no Kubernetes type; the reader has none.
  if (type === 'double' && (has('r') || has('m'))) throw new Error(`${where}: a double list`);
  return {
    index,
    no,
    json,
    ...typed,
    omitempty: has('o'),
    pointer: has('p'),
    repeated: has('r'),
    map: has('m'),
    inline: has('i'),
  };
}

function compileMessage(name: MessageName, rows: readonly FieldRow[]): MessageSpec {
  const fields = rows.map((row, index) => compileField(name, row, index));
  const byNumber = new Map<number, FieldSpec>();
  const names = new Set<string>();
  for (const f of fields) {
    if (byNumber.has(f.no)) throw new Error(`${name}: field number ${f.no} twice`);
    byNumber.set(f.no, f);
    if (f.json !== '' && names.has(f.json)) throw new Error(`${name}: JSON name ${f.json} twice`);
    names.add(f.json);
  }
  return { name, fields, byNumber };
}

/**
 * Compiles tables into one registry, checking that rows are well-formed, numbers and JSON
 * names are unique per message, and every referenced message has a table.
 * Throws a plain `Error` (a bug in the tables, not in a request).
 */
export function compileTables(
  ...tables: readonly MessageTables[]
): ReadonlyMap<MessageName, MessageSpec> {
  const registry = new Map<MessageName, MessageSpec>();
  for (const table of tables) {
    for (const [name, rows] of Object.entries(table)) {
      if (!isMessageName(name)) throw new Error(`${name}: not a message name (group.Name)`);
      if (registry.has(name)) throw new Error(`${name}: defined twice`);
      registry.set(name, compileMessage(name, rows));
    }
  }
  for (const message of registry.values()) {
    for (const f of message.fields) {
      if (f.kind === 'message' && !registry.has(f.type)) {
        throw new Error(`${message.name} field ${f.no}: no table for ${f.type}`);
      }
    }
  }
  return registry;
}
