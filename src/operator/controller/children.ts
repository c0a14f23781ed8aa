/**
 * Creating and converging one child the operator owns (a Service, the NetworkPolicy, the PDB,
 * the workload). A child is the fleet's only when it carries this fleet's UID label and its
 * controller reference names the fleet; anything else at the name is refused, never adopted
 * (docs/design/operator.md §7.1), and a child whose immutable fields drifted is reported, never
 * rewritten.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import { isAlreadyExists } from '../../client/api-client.js';
import { objectRef } from '../../client/resource-path.js';
import type { FleetReason } from '../api/types.js';
import { convergeObject, immutableFieldDrift } from '../render/converge.js';
import { LABEL_FLEET_UID } from '../render/metadata.js';
import type { FleetDeps } from './deps.js';
import { type Outcome, outcome } from './outcome.js';
import { CHILD_TYPES } from './resources.js';

/** The child carries this fleet incarnation's label and is controlled by it. */
export function isOurs(obj: KubeObject, fleetUid: string): boolean {
  const meta = obj.metadata ?? {};
  if (meta.labels?.[LABEL_FLEET_UID] !== fleetUid) return false;
  const controller = (meta.ownerReferences ?? []).find((r) => r.controller === true);
  return controller?.uid === fleetUid;
}

function describe(obj: KubeObject): string {
  return `${obj.kind} ${obj.metadata?.namespace}/${obj.metadata?.name}`;
}

/** Why `live` cannot be converged to `desired`, or undefined when it can. */
export function refusal(
  live: KubeObject,
  desired: KubeObject,
  fleetUid: string,
  foreignReason: FleetReason,
): Outcome | undefined {
  if (!isOurs(live, fleetUid)) {
    return outcome.blocked(
      foreignReason,
      `${describe(desired)} exists and is not this fleet's (no ${LABEL_FLEET_UID}=${fleetUid} label and controller reference); no resources adopted: delete or rename it`,
    );
  }
  const drift = immutableFieldDrift(live, desired);
  if (drift.length > 0) {
    return outcome.blocked(
      'InfrastructureBlocked',
      `${describe(desired)} differs in immutable fields (${drift.join(', ')}); delete it and the operator recreates it`,
    );
  }
  return undefined;
}

export type EnsureResult =
  | { readonly kind: 'created' | 'updated' | 'unchanged'; readonly object?: KubeObject }
  | { readonly kind: 'refused'; readonly outcome: Outcome };

/**
 * Creates `desired` when nothing is at its name, converges the operator-owned fields of a
 * child that is ours (the update carries the cached resourceVersion: a stale cache gives a
 * 409 and a retry, never a lost write), refuses anything else.
 */
export async function ensureChild(
  deps: FleetDeps,
  desired: KubeObject,
  live: KubeObject | undefined,
  fleetUid: string,
  foreignReason: FleetReason = 'InfrastructureBlocked',
): Promise<EnsureResult> {
  const type = CHILD_TYPES[desired.kind ?? ''];
  if (type === undefined) throw new TypeError(`no REST type for kind ${desired.kind}`);
  const ref = objectRef(type, desired);
  if (live === undefined) {
    try {
      const created = await deps.client.create(
        { ...type, namespace: ref.namespace ?? '' },
        desired,
      );
      return { kind: 'created', object: created };
    } catch (err) {
      // The cache has not seen it yet: the watch event brings it and a new reconcile.
      if (isAlreadyExists(err)) return { kind: 'unchanged' };
      throw err;
    }
  }
  const refused = refusal(live, desired, fleetUid, foreignReason);
  if (refused !== undefined) return { kind: 'refused', outcome: refused };
  const next = convergeObject(live, desired);
  if (next === undefined) return { kind: 'unchanged', object: live };
  // Cached list items carry no apiVersion/kind; an update body must.
  const body = { ...next, apiVersion: desired.apiVersion, kind: desired.kind };
  const updated = await deps.client.update(ref, body);
  return { kind: 'updated', object: updated };
}
