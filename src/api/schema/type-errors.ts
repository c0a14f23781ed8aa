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
 * It runs on every write, so the walk allocates nothing until it finds an error.
 *
 * @module
 */
import { parseQuantity, QUANTITY_FORMAT_ERROR } from '../validation/quantity.js';
import type { SchemaNavigator } from './navigator.js';
import { REF_PREFIX, type Schema } from './types.js';

const QUANTITY_REF = `${REF_PREFIX}io.k8s.apimachinery.pkg.api.resource.Quantity`;
const MICRO_TIME_REF = `${REF_PREFIX}io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime`;
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
/** 2⁶³: a double cannot tell 2⁶³−1 from 2⁶³, so only values above it are surely out of range. */
const INT64_LIMIT = 2 ** 63;

/**
 * Go type names that the schema cannot tell: named string and map types (`type Protocol
 * string`), keyed by struct and JSON field. Anything not listed is named from its schema.
 */
const NAMED_FIELD_TYPES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Container: {
    imagePullPolicy: 'v1.PullPolicy',
    terminationMessagePolicy: 'v1.TerminationMessagePolicy',
    restartPolicy: 'v1.ContainerRestartPolicy',
  },
  EphemeralContainer: {
    imagePullPolicy: 'v1.PullPolicy',
    terminationMessagePolicy: 'v1.TerminationMessagePolicy',
    restartPolicy: 'v1.ContainerRestartPolicy',
  },
  ContainerPort: { protocol: 'v1.Protocol' },
  ServicePort: { protocol: 'v1.Protocol' },
  ContainerResizePolicy: {
    resourceName: 'v1.ResourceName',
    restartPolicy: 'v1.ResourceResizeRestartPolicy',
  },
  Capabilities: { add: '[]v1.Capability', drop: '[]v1.Capability' },
  PodSpec: {
    restartPolicy: 'v1.RestartPolicy',
    dnsPolicy: 'v1.DNSPolicy',
    preemptionPolicy: 'v1.PreemptionPolicy',
    overhead: 'v1.ResourceList',
  },
  PodSecurityContext: {
    fsGroupChangePolicy: 'v1.PodFSGroupChangePolicy',
    supplementalGroupsPolicy: 'v1.SupplementalGroupsPolicy',
  },
  SecurityContext: { procMount: 'v1.ProcMountType' },
  SeccompProfile: { type: 'v1.SeccompProfileType' },
  AppArmorProfile: { type: 'v1.AppArmorProfileType' },
  PodOS: { name: 'v1.OSName' },
  ResourceRequirements: { limits: 'v1.ResourceList', requests: 'v1.ResourceList' },
  VolumeResourceRequirements: { limits: 'v1.ResourceList', requests: 'v1.ResourceList' },
  HTTPGetAction: { scheme: 'v1.URIScheme' },
  Toleration: { operator: 'v1.TolerationOperator', effect: 'v1.TaintEffect' },
  Taint: { effect: 'v1.TaintEffect' },
  NodeSelectorRequirement: { operator: 'v1.NodeSelectorOperator' },
  LabelSelectorRequirement: { operator: 'v1.LabelSelectorOperator' },
  TopologySpreadConstraint: {
    whenUnsatisfiable: 'v1.UnsatisfiableConstraintAction',
    nodeAffinityPolicy: 'v1.NodeInclusionPolicy',
    nodeTaintsPolicy: 'v1.NodeInclusionPolicy',
  },
  EmptyDirVolumeSource: { medium: 'v1.StorageMedium' },
  HostPathVolumeSource: { type: 'v1.HostPathType' },
  PersistentVolumeClaimSpec: {
    accessModes: '[]v1.PersistentVolumeAccessMode',
    volumeMode: 'v1.PersistentVolumeMode',
  },
  VolumeMount: {
    mountPropagation: 'v1.MountPropagationMode',
    recursiveReadOnly: 'v1.RecursiveReadOnlyMode',
  },
  ServiceSpec: {
    type: 'v1.ServiceType',
    sessionAffinity: 'v1.ServiceAffinity',
    externalTrafficPolicy: 'v1.ServiceExternalTrafficPolicy',
    internalTrafficPolicy: 'v1.ServiceInternalTrafficPolicy',
    ipFamilies: '[]v1.IPFamily',
    ipFamilyPolicy: 'v1.IPFamilyPolicy',
  },
  Secret: { type: 'v1.SecretType' },
  PodStatus: { phase: 'v1.PodPhase', qosClass: 'v1.PodQOSClass' },
  PodCondition: { type: 'v1.PodConditionType', status: 'v1.ConditionStatus' },
  NamespaceSpec: { finalizers: '[]v1.FinalizerName' },
  ObjectMeta: { uid: 'types.UID' },
  OwnerReference: { uid: 'types.UID' },
  ManagedFieldsEntry: { operation: 'v1.ManagedFieldsOperationType' },
  DeploymentStrategy: { type: 'v1.DeploymentStrategyType' },
  DeploymentCondition: { type: 'v1.DeploymentConditionType', status: 'v1.ConditionStatus' },
  StatefulSetSpec: { podManagementPolicy: 'v1.PodManagementPolicyType' },
  StatefulSetUpdateStrategy: { type: 'v1.StatefulSetUpdateStrategyType' },
  DaemonSetUpdateStrategy: { type: 'v1.DaemonSetUpdateStrategyType' },
  CronJobSpec: { concurrencyPolicy: 'v1.ConcurrencyPolicy' },
};

