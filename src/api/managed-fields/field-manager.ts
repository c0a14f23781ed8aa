/**
 * The managedFields bookkeeping of every write, as upstream's default field manager chain
 * (`fieldmanager.go` and the managers it wraps): {@link recordUpdate} for create, update,
 * patch and subresource writes (operation `Update`) and {@link applyPatch} for server-side
 * apply (operation `Apply`). Pure: the caller passes the time and the schema.
 *
 * @module
 */
import { errorMessage } from '../error-message.js';
import { badRequest, StatusError } from '../errors.js';
import { isKubeObject } from '../is-kube-object.js';
import { deepCopy, type KubeObject, type ManagedFieldsEntry, type ObjectMeta } from '../object.js';
import type { SchemaNavigator } from '../schema/navigator.js';
import type { Schema } from '../schema/types.js';
import { ApplyConflicts, conflictError } from './conflicts.js';
import { FieldSet } from './field-set.js';
import {
  allowedConflictsFromLastApplied,
  buildLastApplied,
  hasLastApplied,
  KUBECTL_MANAGER,
  withLastApplied,
} from './last-applied.js';
import {
  capUpdateManagers,
  decodeManagedFields,
  encodeManagedFields,
  entryOf,
  isResetManagedFields,
  type ManagerEntry,
  type Managers,
  managerIdentity,
  toRfc3339Seconds,
} from './managed.js';
import { stripMeta } from './strip-meta.js';
import { TypedValueError, TypeResolver } from './type-resolver.js';
import { applyConfig, type UpdaterContext, updateManagers } from './updater.js';

export interface FieldManagerOptions {
  /** The field manager (from `fieldManager`, else the User-Agent prefix); `''` means `unknown`. */
  readonly manager: string;
  /** The endpoint's group/version, e.g. `apps/v1`. */
  readonly apiVersion: string;
  /** `status`, `scale`…; absent for the main resource. */
  readonly subresource?: string | undefined;
  /** The request time; recorded with second precision. */
  readonly now: string;
  /** The kind's schema (root object) and the navigator that resolves its refs. */
  readonly schema: Schema | undefined;
  readonly nav: SchemaNavigator;
  /** Fields the endpoint's strategy resets (upstream `GetResetFields`), e.g. `status` on the main resource. */
  readonly resetFields?: FieldSet | undefined;
  /**
   * The kind's empty object as upstream's `New()` serializes it (built-ins: the Go zero value,
   * which has `spec: {}` and similar). Used as the "before" of a create. Default `{}`.
   */
  readonly zero?: KubeObject | undefined;
}

export interface ApplyOptions extends FieldManagerOptions {
  readonly force: boolean;
  /** The endpoint's kind; the applied object must name the same group/version/kind. */
  readonly kind?: string | undefined;
}

/** The manager upstream records for pre-existing fields on an object's first apply. */
export const BEFORE_FIRST_APPLY_MANAGER = 'before-first-apply';

/** The placeholder upstream runs an update under before folding it into the real entry. */
const CURRENT_OPERATION = 'current-operation';

function context(opts: FieldManagerOptions): UpdaterContext {
  return {
    r: new TypeResolver(opts.schema, opts.nav),
    ignored: opts.resetFields ?? FieldSet.EMPTY,
  };
}

/**
 * The object without its managedFields: a copy of the root and `metadata` only. Nothing below
 * mutates its inputs (compare and the set algebra only read; merge and removal build new
 * values), so the rest is shared with the caller's object rather than deep-copied.
 */
