/**
 * The garbage collector's uid graph (upstream `graph.go` + `graph_builder.go`): every observed
 * object with its ownerReferences, the reverse `dependents` index, and *virtual* nodes for owners
 * that some dependent names but no informer has reported yet.
 *
 * Invariant (checked by the tests): for every observed node N and every ref r in N.owners,
 * `get(r.uid).dependents` contains N.uid; and every dependents entry is backed by such a ref.
 * To keep it, `remove(uid)` leaves a virtual node behind while dependents still reference the
 * removed object (upstream drops the node and lets the dependents' refs dangle), and virtual
 * nodes that lose their last dependent are pruned.
 *
 * `upsert` / `remove` return which items to process next, the pure form of upstream's
 * `attemptToDelete` / `attemptToOrphan` queue adds. The graph never mutates the objects given.
 *
 * @module
 */
import type { KubeObject, OwnerReference } from '../../api/object.js';
import {
  FOREGROUND_FINALIZER,
  identityFromRef,
  identityOf,
  isBlocking,
  type ObjectIdentity,
  ORPHAN_FINALIZER,
  refMatchesIdentity,
  scopeFit,
} from './identity.js';

/** One object (or virtual owner) in the graph. */
export interface GraphNode {
  readonly identity: ObjectIdentity;
  /** False for a virtual node: known only from dependents' ownerReferences. */
  readonly observed: boolean;
  readonly owners: readonly OwnerReference[];
  /** UIDs of observed objects that reference this one. */
  readonly dependents: ReadonlySet<string>;
  /** `metadata.deletionTimestamp` is set. */
  readonly beingDeleted: boolean;
  readonly finalizers: readonly string[];
  readonly resourceVersion: string | undefined;
}

/** Items to hand to the two GC workers after a graph change (UIDs, sorted, no duplicates). */
export interface GraphChanges {
  readonly attemptToDelete: string[];
  readonly attemptToOrphan: string[];
}

interface MutableNode {
  identity: ObjectIdentity;
  observed: boolean;
  owners: OwnerReference[];
  dependents: Set<string>;
  beingDeleted: boolean;
  finalizers: string[];
  resourceVersion: string | undefined;
}

/** Upstream `isDeletingDependents`: foreground deletion in progress. */
export function isDeletingDependents(node: GraphNode): boolean {
  return node.beingDeleted && node.finalizers.includes(FOREGROUND_FINALIZER);
}

/** Deletion with the `orphan` finalizer in progress. */
export function isOrphaning(node: GraphNode): boolean {
  return node.beingDeleted && node.finalizers.includes(ORPHAN_FINALIZER);
}

export class OwnerGraph {
  readonly #nodes = new Map<string, MutableNode>();

  /** Builds a graph from a snapshot of observed objects. */
  static from(objects: Iterable<KubeObject>): OwnerGraph {
    const graph = new OwnerGraph();
    for (const obj of objects) graph.upsert(obj);
    return graph;
  }

  get(uid: string): GraphNode | undefined {
    return this.#nodes.get(uid);
  }

