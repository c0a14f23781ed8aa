/**
 * Who an object is to the garbage collector, and whether an ownerReference points at it.
 *
 * Upstream (`graph_builder.go`) keys everything by UID but remembers an owner's coordinates
 * (apiVersion, kind, name, namespace): a reference whose UID is known under other coordinates
 * points at nothing. Two deliberate choices here:
 * - apiVersion is compared by group only, because a ref written as `apps/v1beta2` still names the
 *   `apps/v1` Deployment the informer reports (upstream's live GET goes through the ref's own
 *   version and succeeds the same way);
 * - namespace `''` means cluster-scoped. A namespaced owner must share its dependent's namespace;
 *   a cluster-scoped dependent cannot have a namespaced owner at all.
 *
 * @module
 */

import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../../api/finalizers.js';
import type { KubeObject, OwnerReference } from '../../api/object.js';

export { FOREGROUND_FINALIZER, ORPHAN_FINALIZER };

/** An object's coordinates; `namespace` is `''` for cluster-scoped objects. */
export interface ObjectIdentity {
  readonly uid: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
}

/** The identity of an observed object; throws when it has no UID (it cannot be in the graph). */
export function identityOf(obj: KubeObject): ObjectIdentity {
  const meta = obj.metadata ?? {};
  if (typeof meta.uid !== 'string' || meta.uid === '') {
    throw new Error(`object ${meta.namespace ?? ''}/${meta.name ?? ''} has no metadata.uid`);
  }
  return {
    uid: meta.uid,
    apiVersion: obj.apiVersion ?? '',
    kind: obj.kind ?? '',
    name: meta.name ?? '',
    namespace: meta.namespace ?? '',
  };
}

/**
 * The identity a reference claims for its owner, as upstream's virtual nodes do: the owner's
 * scope is unknown, so it is assumed to live in the dependent's namespace.
 */
export function identityFromRef(ref: OwnerReference, dependentNamespace: string): ObjectIdentity {
  return {
    uid: ref.uid,
    apiVersion: ref.apiVersion,
    kind: ref.kind,
    name: ref.name,
    namespace: dependentNamespace,
  };
}

/** `apps/v1` → `apps`; `v1` → `''` (the core group). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** Whether `ref` names `owner` by UID, kind, name and API group. */
export function refMatchesIdentity(ref: OwnerReference, owner: ObjectIdentity): boolean {
  return (
    ref.uid === owner.uid &&
    ref.kind === owner.kind &&
    ref.name === owner.name &&
    groupOf(ref.apiVersion) === groupOf(owner.apiVersion)
  );
}

/** How an owner's namespace relates to a dependent's (upstream `isDangling` + graph checks). */
export type ScopeFit = 'ok' | 'other-namespace' | 'namespaced-owner-of-cluster-scoped';

export function scopeFit(owner: ObjectIdentity, dependentNamespace: string): ScopeFit {
  if (owner.namespace === '') return 'ok';
  if (dependentNamespace === '') return 'namespaced-owner-of-cluster-scoped';
  return owner.namespace === dependentNamespace ? 'ok' : 'other-namespace';
}

/** Whether the ref asks foreground deletion of its owner to wait for this dependent. */
export function isBlocking(ref: OwnerReference): boolean {
  return ref.blockOwnerDeletion === true;
}

/** `namespace/name` (or `name`) with kind, for messages. */
export function describeIdentity(id: ObjectIdentity): string {
  const path = id.namespace === '' ? id.name : `${id.namespace}/${id.name}`;
  return `${id.kind} ${path} (uid ${id.uid})`;
}
