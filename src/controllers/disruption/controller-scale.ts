/**
 * The disruption controller's "finders": given a pod's controller reference, which workload
 * controls it and what is that workload's scale. Follows upstream `disruption.go`
 * (`getPodReplicationController`, `getPodDeployment`, `getPodReplicaSet`, `getPodStatefulSet`,
 * then `getScaleController`, tried in that order, first hit wins).
 *
 * The result carries the workload's UID so that pods of two ReplicaSets of one Deployment add
 * the Deployment's scale once, not twice.
 *
 * @module
 */

import type { Deployment, ReplicaSet, StatefulSet } from '../../api/model/index.js';
import type { KubeObject, ObjectMeta, OwnerReference } from '../../api/object.js';
import { replicasOf } from '../../controller/workload-defaults.js';

/** A controlling workload and its `spec.replicas` (upstream `controllerAndScale`). */
export interface ControllerScale {
  readonly uid: string;
  readonly scale: number;
}

/**
 * Finds the workload behind a pod's controller reference. `undefined` means "not found" (the
 * pod then counts as having no controller). A lookup may throw: the PDB sync then fails with
 * the thrown message (upstream: a scale subresource that cannot be read).
 */
export type ControllerScaleLookup = (
  ref: OwnerReference,
  namespace: string,
) => ControllerScale | undefined;

/**
 * What a finder reads of a workload: its identity and `spec.replicas`. The typed workloads fit;
 * so does a core/v1 ReplicationController, which the API model does not carry (not served).
 */
export interface ScaledWorkload {
  readonly metadata?: ObjectMeta;
  readonly spec?: { readonly replicas?: number };
}

/** The workloads a lookup built by {@link controllerScaleFromObjects} searches. */
export interface WorkloadObjects {
  readonly replicationControllers?: readonly ScaledWorkload[];
  readonly replicaSets?: readonly ReplicaSet[];
  readonly deployments?: readonly Deployment[];
  readonly statefulSets?: readonly StatefulSet[];
  /**
   * Upstream `getScaleController`: any other kind with a scale subresource (custom resources).
   * Consulted last, and also for a ReplicaSet whose owning Deployment is gone (upstream reads
   * that ReplicaSet's scale subresource).
   */
  readonly scaleSubresource?: ControllerScaleLookup;
}

const APPS_GROUPS = ['apps', 'extensions'];

/** The group of an `apiVersion` (`apps/v1` → `apps`, `v1` → the core group ``). */
export function apiGroupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** Upstream `verifyGroupKind`. */
function isGroupKind(ref: OwnerReference, kind: string, groups: readonly string[]): boolean {
  return ref.kind === kind && groups.includes(apiGroupOf(ref.apiVersion ?? ''));
}

/** `metav1.GetControllerOf`: the owner reference with `controller: true`. */
export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return (obj.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
}

/** The object named by `ref` in `namespace`, only if its UID matches (a recreated one does not). */
function resolve<T extends ScaledWorkload>(
  objs: readonly T[] | undefined,
  ref: OwnerReference,
  namespace: string,
): T | undefined {
  const found = (objs ?? []).find(
    (o) => o.metadata?.name === ref.name && (o.metadata?.namespace ?? '') === namespace,
  );
  return found?.metadata?.uid === ref.uid ? found : undefined;
}

/** The workload's UID and `spec.replicas` (defaulted to 1 as the API server defaults it). */
function scaleOf(obj: ScaledWorkload): ControllerScale {
  return { uid: obj.metadata?.uid ?? '', scale: replicasOf(obj) };
}

type Finder = (
  objs: WorkloadObjects,
  ref: OwnerReference,
  namespace: string,
) => ControllerScale | undefined;

function findReplicationController(
  objs: WorkloadObjects,
  ref: OwnerReference,
  namespace: string,
): ControllerScale | undefined {
  if (!isGroupKind(ref, 'ReplicationController', [''])) return undefined;
  const rc = resolve(objs.replicationControllers, ref, namespace);
  return rc && scaleOf(rc);
}

/** A ReplicaSet owned by a Deployment stands for the Deployment; others for themselves. */
function findReplicaSetOrDeployment(
  objs: WorkloadObjects,
  ref: OwnerReference,
  namespace: string,
): ControllerScale | undefined {
  if (!isGroupKind(ref, 'ReplicaSet', APPS_GROUPS)) return undefined;
  const rs = resolve(objs.replicaSets, ref, namespace);
  if (rs === undefined) return undefined;
  const rsRef = controllerOf(rs);
  if (rsRef === undefined || !isGroupKind(rsRef, 'Deployment', APPS_GROUPS)) return scaleOf(rs);
  const d = resolve(objs.deployments, rsRef, namespace);
  return d && scaleOf(d);
}

function findStatefulSet(
  objs: WorkloadObjects,
  ref: OwnerReference,
  namespace: string,
): ControllerScale | undefined {
  if (!isGroupKind(ref, 'StatefulSet', ['apps'])) return undefined;
  const ss = resolve(objs.statefulSets, ref, namespace);
  return ss && scaleOf(ss);
}

const FINDERS: readonly Finder[] = [
  findReplicationController,
  findReplicaSetOrDeployment,
  findStatefulSet,
  (objs, ref, namespace) => objs.scaleSubresource?.(ref, namespace),
];

/**
 * A {@link ControllerScaleLookup} over listed workloads, in upstream's finder order: a
 * ReplicationController (core group); a ReplicaSet (apps/extensions) owned by a Deployment →
 * the Deployment's scale; a ReplicaSet not owned by a Deployment → its own scale; a
 * StatefulSet (apps); finally `scaleSubresource`, if given. Objects resolve by namespace and
 * name and must carry the reference's UID.
 */
export function controllerScaleFromObjects(objs: WorkloadObjects): ControllerScaleLookup {
  return (ref, namespace) => {
    for (const find of FINDERS) {
      const found = find(objs, ref, namespace);
      if (found !== undefined) return found;
    }
    return undefined;
  };
}