  /** All nodes, sorted by UID so callers iterate deterministically. */
  nodes(): GraphNode[] {
    return [...this.#nodes.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, node]) => node);
  }

  /** The observed dependents of `uid`, sorted by UID. */
  dependentsOf(uid: string): GraphNode[] {
    const node = this.#nodes.get(uid);
    if (node === undefined) return [];
    return [...node.dependents].sort().flatMap((d) => this.#nodes.get(d) ?? []);
  }

  /** Records an add or update event for `obj` (informer or a fresh GET). */
  upsert(obj: KubeObject): GraphChanges {
    const identity = identityOf(obj);
    const meta = obj.metadata ?? {};
    const out = new Changes();
    const existing = this.#nodes.get(identity.uid);
    const before = existing?.observed ? snapshot(existing) : undefined;
    const node = existing ?? newNode(identity);
    if (existing !== undefined && !existing.observed) {
      // A virtual node turns real: dependents that named it differently now dangle.
      for (const dep of this.dependentsOf(identity.uid)) {
        if (!dependentNamesOwner(dep, identity)) out.delete(dep.identity.uid);
      }
    }
    node.identity = identity;
    node.observed = true;
    node.beingDeleted = meta.deletionTimestamp !== undefined && meta.deletionTimestamp !== null;
    node.finalizers = [...(meta.finalizers ?? [])];
    node.resourceVersion = meta.resourceVersion;
    this.#nodes.set(identity.uid, node);
    this.#setOwners(
      node,
      (meta.ownerReferences ?? []).map((r) => ({ ...r })),
      out,
    );
    transitions(before, node, out);
    return out.result();
  }

  /** Records a delete event for `uid`. Unknown or virtual UIDs change nothing. */
  remove(uid: string): GraphChanges {
    const node = this.#nodes.get(uid);
    const out = new Changes();
    if (node === undefined || !node.observed) return out.result();
    for (const ref of node.owners) {
      const owner = this.#nodes.get(ref.uid);
      // An owner waiting in foreground may have lost its last blocking dependent.
      if (owner !== undefined && isDeletingDependents(owner)) out.delete(owner.identity.uid);
    }
    this.#setOwners(node, [], new Changes());
    for (const dep of node.dependents) out.delete(dep);
    if (node.dependents.size > 0) {
      Object.assign(node, { observed: false, beingDeleted: false, finalizers: [] });
      node.resourceVersion = undefined;
    } else {
      this.#nodes.delete(uid);
    }
    return out.result();
  }

  /** Replaces `node.owners`, keeping the dependents index and virtual nodes in step. */
  #setOwners(node: MutableNode, owners: OwnerReference[], out: Changes): void {
    const uid = node.identity.uid;
    const oldByUid = new Map(node.owners.map((r) => [r.uid, r]));
    const newUids = new Set(owners.map((r) => r.uid));
    for (const [ownerUid, old] of oldByUid) {
      if (newUids.has(ownerUid)) continue;
      if (isBlocking(old)) out.delete(ownerUid); // upstream addUnblockedOwnersToDeleteQueue
      this.#unlink(ownerUid, uid);
    }
    for (const ref of owners) {
      const old = oldByUid.get(ref.uid);
      if (old !== undefined) {
        if (isBlocking(old) && !isBlocking(ref)) out.delete(ref.uid);
        continue;
      }
      const owner = this.#link(ref, node);
      if (!owner.observed || owner.beingDeleted || !dependentNamesOwner(node, owner.identity)) {
        // Owner unverified, going away, or named wrongly: let the GC classify this dependent.
        out.delete(uid);
      }
    }
    node.owners = owners;
    for (const ownerUid of oldByUid.keys()) if (!this.#nodes.has(ownerUid)) out.drop(ownerUid);
  }

  #link(ref: OwnerReference, dependent: MutableNode): MutableNode {
    let owner = this.#nodes.get(ref.uid);
    if (owner === undefined) {
      owner = newNode(identityFromRef(ref, dependent.identity.namespace));
      owner.observed = false;
      this.#nodes.set(ref.uid, owner);
    }
    owner.dependents.add(dependent.identity.uid);
    return owner;
  }

  #unlink(ownerUid: string, dependentUid: string): void {
    const owner = this.#nodes.get(ownerUid);
    if (owner === undefined) return;
    owner.dependents.delete(dependentUid);
    if (!owner.observed && owner.dependents.size === 0) this.#nodes.delete(ownerUid);
  }
}

/** Whether every ref of `dep` with the owner's UID names it correctly and legally. */
function dependentNamesOwner(dep: GraphNode, owner: ObjectIdentity): boolean {
  if (scopeFit(owner, dep.identity.namespace) !== 'ok') return false;
  return dep.owners.filter((r) => r.uid === owner.uid).every((r) => refMatchesIdentity(r, owner));
}

/** Upstream `processTransitions`: deletion just started with a GC finalizer. */
function transitions(before: GraphNode | undefined, node: MutableNode, out: Changes): void {
  if (isOrphaning(node) && !(before !== undefined && isOrphaning(before))) {
    out.orphan(node.identity.uid);
    return;
  }
  if (isDeletingDependents(node) && !(before !== undefined && isDeletingDependents(before))) {
    for (const dep of node.dependents) out.delete(dep);
    out.delete(node.identity.uid);
  }
}

function newNode(identity: ObjectIdentity): MutableNode {
  return {
    identity,
    observed: true,
    owners: [],
    dependents: new Set(),
    beingDeleted: false,
    finalizers: [],
    resourceVersion: undefined,
  };
}

function snapshot(node: MutableNode): GraphNode {
  return { ...node, owners: [...node.owners], finalizers: [...node.finalizers] };
}

/** Accumulates queue adds; UIDs whose node vanished are dropped. */
class Changes {
  readonly #del = new Set<string>();
  readonly #orphan = new Set<string>();
  delete(uid: string): void {
    this.#del.add(uid);
  }
  orphan(uid: string): void {
    this.#orphan.add(uid);
  }
  drop(uid: string): void {
    this.#del.delete(uid);
  }
  result(): GraphChanges {
    return { attemptToDelete: [...this.#del].sort(), attemptToOrphan: [...this.#orphan].sort() };
  }
}