/** Go's decoder context: the field stack (JSON names, no indices) and each field's struct. */
interface WalkState {
  nav: SchemaNavigator;
  root: Schema | undefined;
  readonly fields: string[];
  readonly owners: (string | undefined)[];
  saved: string | undefined;
  hard: string | undefined;
}

/** Reused across calls (the walk is synchronous) so a clean walk allocates nothing. */
const state: WalkState = {
  nav: undefined as unknown as SchemaNavigator,
  root: undefined,
  fields: [],
  owners: [],
  saved: undefined,
  hard: undefined,
};

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
  if (typeof value !== 'number') {
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
    if (at >= 0 && st.saved === undefined) st.saved = `illegal base64 data at input byte ${at}`;
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
  const kind = typeof value === 'number' ? `number ${value}` : jsonKind(value);
  st.hard = `json: cannot unmarshal ${kind} into Go value of type int32`;
  return true;
}

/** `resource.Quantity.UnmarshalJSON`: the raw JSON text, unquoted and trimmed, parsed. */
function checkQuantity(st: WalkState, value: unknown): boolean {
  let error: string | undefined;
  if (typeof value === 'string') {
    const r = parseQuantity(value.trim());
    if (!r.ok) error = r.error;
  } else if (typeof value === 'number' || typeof value === 'boolean') {
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
      : `json: cannot unmarshal ${jsonKind(value)} into Go value of type string`;
  if (error === undefined) return false;
  st.hard = error;
  return true;
}

/** Go's names for JSON value kinds in `UnmarshalTypeError`. */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
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
    st.saved = `json: cannot unmarshal ${kind} into Go value of type ${goType}`;
    return;
  }
  const owner = st.owners[depth - 1];
  const struct = owner === undefined ? rootStructName(st) : shortName(owner);
  const field = st.fields.join('.');
  st.saved = `json: cannot unmarshal ${kind} into Go struct field ${struct}.${field} of type ${goType}`;
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

// ---- Go's `encoding/base64` StdEncoding and `time.Parse` error texts ----

