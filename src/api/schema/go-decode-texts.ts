/**
 * Go's decoding error texts, re-derived for values we keep as JSON: the names
 * `encoding/json` gives JSON value kinds and its `UnmarshalTypeError` text, the index at which
 * `encoding/base64`'s StdEncoding rejects a string (`[]byte` fields), the errors of
 * `time.Parse` with the RFC 3339 layouts (`metav1.Time`, `metav1.MicroTime`), and the Go names of
 * named string and map types, which no schema carries.
 *
 * The schema walk that decides where these apply is `type-errors.ts`. Everything here is pure
 * and allocates nothing when the input decodes; texts are built only for an error.
 *
 * @module
 */

/** Go's names for JSON value kinds in `UnmarshalTypeError` (`bool`, not `boolean`). */
export function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

/** `UnmarshalTypeError.Error()` outside any struct (the root, or an `UnmarshalJSON` method). */
export function goValueTypeError(kind: string, goType: string): string {
  return `json: cannot unmarshal ${kind} into Go value of type ${goType}`;
}

/** `UnmarshalTypeError.Error()` inside a struct: `field` is the JSON field stack joined by `.`. */
export function goFieldTypeError(
  kind: string,
  struct: string,
  field: string,
  goType: string,
): string {
  return `json: cannot unmarshal ${kind} into Go struct field ${struct}.${field} of type ${goType}`;
}

/** `base64.CorruptInputError.Error()`. */
export function base64ErrorText(at: number): string {
  return `illegal base64 data at input byte ${at}`;
}

// ---- Go type names ----

/** `Container` and `EphemeralContainer` share these fields' types. */
const CONTAINER_NAMED_TYPES = {
  imagePullPolicy: 'v1.PullPolicy',
  terminationMessagePolicy: 'v1.TerminationMessagePolicy',
  restartPolicy: 'v1.ContainerRestartPolicy',
};
/** Requests and limits, in pods' and claims' resource requirements alike. */
const RESOURCE_LISTS = { limits: 'v1.ResourceList', requests: 'v1.ResourceList' };

/**
 * Go type names that the schema cannot tell: named string and map types (`type Protocol
 * string`), keyed by struct and JSON field. Anything not listed is named from its schema.
 */
export const NAMED_FIELD_TYPES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Container: CONTAINER_NAMED_TYPES,
  EphemeralContainer: CONTAINER_NAMED_TYPES,
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
  ResourceRequirements: RESOURCE_LISTS,
  VolumeResourceRequirements: RESOURCE_LISTS,
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

// ---- `encoding/base64` StdEncoding ----

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

// ---- `time.Parse` with RFC3339 and RFC3339Micro ----

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
