/**
 * Which pods are the fleet's members: the pods its workload controls, as upstream's workload
 * controllers count them for `status.replicas`, never every pod the fleet's label selector
 * matches. The selector is what `/scale` hands an HPA to find pods; the count is how many the
 * workload runs, so a stray pod that copies the labels (a debug pod, a hand-made pod) must not
 * change it (issue 14 item 10; Go `memberPods`: "only Pods whose controller owner UID equals
 * the StatefulSet's UID").
 *
 * The rule:
 * - StatefulSet fleets: the pod's controller reference is the StatefulSet's UID. Every ordinal
 *   counts, the condemned ones too while they exist (upstream's StatefulSet counts every pod it
 *   owns in `status.replicas`, so a scale-in shows 5 until member 4 is gone).
 * - Deployment-backed Bucket fleets: the pod's controller is a ReplicaSet named
 *   `<deployment>-<pod-template-hash>`, the only name the Deployment controller gives the
 *   ReplicaSets it owns (and it adopts an orphan of that name). The operator does not watch
 *   ReplicaSets (its RBAC has none), so the name stands for the owner chain.
 * - And, either way, the pod carries this fleet incarnation's UID label and has not finished
 *   (`Succeeded`/`Failed`); a terminating pod still counts (Go: "non-terminal Pods, including
 *   terminating ones").
 *
 * @module
 */
import type { Pod } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { LABEL_FLEET_UID } from '../render/metadata.js';
import { ordinalOf } from '../scaling/facts.js';
import type { FleetObservation } from './observe.js';

/** Upstream's `pod-template-hash` label, which names a Deployment's ReplicaSets. */
const POD_TEMPLATE_HASH = 'pod-template-hash';

function controllerRef(pod: KubeObject) {
  return pod.metadata?.ownerReferences?.find((r) => r.controller === true);
}

function finished(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/**
 * The workload of kind `kind` controls `pod`: directly (StatefulSet), or through a ReplicaSet
 * of the Deployment's (by the name the Deployment controller gives it).
 */
export function controlledBy(
  pod: KubeObject,
  workload: KubeObject | undefined,
  kind: FleetObservation['workloadKind'],
): boolean {
  const ref = controllerRef(pod);
  if (workload === undefined || ref === undefined) return false;
  if (kind === 'Deployment') {
    const hash = pod.metadata?.labels?.[POD_TEMPLATE_HASH];
    return (
      ref.kind === 'ReplicaSet' &&
      hash !== undefined &&
      hash !== '' &&
      ref.name === `${workload.metadata?.name}-${hash}`
    );
  }
  return ref.uid !== undefined && ref.uid !== '' && ref.uid === workload.metadata?.uid;
}

/** The fleet's member pods that have not finished, terminating ones included. */
export function memberPods(obs: FleetObservation): Pod[] {
  const uid = obs.fleet.metadata?.uid ?? '';
  return obs.pods.filter(
    (p) =>
      p.metadata?.labels?.[LABEL_FLEET_UID] === uid &&
      !finished(p) &&
      controlledBy(p, obs.workload, obs.workloadKind),
  );
}

/** A StatefulSet member's ordinal, from its name `<fleet>-<n>`; undefined for a Deployment's. */
export function memberOrdinal(obs: FleetObservation, pod: KubeObject): number | undefined {
  if (obs.workloadKind !== 'StatefulSet') return undefined;
  return ordinalOf(pod.metadata?.name ?? '', `${obs.fleet.metadata?.name ?? ''}-`);
}
