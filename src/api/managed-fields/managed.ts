/**
 * `metadata.managedFields` decoded into one entry per manager identity and encoded back, as
 * upstream's `DecodeManagedFields`/`encodeManagedFields`. An identity is the entry minus its
 * fields and time, and minus the apiVersion for appliers, so an applier keeps one entry across
 * versions while an updater gets one per apiVersion (and per subresource). Entries are written
 * sorted: `Apply` before `Update`, then oldest first, then by manager, apiVersion, subresource.
 *
 * @module
 */
import { errorMessage } from '../error-message.js';
import type { ManagedFieldsEntry } from '../object.js';
import { FieldSet } from './field-set.js';
import { compareStrings, goJsonString } from './go-json.js';

export type Operation = 'Apply' | 'Update';

export interface ManagerEntry {
  readonly manager: string;
  readonly operation: Operation;
  readonly apiVersion: string;
  readonly subresource: string;
  readonly set: FieldSet;
  /** RFC 3339, second precision; absent when upstream would leave it unset. */
  readonly time?: string | undefined;
}

/**
 * An entry of `fields` with `set` and `time`. A literal rather than `{ ...fields, set }`: V8
 * (Node 20) takes a slow path, about 0.5–2 µs, when a spread is followed by a key the source
 * lacks, and a write builds several entries.
 */
export function entryOf(
  fields: Pick<ManagerEntry, 'manager' | 'operation' | 'apiVersion' | 'subresource'>,
  set: FieldSet,
  time: string | undefined,
): ManagerEntry {
  return {
    manager: fields.manager,
    operation: fields.operation,
    apiVersion: fields.apiVersion,
    subresource: fields.subresource,
    set,
    time,
  };
}

/** Entries by identity ({@link managerIdentity}). */
export type Managers = Map<string, ManagerEntry>;

/**
 * Upstream `BuildManagerIdentifier`: the entry's JSON without fieldsType, fieldsV1 and time
 * (and without apiVersion for `Apply`), fields in Go struct order.
 */
export function managerIdentity(
  e: Pick<ManagerEntry, 'manager' | 'operation' | 'apiVersion' | 'subresource'>,
): string {
  const parts: string[] = [];
  if (e.manager !== '') parts.push(`"manager":${goJsonString(e.manager)}`);
  parts.push(`"operation":${goJsonString(e.operation)}`);
  if (e.operation === 'Update' && e.apiVersion !== '')
    parts.push(`"apiVersion":${goJsonString(e.apiVersion)}`);
  if (e.subresource !== '') parts.push(`"subresource":${goJsonString(e.subresource)}`);
  return `{${parts.join(',')}}`;
}

export function withEntry(managers: Managers, e: ManagerEntry): Managers {
  const out = new Map(managers);
  out.set(managerIdentity(e), e);
  return out;
}

/**
 * Recent conversions: a write converts its own time and every stored entry's, the same few
 * values request after request. Bounded, because times keep coming.
 */
const rfc3339Cache = new Map<string, string>();
const RFC3339_CACHE_LIMIT = 256;

/** RFC 3339 in UTC with second precision, as `metav1.Time` serializes. */
export function toRfc3339Seconds(time: string): string {
  const hit = rfc3339Cache.get(time);
  if (hit !== undefined) return hit;
  const d = new Date(time);
  const out = Number.isNaN(d.getTime()) ? time : `${d.toISOString().slice(0, 19)}Z`;
  if (rfc3339Cache.size >= RFC3339_CACHE_LIMIT) rfc3339Cache.clear();
  rfc3339Cache.set(time, out);
  return out;
}

const unixCache = new Map<string, number>();

function unixSeconds(time: string | undefined): number {
  if (time === undefined) return 0;
  let s = unixCache.get(time);
  if (s === undefined) {
    const ms = new Date(time).getTime();
    s = Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
    if (unixCache.size >= RFC3339_CACHE_LIMIT) unixCache.clear();
    unixCache.set(time, s);
  }
  return s;
}

/** Decodes managedFields; throws with upstream's message when an entry is invalid. */
export function decodeManagedFields(
  entries: readonly ManagedFieldsEntry[] | null | undefined,
): Managers {
  const out: Managers = new Map();
  (entries ?? []).forEach((e, i) => {
    const entry = decodeEntry(e, i);
    out.set(managerIdentity(entry), entry);
  });
  return out;
}

