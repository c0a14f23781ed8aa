/**
 * Test support: object builders and a tiny in-memory "API server" that applies GC actions with
 * the deletion semantics of `apiserver/store/deletion.ts` (propagation → finalizers; an object
 * goes once it is marked and its finalizers are gone). Used to run the planner to a fixpoint.
 *
 * @module
 */
import { deepEqual, type KubeObject, type OwnerReference } from '../../../api/object.js';
import { graphOwnerLookup } from '../classify.js';
import { OwnerGraph } from '../graph.js';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../identity.js';
import { withoutOwnerRefs, withUnblockedOwnerRefs } from '../patches.js';
import { type GcAction, planForObject } from '../plan.js';

export interface ObjSpec {
  uid: string;
  kind?: string;
  apiVersion?: string;
  name?: string;
  namespace?: string;
  owners?: OwnerReference[];
  finalizers?: string[];
  deleting?: boolean;
  resourceVersion?: string;
}

/** An object; name defaults to the UID, kind to Pod, namespace to `ns1`. */
export function obj(spec: ObjSpec): KubeObject {
  return {
    apiVersion: spec.apiVersion ?? 'v1',
    kind: spec.kind ?? 'Pod',
    metadata: {
      uid: spec.uid,
      name: spec.name ?? spec.uid,
      namespace: spec.namespace ?? 'ns1',
      ...(spec.resourceVersion === undefined ? {} : { resourceVersion: spec.resourceVersion }),
      ...(spec.owners === undefined ? {} : { ownerReferences: spec.owners }),
      ...(spec.finalizers === undefined ? {} : { finalizers: spec.finalizers }),
      ...(spec.deleting ? { deletionTimestamp: '2024-06-01T12:00:00Z' } : {}),
    },
  };
}

/** A ref to a Pod-like owner named after its UID. */
export function ref(uid: string, extra: Partial<OwnerReference> = {}): OwnerReference {
  return { apiVersion: 'v1', kind: 'Pod', name: uid, uid, ...extra };
}

export type DeleteRecord = { uid: string; solidOwnerAtDelete: boolean };

/** Objects keyed by UID, with a graph kept in step; `fail` makes matching actions fail. */
export class World {
  readonly objects = new Map<string, KubeObject>();
  readonly graph = new OwnerGraph();
  readonly deletes: DeleteRecord[] = [];
  fail: (a: GcAction) => boolean = () => false;

  constructor(objects: KubeObject[]) {
    for (const o of objects) this.put(o);
  }

  put(o: KubeObject): void {
    this.objects.set(o.metadata?.uid as string, o);
    this.graph.upsert(o);
  }

  drop(uid: string): void {
    this.objects.delete(uid);
    this.graph.remove(uid);
  }

  /** A user DELETE with a propagation policy. */
  userDelete(uid: string, policy: 'Background' | 'Foreground' | 'Orphan'): void {
    const o = this.objects.get(uid);
    if (o === undefined) return;
    const meta = { ...o.metadata };
    const rest = (meta.finalizers ?? []).filter(
      (f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER,
    );
    const gc =
      policy === 'Orphan'
        ? [ORPHAN_FINALIZER]
        : policy === 'Foreground'
          ? [FOREGROUND_FINALIZER]
          : [];
    const finalizers = [...rest, ...gc];
    if (finalizers.length === 0) {
      this.drop(uid);
      return;
    }
    this.put({
      ...o,
      metadata: { ...meta, finalizers, deletionTimestamp: '2024-06-01T12:00:00Z' },
    });
  }

  /** Applies `actions` in order; stops at the first failure. Returns whether anything changed. */
  apply(actions: GcAction[]): { changed: boolean; failed: boolean } {
    let changed = false;
    for (const a of actions) {
      if (a.kind === 'wait') continue;
      if (this.fail(a)) return { changed, failed: true };
      changed = this.applyOne(a) || changed;
    }
    return { changed, failed: false };
  }

  private applyOne(a: Exclude<GcAction, { kind: 'wait' }>): boolean {
    switch (a.kind) {
      case 'delete': {
        if (!this.objects.has(a.target.uid)) return false;
        const lookup = graphOwnerLookup(this.graph);
        const node = this.graph.get(a.target.uid);
        const solid = (node?.owners ?? []).some((r) => lookup(r, a.target.namespace) === 'exists');
        this.deletes.push({ uid: a.target.uid, solidOwnerAtDelete: solid });
        this.userDelete(a.target.uid, a.propagation);
        return true;
      }
      case 'patchOwnerRefs':
        return this.editRefs(a.target.uid, (refs) => withoutOwnerRefs(refs, a.remove));
      case 'unblockOwnerRefs':
        return this.editRefs(a.target.uid, (refs) => withUnblockedOwnerRefs(refs, a.uids));
      case 'orphanDependents': {
        let changed = false;
        for (const d of a.dependents) {
          changed =
            this.editRefs(d.uid, (refs) => withoutOwnerRefs(refs, [a.owner.uid])) || changed;
        }
        return changed;
      }
      case 'removeFinalizer':
        return this.removeFinalizer(a.target.uid, a.finalizer);
    }
  }

  private editRefs(uid: string, edit: (refs: OwnerReference[]) => OwnerReference[]): boolean {
    const o = this.objects.get(uid);
    if (o === undefined) return false;
    const before = o.metadata?.ownerReferences ?? [];
    const ownerReferences = edit(before);
    if (deepEqual(before, ownerReferences)) return false;
    this.put({ ...o, metadata: { ...o.metadata, ownerReferences } });
    return true;
  }

  private removeFinalizer(uid: string, finalizer: string): boolean {
    const o = this.objects.get(uid);
    if (o === undefined) return false;
    const finalizers = (o.metadata?.finalizers ?? []).filter((f) => f !== finalizer);
    if (finalizers.length === 0 && o.metadata?.deletionTimestamp) this.drop(uid);
    else this.put({ ...o, metadata: { ...o.metadata, finalizers } });
    return true;
  }

  /** Plans and applies every observed object until a round changes nothing; returns rounds. */
  settle(maxRounds = 50): number {
    for (let round = 1; round <= maxRounds; round++) {
      let changed = false;
      for (const node of this.graph.nodes()) {
        if (!this.objects.has(node.identity.uid)) continue;
        const plan = planForObject(node.identity.uid, this.graph, graphOwnerLookup(this.graph));
        changed = this.apply(plan).changed || changed;
      }
      if (!changed) return round;
    }
    throw new Error(`no fixpoint after ${maxRounds} rounds`);
  }
}