function withoutManagedFields(obj: KubeObject): KubeObject {
  if (!obj.metadata || !('managedFields' in obj.metadata)) return { ...obj };
  // Rest destructuring rather than `delete`, which turns the copy into a slow dictionary object.
  const { managedFields: _, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

function withManagedFields(obj: KubeObject, entries: ManagedFieldsEntry[] | undefined): KubeObject {
  if (entries) return { ...obj, metadata: withManagedFieldsKey(obj.metadata ?? {}, entries) };
  return withoutManagedFields({ ...obj, metadata: { ...obj.metadata } });
}

/**
 * `{ ...meta, managedFields: entries }`. V8 (Node 20) takes a slow path, about 0.5 µs, for a
 * spread followed by a key the source lacks; `Object.assign` then a store does not. A
 * `__proto__` key would be a prototype to `Object.assign`, so such an object is spread.
 */
function withManagedFieldsKey(meta: ObjectMeta, entries: ManagedFieldsEntry[]): ObjectMeta {
  if (Object.hasOwn(meta, 'managedFields') || Object.hasOwn(meta, '__proto__'))
    return { ...meta, managedFields: entries };
  const out: ObjectMeta = Object.assign({}, meta);
  out.managedFields = entries;
  return out;
}

const NO_OBJECT: KubeObject = Object.freeze({});

/** The "before" of a create; only read, never returned. */
function emptyObject(opts: FieldManagerOptions): KubeObject {
  return opts.zero ?? NO_OBJECT;
}

/**
 * The Update chain below the request decoding: build the identity, run the smd update under a
 * placeholder, strip metadata, fold into the manager's entry (new time only when it took
 * something), then cap the number of updaters.
 */
function runUpdate(
  ctx: UpdaterContext,
  live: KubeObject,
  next: KubeObject,
  managers: Managers,
  manager: string,
  opts: FieldManagerOptions,
): Managers {
  const entry = {
    manager: manager === '' ? 'unknown' : manager,
    operation: 'Update',
    apiVersion: opts.apiVersion,
    subresource: opts.subresource ?? '',
  } as const;
  const id = managerIdentity(entry);
  const out = updateManagers(ctx, live, next, managers, CURRENT_OPERATION, entry);
  const current = out.get(CURRENT_OPERATION);
  out.delete(CURRENT_OPERATION);
  const taken = current ? stripMeta(current.set) : FieldSet.EMPTY;
  if (!taken.isEmpty()) {
    const prev = out.get(id)?.set ?? FieldSet.EMPTY;
    out.set(id, entryOf(entry, taken.union(prev), toRfc3339Seconds(opts.now)));
  }
  return capUpdateManagers(out);
}

function managersOf(live: KubeObject): Managers {
  try {
    return decodeManagedFields(live.metadata?.managedFields);
  } catch {
    return new Map();
  }
}

/** Upstream `decodeLiveOrNew`: which managedFields an update starts from. */
function startingManagers(live: KubeObject, updated: KubeObject, isSubresource: boolean): Managers {
  if (isSubresource) return managersOf(live);
  const given = updated.metadata?.managedFields;
  if (isResetManagedFields(given)) return new Map();
  try {
    const decoded = decodeManagedFields(given);
    return decoded.size > 0 ? decoded : managersOf(live);
  } catch {
    return managersOf(live);
  }
}

/**
 * The managedFields of a non-apply write (create: `old` undefined). The writer takes the fields
 * it changed and other managers lose them. managedFields sent with the object replace the
 * stored ones when valid (that is how kubectl's client-side→server-side migration patch works);
 * `[]` clears tracking; invalid or absent ones keep the stored ones. A subresource write always
 * keeps the stored ones. An existing object without managedFields stays untracked.
 */
export function recordUpdate(
  old: KubeObject | undefined,
  updated: KubeObject,
  opts: FieldManagerOptions,
): KubeObject {
  const live = old ?? emptyObject(opts);
  const managers = startingManagers(live, updated, (opts.subresource ?? '') !== '');
  const next = withoutManagedFields(updated);
  const isCreate = !live.metadata?.uid;
  if (managers.size === 0 && !isCreate) return next;
  try {
    const out = runUpdate(
      context(opts),
      withoutManagedFields(live),
      next,
      managers,
      opts.manager,
      opts,
    );
    return withManagedFields(next, encodeManagedFields(out));
  } catch (e) {
    // Upstream `UpdateNoErrors`: an object the schema cannot type keeps its stored entries.
    if (e instanceof TypedValueError)
      return withManagedFields(next, live.metadata?.managedFields ?? undefined);
    throw e;
  }
}

function parseGroupVersion(apiVersion: unknown): { group: string; version: string } {
  if (typeof apiVersion !== 'string' || apiVersion === '') return { group: '', version: '' };
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return { group: '', version: apiVersion };
  if (apiVersion.includes('/', slash + 1)) return { group: '', version: '' };
  return { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** Upstream `versionCheckManager`: the applied object must be of the endpoint's kind and version. */
function checkAppliedKind(applied: KubeObject, opts: ApplyOptions): void {
  const gv = parseGroupVersion(applied.apiVersion);
  const kind = typeof applied.kind === 'string' ? applied.kind : '';
  const want = parseGroupVersion(opts.apiVersion);
  const sameKind = opts.kind === undefined || opts.kind === kind;
  if (gv.group !== want.group || gv.version !== want.version || !sameKind) {
    throw badRequest(`invalid object type: ${gv.group}/${gv.version}, Kind=${kind}`);
  }
}

function typedError(e: TypedValueError, applied: KubeObject): StatusError {
  const ns = applied.metadata?.namespace ?? '';
  const name = applied.metadata?.name ?? '';
  const gv = parseGroupVersion(applied.apiVersion);
  const msg = `failed to create typed patch object (${ns}/${name}; ${gv.group}/${gv.version}, Kind=${applied.kind ?? ''}): ${e.message}`;
  return new StatusError(500, 'InternalError', msg);
}

interface Applied {
  readonly object: KubeObject;
  readonly managers: Managers;
}

function applyOnce(
  live: KubeObject,
  applied: KubeObject,
  managers: Managers,
  opts: ApplyOptions,
  force: boolean,
): Applied {
  const ctx = context(opts);
  let start = managers;
  if (start.size === 0)
    start = runUpdate(ctx, emptyObject(opts), live, start, BEFORE_FIRST_APPLY_MANAGER, opts);
  const entry = {
    manager: opts.manager,
    operation: 'Apply',
    apiVersion: opts.apiVersion,
    subresource: opts.subresource ?? '',
  } as const;
  const id = managerIdentity(entry);
  const prevTime = start.get(id)?.time;
  const result = applyConfig(ctx, live, applied, start, id, { ...entry, time: prevTime }, force);
  const out = new Map(result.managers);
  const mine = out.get(id);
  const changed = result.object !== undefined;
  if (mine) {
    const set = stripMeta(mine.set);
    if (set.isEmpty()) out.delete(id);
    else
      out.set(id, {
        ...mine,
        set,
        time: changed ? toRfc3339Seconds(opts.now) : prevTime,
      } satisfies ManagerEntry);
  }
  // The merge of two objects is one (`undefined`: applying changed nothing).
  const object = isKubeObject(result.object) ? result.object : deepCopy(live);
  return { object, managers: out };
}

/** Upstream `lastAppliedManager`: kubectl's conflicts with its own client-side apply are forced. */
function applyWithLastApplied(
  live: KubeObject,
  applied: KubeObject,
  managers: Managers,
  opts: ApplyOptions,
): Applied {
  try {
    return applyOnce(live, applied, managers, opts, opts.force);
  } catch (e) {
    if (!(e instanceof ApplyConflicts) || opts.manager !== KUBECTL_MANAGER) throw e;
    const allowed = allowedConflictsFromLastApplied(
      new TypeResolver(opts.schema, opts.nav),
      live,
      opts.apiVersion,
    );
    if (!allowed) throw e;
    const remaining = e.conflicts.filter((c) => !allowed.has(c.path));
    if (remaining.length > 0) throw new ApplyConflicts(remaining, e.managers);
    return applyOnce(live, applied, managers, opts, true);
  }
}

/**
 * Server-side apply of `applied` onto `live` (undefined: create). Returns the merged object with
 * its managedFields, or throws a StatusError: 400 for a wrong kind or an applied
 * `metadata.managedFields`, 409 for conflicts, 500 when the object cannot be typed.
 */
export function applyPatch(
  live: KubeObject | undefined,
  applied: KubeObject,
  opts: ApplyOptions,
): { object: KubeObject } {
  checkAppliedKind(applied, opts);
  const liveObj = live ?? emptyObject(opts);
  let managers: Managers;
  try {
    managers = decodeManagedFields(liveObj.metadata?.managedFields);
  } catch (e) {
    throw new StatusError(
      500,
      'InternalError',
      `failed to decode managed fields: ${errorMessage(e)}`,
    );
  }
  const given = applied.metadata?.managedFields;
  if (given !== undefined && given !== null) throw badRequest('metadata.managedFields must be nil');
  try {
    const result = applyWithLastApplied(withoutManagedFields(liveObj), applied, managers, opts);
    let object = result.object;
    if (opts.manager === KUBECTL_MANAGER && hasLastApplied(object))
      object = withLastApplied(object, buildLastApplied(applied));
    return { object: withManagedFields(object, encodeManagedFields(result.managers)) };
  } catch (e) {
    if (e instanceof ApplyConflicts) throw conflictError(e);
    if (e instanceof TypedValueError) throw typedError(e, applied);
    throw e;
  }
}