function decodeEntry(e: ManagedFieldsEntry, i: number): ManagerEntry {
  if (e === null || typeof e !== 'object') throw new Error(`invalid managed fields entry ${i}`);
  if (e.operation !== 'Apply' && e.operation !== 'Update') {
    throw new Error('operation must be `Apply` or `Update`');
  }
  if (typeof e.apiVersion !== 'string' || e.apiVersion.length < 1) {
    throw new Error('apiVersion must not be empty');
  }
  if (e.fieldsType === undefined || e.fieldsType === '') {
    throw new Error(`missing fieldsType in managed fields entry ${i}`);
  }
  if (e.fieldsType !== 'FieldsV1') {
    throw new Error(
      `invalid fieldsType ${goJsonString(String(e.fieldsType))} in managed fields entry ${i}`,
    );
  }
  let set: FieldSet;
  try {
    set = FieldSet.fromFieldsV1(e.fieldsV1);
  } catch (err) {
    throw new Error(
      `error decoding versioned set from entry ${i}: error decoding set: ${errorMessage(err)}`,
    );
  }
  return {
    manager: typeof e.manager === 'string' ? e.manager : '',
    operation: e.operation,
    apiVersion: e.apiVersion,
    subresource: typeof e.subresource === 'string' ? e.subresource : '',
    set,
    time: typeof e.time === 'string' ? toRfc3339Seconds(e.time) : undefined,
  };
}

/** Upstream `isResetManagedFields`: `[]`, or a single empty entry, asks to clear tracking. */
export function isResetManagedFields(
  entries: readonly ManagedFieldsEntry[] | null | undefined,
): boolean {
  if (!Array.isArray(entries)) return false;
  if (entries.length === 0) return true;
  const only = entries[0];
  return (
    entries.length === 1 &&
    typeof only === 'object' &&
    only !== null &&
    Object.keys(only).length === 0
  );
}

/**
 * The wire entries, sorted as upstream; `undefined` when nothing is tracked (the field is
 * omitted). An entry whose set a write left alone shares the `fieldsV1` object it was decoded
 * from (as the rest of a written object shares the request's values): callers must not mutate
 * either.
 */
export function encodeManagedFields(managers: Managers): ManagedFieldsEntry[] | undefined {
  if (managers.size === 0) return undefined;
  const entries = [...managers.values()].sort(compareEntries);
  return entries.map((e) => {
    const out: ManagedFieldsEntry = {};
    if (e.manager !== '') out.manager = e.manager;
    out.operation = e.operation;
    out.apiVersion = e.apiVersion;
    if (e.time !== undefined) out.time = e.time;
    out.fieldsType = 'FieldsV1';
    out.fieldsV1 = e.set.encodeFieldsV1();
    if (e.subresource !== '') out.subresource = e.subresource;
    return out;
  });
}

function compareEntries(p: ManagerEntry, q: ManagerEntry): number {
  return (
    compareStrings(p.operation, q.operation) ||
    Math.sign(unixSeconds(p.time) - unixSeconds(q.time)) ||
    compareStrings(p.manager, q.manager) ||
    compareStrings(p.apiVersion, q.apiVersion) ||
    compareStrings(p.subresource, q.subresource)
  );
}

/** Number of `Update` entries kept (upstream `DefaultMaxUpdateManagers`). */
export const MAX_UPDATE_MANAGERS = 10;

/** The manager the oldest updates are merged into (upstream `oldUpdatesManagerName`). */
export const ANCIENT_CHANGES_MANAGER = 'ancient-changes';

/**
 * Upstream `capUpdateManagers`: while there are more than 10 `Update` entries, the oldest ones
 * are merged, per apiVersion, into an `ancient-changes` entry carrying the newest merged time.
 */
export function capUpdateManagers(managers: Managers, max = MAX_UPDATE_MANAGERS): Managers {
  const updaters = [...managers.entries()]
    .filter(([, e]) => e.operation === 'Update')
    .map(([id]) => id);
  if (updaters.length <= max) return managers;
  const out = new Map(managers);
  updaters.sort(
    (a, b) =>
      Math.sign(unixSeconds(out.get(a)?.time) - unixSeconds(out.get(b)?.time)) ||
      compareStrings(a, b),
  );
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (const id of updaters) {
    if (length <= max) break;
    const e = out.get(id);
    if (!e) continue;
    const first = firstOfVersion.get(e.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(e.apiVersion, id);
      continue;
    }
    const bucketFields = {
      manager: ANCIENT_CHANGES_MANAGER,
      operation: 'Update',
      apiVersion: e.apiVersion,
      subresource: '',
    } as const;
    const bucketId = managerIdentity(bucketFields);
    let bucket = out.get(bucketId);
    if (!bucket) {
      const firstEntry = out.get(first);
      out.delete(first);
      bucket = { ...bucketFields, set: firstEntry?.set ?? FieldSet.EMPTY, time: firstEntry?.time };
    }
    out.set(bucketId, { ...bucketFields, set: e.set.union(bucket.set), time: e.time });
    out.delete(id);
    length--;
  }
  return out;
}