function isBase64Char(c: number): boolean {
  return (
    (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47
  );
}

function isNewline(src: string, i: number): boolean {
  const c = src.charCodeAt(i);
  return c === 10 || c === 13;
}

/**
 * Where Go's `base64.StdEncoding.Decode` reports `illegal base64 data at input byte N`, or -1.
 * Padding is required, `\r` and `\n` are skipped. Indices count bytes; every byte before the
 * first bad one is ASCII, so string indices are byte indices.
 */
export function base64ErrorIndex(src: string): number {
  let si = 0;
  while (si < src.length) {
    const next = base64Quantum(src, si);
    if (next < 0) return -next - 1;
    if (next === src.length + 1) return -1;
    si = next;
  }
  return -1;
}

/**
 * Go's `decodeQuantum`: reads up to four characters from `si`. Returns where the next quantum
 * starts, `length + 1` after valid padding (the end), or `-(index + 1)` of the error.
 */
function base64Quantum(src: string, start: number): number {
  const n = src.length;
  let si = start;
  for (let j = 0; j < 4; j++) {
    if (si === n) return j === 0 ? n : -(si - j) - 1;
    const c = src.charCodeAt(si++);
    if (isBase64Char(c)) continue;
    if (c === 10 || c === 13) {
      j--;
      continue;
    }
    if (c !== 61 || j < 2) return -si;
    return base64Padding(src, si, j);
  }
  return si;
}

/** After the first `=` at quantum position `j` (2 or 3): `xx==` or `xxx=`, then only newlines. */
function base64Padding(src: string, start: number, j: number): number {
  const n = src.length;
  let si = start;
  if (j === 2) {
    while (si < n && isNewline(src, si)) si++;
    if (si === n) return -n - 1;
    if (src.charCodeAt(si) !== 61) return -si;
    si++;
  }
  while (si < n && isNewline(src, si)) si++;
  return si < n ? -si - 1 : n + 1;
}

const RFC3339 = '2006-01-02T15:04:05Z07:00';
const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

/** Go's `time` quoting in parse errors: `"…"`, bytes outside printable ASCII as `\xNN`. */
function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (c < 0x20 || c >= 0x80) {
      for (const b of Buffer.from(ch, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
    } else {
      out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
    }
  }
  return `${out}"`;
}

function digitAt(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

/**
 * Go's `getnum`: one or two digits (`fixed`: exactly two). Returns the number plus 100 when
 * two digits were read (so no object is allocated), or -1 when it fails.
 */
function twoDigits(s: string, i: number, fixed: boolean): number {
  const a = digitAt(s, i);
  if (a < 0) return -1;
  const b = digitAt(s, i + 1);
  if (b < 0) return fixed ? -1 : a;
  return 100 + a * 10 + b;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The layout's numeric elements after the year: separator, element, fixed width, limit, unit. */
const TIME_FIELDS: readonly (readonly [string, string, boolean, number, string])[] = [
  ['-', '01', true, 13, 'month'],
  ['-', '02', true, 100, 'day'], // any two digits here; the date is checked at the end
  ['T', '15', false, 24, 'hour'],
  [':', '04', true, 60, 'minute'],
  [':', '05', true, 60, 'second'],
];

function cannotParse(value: string, layout: string, at: number, elem: string): string {
  return `parsing time ${goQuote(value)} as ${goQuote(layout)}: cannot parse ${goQuote(value.slice(at))} as ${goQuote(elem)}`;
}

function outOfRange(value: string, what: string): string {
  return `parsing time ${goQuote(value)}: ${what} out of range`;
}

/**
 * Month to seconds after the year. The end index, month and day packed into one number
 * (`day·10⁵ + month·10³ + end`, so nothing is allocated), or the error.
 */
function timeFields(value: string, layout: string): number | string {
  let i = 4;
  let month = 1;
  let day = 1;
  for (const [sep, elem, fixed, limit, unit] of TIME_FIELDS) {
    if (value[i] !== sep) return cannotParse(value, layout, i, sep);
    i++;
    const d = twoDigits(value, i, fixed);
    if (d < 0) return cannotParse(value, layout, i, elem);
    const n = d % 100;
    i += d >= 100 ? 2 : 1;
    if (n >= limit || (unit === 'month' && n === 0)) return outOfRange(value, unit);
    if (unit === 'month') month = n;
    else if (unit === 'day') day = n;
  }
  return day * 100_000 + month * 1000 + i;
}

/**
 * The error of Go's `time.Parse(time.RFC3339, value)` (or `RFC3339Micro` for `MicroTime`),
 * or `undefined` when it parses. Follows the general parser (the one that reports errors):
 * `cannot parse "<rest>" as "<layout element>"`, `<unit> out of range`, `extra text`.
 */
export function timeParseError(value: string, micro: boolean): string | undefined {
  const layout = micro ? RFC3339_MICRO : RFC3339;
  for (let k = 0; k < 4; k++)
    if (digitAt(value, k) < 0) return cannotParse(value, layout, 0, '2006');
  const year = Number(value.slice(0, 4));
  const fields = timeFields(value, layout);
  if (typeof fields === 'string') return fields;
  const i = fields % 1000;
  const month = Math.floor(fields / 1000) % 100;
  const day = Math.floor(fields / 100_000);
  const afterSeconds = micro ? microFraction(value, layout, i) : optionalFraction(value, i);
  if (typeof afterSeconds === 'string') return afterSeconds;
  const end = zoneEnd(value, layout, afterSeconds);
  if (typeof end === 'string') return end;
  if (end < value.length) {
    return `parsing time ${goQuote(value)}: extra text: ${goQuote(value.slice(end))}`;
  }
  if (day < 1 || day > daysIn(month, year))
    return `parsing time ${goQuote(value)}: day out of range`;
  return undefined;
}

/** RFC3339 has no fraction, but Go takes one after the seconds anyway (`.5`, `,123`). */
function optionalFraction(value: string, i: number): number {
  if ((value[i] !== '.' && value[i] !== ',') || digitAt(value, i + 1) < 0) return i;
  let j = i + 2;
  while (digitAt(value, j) >= 0) j++;
  return j;
}

/** `.000000`: exactly six digits (Go's `atoi` also takes a sign; negative is out of range). */
function microFraction(value: string, layout: string, i: number): number | string {
  const c = value[i];
  if (value.length - i < 7 || (c !== '.' && c !== ','))
    return cannotParse(value, layout, i, '.000000');
  const signed = value[i + 1] === '-' || value[i + 1] === '+';
  for (let k = i + (signed ? 2 : 1); k < i + 7; k++) {
    if (digitAt(value, k) < 0) return cannotParse(value, layout, i, '.000000');
  }
  if (value[i + 1] === '-') return outOfRange(value, 'fractional second');
  return i + 7;
}

/** `Z07:00`: `Z`, or `±hh:mm`. The end index, or the error. */
function zoneEnd(value: string, layout: string, i: number): number | string {
  if (value[i] === 'Z') return i + 1;
  if (value.length - i < 6 || value[i + 3] !== ':') return cannotParse(value, layout, i, 'Z07:00');
  const hh = twoDigits(value, i + 1, true);
  const mm = hh < 0 ? -1 : twoDigits(value, i + 4, true);
  // Go checks the offset's range before its sign; `>` because offsets of 24h or 60m occur.
  let tooBig: string | undefined;
  if (hh % 100 > 24) tooBig = 'time zone offset hour';
  if (mm % 100 > 60) tooBig = 'time zone offset minute';
  if (tooBig !== undefined) return outOfRange(value, tooBig);
  if (mm < 0 || (value[i] !== '+' && value[i] !== '-'))
    return cannotParse(value, layout, i, 'Z07:00');
  return i + 6;
}
