/**
 * The operator's names on its children: labels, annotation keys, the selector and the
 * controller ownerReference. Every rendered object gets {@link childMetadata}.
 *
 * Children are found by label (watching, deletion, claim checks), so the label set is the
 * ownership contract: `celld.fleetyard.dev/fleet` maps a child to its fleet key, and
 * `celld.fleetyard.dev/fleet-uid` tells a recreated fleet's children from a previous
 * incarnation's (the Go operator's only ownership mark, kept for the same reason).
 *
 * @module
 */

import type { ObjectMeta, OwnerReference } from '../../api/object.js';
import type { ResolvedFleet } from './fleet-view.js';

export const FLEET_GROUP = 'celld.fleetyard.dev';
export const FLEET_API_VERSION = `${FLEET_GROUP}/v1alpha1`;
export const FLEET_KIND = 'CelldFleet';

export const LABEL_NAME = 'app.kubernetes.io/name';
export const LABEL_INSTANCE = 'app.kubernetes.io/instance';
export const LABEL_MANAGED_BY = 'app.kubernetes.io/managed-by';
export const LABEL_FLEET = `${FLEET_GROUP}/fleet`;
export const LABEL_FLEET_UID = `${FLEET_GROUP}/fleet-uid`;
/** Pods allowed to reach a fleet's application port carry `client-of=<fleet>`. */
export const LABEL_CLIENT_OF = `${FLEET_GROUP}/client-of`;

export const APP_NAME = 'celld';
export const MANAGER_NAME = 'celld-operator';
/** The operator's own Pods' `app.kubernetes.io/name`, admitted to the peer port. */
export const OPERATOR_APP_NAME = 'celld-operator';

/** Pod template annotation: changing the token changes the template, which rolls members. */
export const ANNOTATION_RESTART_TOKEN = `${FLEET_GROUP}/restart-token`;
/** Scheduling gate of Ordered Bucket Pods, removed once the operator has pinned their zone. */
export const SCHEDULING_GATE_BUCKET_ZONE = `${FLEET_GROUP}/bucket-zone`;
/**
 * Scheduling gate of PersistentFleet Pods, removed by the operator: at once for a member whose
 * disk exists, and for a member on a fresh disk only once it cannot take the place a kept disk
 * needs (`scaling/release.ts`).
 */
export const SCHEDULING_GATE_DISK_PLACEMENT = `${FLEET_GROUP}/disk-placement`;

/**
 * The workload selector. It is immutable on StatefulSets and Deployments, so it holds only
 * what never changes for one fleet incarnation: the fleet name and its UID.
 */
export function selectorLabels(fleet: ResolvedFleet): Record<string, string> {
  return { [LABEL_FLEET]: fleet.name, [LABEL_FLEET_UID]: fleet.uid };
}

/** Every label the operator puts on a child (and on member Pods and claims). */
export function operatorLabels(fleet: ResolvedFleet): Record<string, string> {
  return {
    [LABEL_NAME]: APP_NAME,
    [LABEL_INSTANCE]: fleet.name,
    [LABEL_MANAGED_BY]: MANAGER_NAME,
    ...selectorLabels(fleet),
  };
}

/**
 * The controller reference to the fleet. blockOwnerDeletion lets a foreground delete of the
 * fleet wait for its children; claims never get one (the StatefulSet's Retain policy and
 * the operator's deletion order decide when a disk goes, not the garbage collector).
 */
export function fleetOwnerReference(fleet: ResolvedFleet): OwnerReference {
  return {
    apiVersion: FLEET_API_VERSION,
    kind: FLEET_KIND,
    name: fleet.name,
    uid: fleet.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Metadata of a namespaced child named `name`. */
export function childMetadata(fleet: ResolvedFleet, name: string): ObjectMeta {
  return {
    name,
    namespace: fleet.namespace,
    labels: operatorLabels(fleet),
    ownerReferences: [fleetOwnerReference(fleet)],
  };
}

/** The headless Service that gives members stable DNS names. */
export function peersServiceName(fleet: ResolvedFleet): string {
  return `${fleet.name}-peers`;
}
