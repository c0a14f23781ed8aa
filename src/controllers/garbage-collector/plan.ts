/**
 * What the garbage collector does about one item, as data (upstream `attemptToDeleteItem`,
 * `processDeletingDependentsItem`, `attemptToOrphanWorker`). Nothing here reads or writes the
 * API; the applier runs the actions **in order and stops at the first failure** (then requeues
 * the item), which is what keeps an owner's `orphan` finalizer in place when orphaning one of
 * its dependents fails (upstream `TestOrphanDependentsFailure`).
 *
 * An empty plan means "nothing to do, forget the item". Termination: a plan looks at the item
 * and, for a foreground owner, one level of its dependents, never further, so any graph
 * (including ownership cycles) is planned in bounded work; cycles are broken on the API side by
 * unblocking refs before a recursive foreground delete, as upstream does.
 *
 * @module
 */
import type { OwnerReference } from '../../api/object.js';
import { classifyReferences, type OwnerLookup } from './classify.js';
import { type GraphNode, isDeletingDependents, isOrphaning, type OwnerGraph } from './graph.js';
import {
  FOREGROUND_FINALIZER,
  isBlocking,
  type ObjectIdentity,
  ORPHAN_FINALIZER,
} from './identity.js';

export type GcPropagation = 'Background' | 'Foreground' | 'Orphan';

/**
 * - `owner-lookup-unavailable`: an owner could not be read; retry with backoff.
 * - `namespaced-owner-of-cluster-scoped`: the item is never collected; do not retry (upstream
 *   forgets it and the graph builder emits an `OwnerRefInvalidNamespace` event).
 * - `blocking-dependents`: a foreground owner waits for `on`; graph events requeue it.
 */
export type WaitReason =
  | 'owner-lookup-unavailable'
  | 'namespaced-owner-of-cluster-scoped'
  | 'blocking-dependents';

export type GcAction =
  /**
   * DELETE with preconditions. On a 409 with a resourceVersion precondition, upstream re-reads
   * the object and retries with the UID precondition alone if its ownerReferences are unchanged.
   */
  | {
      readonly kind: 'delete';
      readonly target: ObjectIdentity;
      readonly propagation: GcPropagation;
      readonly preconditionUid: string;
      readonly preconditionResourceVersion?: string;
    }
  /** Remove the ownerReferences with these UIDs (see `deleteOwnerRefsPatch`). */
  | { readonly kind: 'patchOwnerRefs'; readonly target: ObjectIdentity; readonly remove: string[] }
  /** Set `blockOwnerDeletion: false` on these refs (cycle breaking, see `unblockOwnerRefsPatch`). */
  | { readonly kind: 'unblockOwnerRefs'; readonly target: ObjectIdentity; readonly uids: string[] }
  | {
      readonly kind: 'removeFinalizer';
      readonly target: ObjectIdentity;
      readonly finalizer: string;
    }
  /** Remove `owner.uid` from each dependent's ownerReferences; a 404 on one counts as done. */
  | {
      readonly kind: 'orphanDependents';
      readonly owner: ObjectIdentity;
      readonly dependents: ObjectIdentity[];
    }
  | {
      readonly kind: 'wait';
      readonly target: ObjectIdentity;
      readonly reason: WaitReason;
      readonly retry: boolean;
      readonly on?: string[];
    };

/**
 * The actions for item `uid`. The graph node must reflect the latest read of the item (the
 * wiring upserts a fresh GET first, as upstream re-reads `latest`); `lookupOwner` answers
 * from live reads of the item's owners.
 */
export function planForObject(
  uid: string,
  graph: OwnerGraph,
  lookupOwner: OwnerLookup,
): GcAction[] {
  const node = graph.get(uid);
  // Virtual nodes need no plan: their dependents' lookups decide whether they exist.
  if (node === undefined || !node.observed) return [];
  if (isOrphaning(node)) return planOrphan(node, graph);
  if (isDeletingDependents(node)) return planDeletingDependents(node, graph, lookupOwner);
  // Being deleted is a one-way trip; the object's own finalizers finish it.
  if (node.beingDeleted) return [];
  return planDependent(node, graph, lookupOwner);
}

/** Upstream `attemptToOrphanWorker`: detach every dependent, then let the owner go. */
function planOrphan(owner: GraphNode, graph: OwnerGraph): GcAction[] {
  const dependents = graph.dependentsOf(owner.identity.uid).map((d) => d.identity);
  const removeFinalizer: GcAction = {
    kind: 'removeFinalizer',
    target: owner.identity,
    finalizer: ORPHAN_FINALIZER,
  };
  if (dependents.length === 0) return [removeFinalizer];
  return [{ kind: 'orphanDependents', owner: owner.identity, dependents }, removeFinalizer];
}

