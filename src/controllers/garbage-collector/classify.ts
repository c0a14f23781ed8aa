/**
 * Classifying a dependent's ownerReferences (upstream `classifyReferences` / `isDangling`):
 * - solid: the owner exists and is not waiting for its dependents;
 * - dangling: the owner is absent (404, or the name now belongs to another UID);
 * - waitingForDependentsDeletion: the owner has a deletionTimestamp and `foregroundDeletion`.
 *
 * The answer about each owner comes from an {@link OwnerLookup}: upstream verifies absence with
 * a live GET before anything is deleted, so the wiring answers from a fresh read (resolving the
 * owner's scope through discovery), not from the possibly stale graph. {@link graphOwnerLookup}
 * answers from the graph alone, for tests and for callers whose graph is authoritative.
 *
 * @module
 */
import type { OwnerReference } from '../../api/object.js';
import { type GraphNode, isDeletingDependents, type OwnerGraph } from './graph.js';
import { refMatchesIdentity, scopeFit } from './identity.js';

/**
 * What a live read says about one owner.
 * - `exists`: found with the ref's UID and not deleting in foreground;
 * - `deleting-foreground`: found, with deletionTimestamp and `foregroundDeletion`;
 * - `absent`: 404, or found with another UID;
 * - `invalid-scope`: the owner's kind is namespaced but the dependent is cluster-scoped (upstream
 *   `namespacedOwnerOfClusterScopedObjectErr`; never resolves, so the item is dropped);
 * - `unavailable`: the read failed or the kind is not (yet) known to discovery; retry later.
 */
export type OwnerStatus =
  | 'exists'
  | 'deleting-foreground'
  | 'absent'
  | 'invalid-scope'
  | 'unavailable';

/** Answers for one ref of a dependent living in `dependentNamespace` (`''` = cluster-scoped). */
export type OwnerLookup = (ref: OwnerReference, dependentNamespace: string) => OwnerStatus;

export interface ClassifiedReferences {
  readonly solid: OwnerReference[];
  readonly dangling: OwnerReference[];
  readonly waitingForDependentsDeletion: OwnerReference[];
}

export type Classification =
  | ({ readonly ok: true } & ClassifiedReferences)
  | {
      readonly ok: false;
      readonly status: 'invalid-scope' | 'unavailable';
      readonly ref: OwnerReference;
    };

/** Sorts `refs` into the three classes; the first ref that cannot be classified stops it. */
export function classifyReferences(
  refs: readonly OwnerReference[],
  dependentNamespace: string,
  lookupOwner: OwnerLookup,
): Classification {
  const solid: OwnerReference[] = [];
  const dangling: OwnerReference[] = [];
  const waitingForDependentsDeletion: OwnerReference[] = [];
  for (const ref of refs) {
    const status = lookupOwner(ref, dependentNamespace);
    switch (status) {
      case 'exists':
        solid.push(ref);
        break;
      case 'absent':
        dangling.push(ref);
        break;
      case 'deleting-foreground':
        waitingForDependentsDeletion.push(ref);
        break;
      default:
        return { ok: false, status, ref };
    }
  }
  return { ok: true, solid, dangling, waitingForDependentsDeletion };
}

/**
 * An {@link OwnerLookup} over the graph: an unobserved UID is absent, as is one observed under
 * another kind, name or API group, or in another namespace than the dependent's.
 */
export function graphOwnerLookup(graph: OwnerGraph): OwnerLookup {
  return (ref, dependentNamespace) => ownerStatusOf(graph.get(ref.uid), ref, dependentNamespace);
}

function ownerStatusOf(
  owner: GraphNode | undefined,
  ref: OwnerReference,
  dependentNamespace: string,
): OwnerStatus {
  if (owner === undefined || !owner.observed) return 'absent';
  if (!refMatchesIdentity(ref, owner.identity)) return 'absent';
  const fit = scopeFit(owner.identity, dependentNamespace);
  if (fit === 'namespaced-owner-of-cluster-scoped') return 'invalid-scope';
  if (fit === 'other-namespace') return 'absent';
  return isDeletingDependents(owner) ? 'deleting-foreground' : 'exists';
}
