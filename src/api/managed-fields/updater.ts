/**
 * The ownership algebra of structured-merge-diff's `merge.Updater`, over decoded managers:
 *
 * - {@link updateManagers} (an `Update`): the writer takes every field it added or changed;
 *   every other manager loses those fields and the ones the write removed.
 * - {@link applyConfig} (an `Apply`): the configuration is merged into the live object, the
 *   applier's set becomes exactly the configuration's fields, fields it applied last time and
 *   no longer applies are pruned unless someone else owns them, and another manager's field
 *   that the merge changes is a conflict unless `force` (then that manager loses it). A field
 *   applied with the value it already has is not a change, so ownership is shared.
 *
 * Reset fields (upstream `IgnoredFields`, e.g. `status` on the main resource) are never owned
 * and never conflict.
 *
 * @module
 */
import { deepEqual } from '../object.js';
import { compareObjects } from './compare.js';
import { ApplyConflicts, type Conflict } from './conflicts.js';
import { FieldSet } from './field-set.js';
import { ensureNamedFieldsAreMembers, rawFieldSetOf } from './field-set-of.js';
import { compareStrings } from './go-json.js';
import { entryOf, type ManagerEntry, type Managers } from './managed.js';
import { mergeObjects } from './merge.js';
import { removeItems } from './remove.js';
import type { TypeResolver } from './type-resolver.js';

export interface UpdaterContext {
  readonly r: TypeResolver;
  readonly ignored: FieldSet;
}

interface Changes {
  readonly added: FieldSet;
  readonly modified: FieldSet;
  readonly removed: FieldSet;
}

function changes(ctx: UpdaterContext, oldObj: unknown, newObj: unknown): Changes {
  const c = compareObjects(ctx.r, oldObj, newObj);
  return {
    added: c.added.recursiveDifference(ctx.ignored),
    modified: c.modified.recursiveDifference(ctx.ignored),
    removed: c.removed.recursiveDifference(ctx.ignored),
  };
}

/** Upstream `Updater.update`: strips changed fields from every manager but `workflow`. */
function updateOthers(
  ctx: UpdaterContext,
  oldObj: unknown,
  newObj: unknown,
  managers: Managers,
  workflow: string,
  force: boolean,
): { managers: Managers; changes: Changes } {
  const ch = changes(ctx, oldObj, newObj);
  const touched = ch.modified.union(ch.added);
  const conflicts: Conflict[] = [];
  const conflictSets = new Map<string, FieldSet>();
  for (const id of [...managers.keys()].sort(compareStrings)) {
    const e = managers.get(id);
    if (e === undefined || id === workflow) continue;
    const set = e.set.intersection(touched);
    if (set.isEmpty()) continue;
    conflictSets.set(id, set);
    // Conflict paths are only reported, never used, when forced (every Update is forced).
    if (!force) for (const path of set.paths()) conflicts.push({ managerId: id, path });
  }
  if (!force && conflicts.length > 0) throw new ApplyConflicts(conflicts, managers);
  const out: Managers = new Map();
  for (const [id, e] of managers) {
    let set = e.set;
    if (id !== workflow)
      set = set.difference(conflictSets.get(id) ?? FieldSet.EMPTY).difference(ch.removed);
    if (!set.isEmpty()) out.set(id, { ...e, set });
  }
  return { managers: out, changes: ch };
}

/** Upstream `Updater.Update`: `entry` (keyed `id`) takes what changed between the objects. */
export function updateManagers(
  ctx: UpdaterContext,
  oldObj: unknown,
  newObj: unknown,
  managers: Managers,
  id: string,
  entry: Omit<ManagerEntry, 'set'>,
): Managers {
  const { managers: out, changes: ch } = updateOthers(ctx, oldObj, newObj, managers, id, true);
  const prev = out.get(id)?.set ?? FieldSet.EMPTY;
  const set = prev
    .union(ch.modified)
    .union(ch.added)
    .difference(ch.removed)
    .recursiveDifference(ctx.ignored);
  if (set.isEmpty()) out.delete(id);
  else out.set(id, entryOf(entry, set, entry.time));
  return out;
}

export interface ApplyResult {
  /** The merged object, or `undefined` when applying changed nothing. */
  readonly object: unknown;
  readonly managers: Managers;
}

/** Upstream `Updater.Apply`. Throws {@link ApplyConflicts} unless `force`. */
export function applyConfig(
  ctx: UpdaterContext,
  live: unknown,
  config: unknown,
  managers: Managers,
  id: string,
  entry: Omit<ManagerEntry, 'set'>,
  force: boolean,
): ApplyResult {
  const merged = mergeObjects(ctx.r, live, config);
  const lastSet = managers.get(id)?.set;
  const set = rawFieldSetOf(ctx.r, config, { rejectDuplicates: true }).recursiveDifference(
    ctx.ignored,
  );
  const withApplier = new Map(managers).set(id, entryOf(entry, set, entry.time));
  // Pruning can drop an empty map or list the configuration itself sets (it owns no field
  // inside); merging the configuration again restores exactly those.
  const pruned = mergeObjects(ctx.r, prune(ctx, merged, withApplier, lastSet), config);
  const { managers: out } = updateOthers(ctx, live, pruned, withApplier, id, force);
  return { object: deepEqual(live, pruned) ? undefined : pruned, managers: out };
}

/**
 * Upstream `prune` with `addBackOwnedItems` and `addBackDanglingItems`: removes what the
 * applier owned last time, no longer applies, and nobody (the applier's new set included) owns.
 */
function prune(
  ctx: UpdaterContext,
  merged: unknown,
  managers: Managers,
  lastSet: FieldSet | undefined,
): unknown {
  if (!lastSet || lastSet.isEmpty()) return merged;
  const { r } = ctx;
  const named = (s: FieldSet): FieldSet => ensureNamedFieldsAreMembers(r, s);
  const setOf = (v: unknown): FieldSet => named(rawFieldSetOf(r, v));
  const last = named(lastSet);
  let managed = FieldSet.EMPTY;
  for (const e of managers.values()) managed = managed.union(e.set);
  const mergedSet = setOf(merged);
  const pruned = removeItems(r, merged, last);
  const ownedAddedBack = removeItems(
    r,
    merged,
    mergedSet.difference(setOf(pruned).union(named(managed))),
  );
  return removeItems(r, merged, mergedSet.difference(setOf(ownedAddedBack)).intersection(last));
}
