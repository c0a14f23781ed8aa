/**
 * The StatefulSet planner's input, its actions and its plan (see `plan.ts`).
 *
 * @module
 */
import type {
  PersistentVolumeClaim,
  Pod,
  PodTemplateSpec,
  StatefulSet,
} from '../../api/model/index.js';

/** Feature gates the planner consults, defaulted as upstream 1.33 does. */
export interface PlanGates {
  /** `MaxUnavailableStatefulSet` (alpha, default false). */
  maxUnavailableStatefulSet?: boolean;
  /** `StatefulSetRecreateStrategy` (alpha, default false): off, `Recreate` acts as RollingUpdate. */
  statefulSetRecreateStrategy?: boolean;
}

/** Everything one sync observes. */
export interface PlanInput {
  set: StatefulSet;
  /** The set's pods, already claimed (selector + `isMemberOf`). */
  pods: readonly Pod[];
  /** ControllerRevision names: the pods' `controller-revision-hash` values. */
  currentRevision: string;
  updateRevision: string;
  /** `spec.template` of the current revision; the set's own template when omitted. */
  currentTemplate?: PodTemplateSpec;
  /** `spec.template` of the update revision; the set's own template when omitted. */
  updateTemplate?: PodTemplateSpec;
  /** Claims in the set's namespace (at least those named for the set's ordinals). */
  claims: readonly PersistentVolumeClaim[];
  /** Epoch ms (minReadySeconds). */
  now: number;
  gates?: PlanGates;
  /**
   * Whether a pod's claims already carry the ownerReferences the retention policy asks for
   * (upstream `ClaimsMatchRetentionPolicy`, owned by `retention.ts`). Absent → always true.
   */
  retentionUpToDate?: (pod: Pod) => boolean;
}

export type DeleteReason = 'Failed' | 'Condemned' | 'Update';

export type PlanAction =
  /** Create a missing claim before `podName` is created or while it is Pending. */
  | { type: 'createClaim'; claim: PersistentVolumeClaim; podName: string }
  | { type: 'createPod'; pod: Pod }
  | { type: 'deletePod'; podName: string; reason: DeleteReason }
  /** PUT the pod with repaired identity labels/name and claim volumes (upstream `UpdateStatefulPod`). */
  | { type: 'updatePod'; pod: Pod }
  /** Bring the pod's claims' ownerReferences in line with the retention policy (`retention.ts`). */
  | { type: 'updateClaimRetention'; pod: Pod };

/** Why the sync stopped early (OrderedReady) — upstream's V(4) log lines, as a value. */
export type WaitReason =
  | 'SetDeleting'
  | 'FailedPodReplaced'
  | 'StaleClaim'
  | 'Created'
  | 'Terminating'
  | 'NotRunningAndReady'
  | 'NotAvailable'
  | 'Deleted'
  | 'Error';

export interface Plan {
  /** In the order upstream performs them. */
  actions: PlanAction[];
  /** The first blocking pod and why (monotonic passes only). */
  waiting?: { podName: string; reason: WaitReason };
  /** Errors upstream would return (the sync is retried with backoff), e.g. "pvc x is being deleted". */
  errors: string[];
  /** Pods deleted for update this sync: upstream decrements `status.currentReplicas` for each. */
  updateDeletions: number;
}
