/**
 * Apply conflicts and the 409 upstream answers with (`NewConflictError`, `NewApplyConflict`):
 *
 *     Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas
 *
 * and, for several, one block per manager (managers sorted, paths in set order):
 *
 *     Apply failed with 2 conflicts: conflicts with "a" using v1:
 *     - .data.x
 *     conflicts with "b":
 *     - .data.y
 *
 * An `Update` manager is named with its apiVersion, a subresource manager with
 * `with subresource "status"`, an `Apply` manager by name alone.
 *
 * @module
 */
import { StatusError } from '../errors.js';
import { compareStrings, goJsonString } from './go-json.js';
import type { Managers } from './managed.js';
import { type FieldPath, pathToString } from './path-element.js';

export interface Conflict {
  /** The conflicting manager's identity. */
  readonly managerId: string;
  readonly path: FieldPath;
}

/** Thrown inside the module; {@link conflictError} turns it into the 409. */
export class ApplyConflicts extends Error {
  readonly conflicts: readonly Conflict[];
  readonly managers: Managers;
  constructor(conflicts: readonly Conflict[], managers: Managers) {
    super(`${conflicts.length} apply conflicts`);
    this.name = 'ApplyConflicts';
    this.conflicts = conflicts;
    this.managers = managers;
  }
}

/** Upstream `printManager`, from the entry an identity names. */
export function printManager(managerId: string, managers: Managers): string {
  const e = managers.get(managerId);
  if (!e) return goJsonString(managerId);
  let s = goJsonString(e.manager);
  if (e.subresource !== '') s = `${s} with subresource ${goJsonString(e.subresource)}`;
  // Identities never carry a time, so upstream's "at <time>" form cannot occur.
  return e.operation === 'Update' ? `${s} using ${e.apiVersion}` : s;
}

function conflictMessage(conflicts: readonly Conflict[], managers: Managers): string {
  const [only] = conflicts;
  if (only && conflicts.length === 1) {
    return `Apply failed with 1 conflict: conflict with ${printManager(only.managerId, managers)}: ${pathToString(only.path)}`;
  }
  const byManager = new Map<string, FieldPath[]>();
  for (const c of conflicts)
    byManager.set(c.managerId, [...(byManager.get(c.managerId) ?? []), c.path]);
  const lines: string[] = [];
  for (const id of [...byManager.keys()].sort(compareStrings)) {
    lines.push(`conflicts with ${printManager(id, managers)}:`);
    for (const p of byManager.get(id) ?? []) lines.push(`- ${pathToString(p)}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** The 409 Conflict Status with one `FieldManagerConflict` cause per conflicting path. */
export function conflictError(err: ApplyConflicts): StatusError {
  const causes = err.conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${printManager(c.managerId, err.managers)}`,
    field: pathToString(c.path),
  }));
  return new StatusError(409, 'Conflict', conflictMessage(err.conflicts, err.managers), { causes });
}