/** Upstream `processDeletingDependentsItem`, with the blocking dependents' plans inlined. */
function planDeletingDependents(
  owner: GraphNode,
  graph: OwnerGraph,
  lookupOwner: OwnerLookup,
): GcAction[] {
  const blocking = blockingDependents(owner, graph);
  if (blocking.length === 0) {
    return [{ kind: 'removeFinalizer', target: owner.identity, finalizer: FOREGROUND_FINALIZER }];
  }
  const actions: GcAction[] = [];
  const ownBlocking = uniqueUids(owner.owners.filter(isBlocking));
  if (ownBlocking.length > 0 && inForegroundCycle(owner, graph)) {
    // Every member of a cycle already in foreground deletion waits on the next one, and none is
    // ever planned as a dependent again; upstream stays stuck here. Stop blocking our owners.
    actions.push({ kind: 'unblockOwnerRefs', target: owner.identity, uids: ownBlocking });
  }
  for (const dep of blocking) {
    // Dependents already being deleted are finished by their own finalizers.
    if (!dep.beingDeleted) actions.push(...planDependent(dep, graph, lookupOwner));
  }
  const on = blocking.map((d) => d.identity.uid);
  actions.push({
    kind: 'wait',
    target: owner.identity,
    reason: 'blocking-dependents',
    retry: false,
    on,
  });
  return actions;
}

/** Dependents whose ref to `owner` has `blockOwnerDeletion: true` (including deleting ones). */
export function blockingDependents(owner: GraphNode, graph: OwnerGraph): GraphNode[] {
  const uid = owner.identity.uid;
  return graph
    .dependentsOf(uid)
    .filter((d) => d.observed && d.owners.some((r) => r.uid === uid && isBlocking(r)));
}

/**
 * Whether `owner` reaches itself through blocking edges whose dependents are all deleting in
 * foreground (a wait-for cycle). Visits each node once, so it terminates on any graph.
 */
export function inForegroundCycle(owner: GraphNode, graph: OwnerGraph): boolean {
  const start = owner.identity.uid;
  const seen = new Set<string>();
  const stack = [owner];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    for (const dep of blockingDependents(node, graph)) {
      if (!isDeletingDependents(dep)) continue;
      if (dep.identity.uid === start) return true;
      if (seen.has(dep.identity.uid)) continue;
      seen.add(dep.identity.uid);
      stack.push(dep);
    }
  }
  return false;
}

/** Upstream `attemptToDeleteItem` for an item that is not being deleted. */
function planDependent(item: GraphNode, graph: OwnerGraph, lookupOwner: OwnerLookup): GcAction[] {
  if (item.owners.length === 0) return [];
  const target = item.identity;
  const refs = classifyReferences(item.owners, target.namespace, lookupOwner);
  if (!refs.ok) {
    return refs.status === 'unavailable'
      ? [
          {
            kind: 'wait',
            target,
            reason: 'owner-lookup-unavailable',
            retry: true,
            on: [refs.ref.uid],
          },
        ]
      : [{ kind: 'wait', target, reason: 'namespaced-owner-of-cluster-scoped', retry: false }];
  }
  const { solid, dangling, waitingForDependentsDeletion: waiting } = refs;
  if (solid.length > 0) {
    // Waiting refs go too, or those owners would wait on this dependent forever.
    const remove = uniqueUids([...dangling, ...waiting]);
    return remove.length === 0 ? [] : [{ kind: 'patchOwnerRefs', target, remove }];
  }
  const dependents = graph.dependentsOf(target.uid);
  if (waiting.length > 0 && dependents.length > 0) {
    // Recursive foreground. If a dependent is itself deleting in foreground we may sit in a
    // cycle: stop blocking our owners first (upstream's check has false positives; so does this).
    const actions: GcAction[] = [];
    const blockingUids = uniqueUids(item.owners.filter(isBlocking));
    if (dependents.some(isDeletingDependents) && blockingUids.length > 0) {
      actions.push({ kind: 'unblockOwnerRefs', target, uids: blockingUids });
    }
    actions.push(deleteAction(item, 'Foreground'));
    return actions;
  }
  return [deleteAction(item, propagationFromFinalizers(item))];
}

/** An existing GC finalizer on the item is honoured; otherwise Background. */
function propagationFromFinalizers(item: GraphNode): GcPropagation {
  if (item.finalizers.includes(ORPHAN_FINALIZER)) return 'Orphan';
  if (item.finalizers.includes(FOREGROUND_FINALIZER)) return 'Foreground';
  return 'Background';
}

function deleteAction(item: GraphNode, propagation: GcPropagation): GcAction {
  const action: GcAction = {
    kind: 'delete',
    target: item.identity,
    propagation,
    preconditionUid: item.identity.uid,
  };
  return item.resourceVersion === undefined
    ? action
    : { ...action, preconditionResourceVersion: item.resourceVersion };
}

function uniqueUids(refs: readonly OwnerReference[]): string[] {
  return [...new Set(refs.map((r) => r.uid))];
}
