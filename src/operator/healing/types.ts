/**
 * The self-healing planner's contract: its constants (docs/design/operator.md §6), what the
 * reconcile observes and hands in, and the plan it gets back. Pure data; no I/O.
 *
 * @module
 */

import type { KubeObject } from '../../api/object.js';

/** `DefaultMemberReplacementDelay`: outlasts the ~6 min force-detach and node provisioning. */
export const DEFAULT_MEMBER_REPLACEMENT_DELAY_MS = 10 * 60_000;
/** The flag's floor: a delay under 1 minute is raised to 1 minute. */
export const MIN_MEMBER_REPLACEMENT_DELAY_MS = 60_000;
/** `terminationMargin`: a pod past its deletionTimestamp (which already holds the grace) by this long is stuck. */
export const TERMINATION_MARGIN_MS = 2 * 60_000;
/** `absorbWindow`: every other member must have been Ready this long (leaders drop a follower in seconds, sweep every 30 s). */
export const ABSORB_WINDOW_MS = 5 * 60_000;
/** A claim created less than this before its pod was made for that pod; replacing it again would not help. */
export const FRESH_DISK_WINDOW_MS = 60_000;
/** Waiting reasons, on containers and init containers, that a new disk cannot fix. */
export const CONFIG_WAIT_REASONS: ReadonlySet<string> = new Set([
  'ErrImagePull',
  'ImagePullBackOff',
  'InvalidImageName',
  'ErrImageNeverPull',
  'CreateContainerConfigError',
]);

/** The node a member pod is bound to, as the reconcile's node informer sees it. */
export interface NodeObservation {
  name: string;
  /** False when the Node object is gone (PodGC will force-delete its pods eventually). */
  exists: boolean;
  /** The node's Ready condition is True. */
  ready: boolean;
  /** `topology.kubernetes.io/zone`, when labelled. */
  zone?: string;
  /** Epoch ms the node's Ready condition last left True; the member's down time when its pod still claims Ready. */
  notReadySince?: number;
}

/** Everything observed about one member ordinal. */
export interface MemberObservation {
  ordinal: number;
  /** The pod named `<workload>-<ordinal>`, if any (stray pods are filtered by owner UID in the planner). */
  pod?: KubeObject;
  /** The claim `data-<workload>-<ordinal>`, if any. */
  claim?: KubeObject;
  /** The node named by the pod's `spec.nodeName`, if the pod is bound. */
  node?: NodeObservation;
}

export interface HealingSettings {
  /** `spec.replicas`: ordinals at or above it are condemned and only the stuck-terminating rule applies. */
  replicas: number;
  /** `--member-replacement-delay`; undefined → 10 min; raised to at least 1 min. */
  memberReplacementDelayMs?: number;
}

export interface HealingInput {
  settings: HealingSettings;
  /** The injected clock, epoch ms. */
  now: number;
  /** The StatefulSet's name (member pod `<name>-<i>`, claim `data-<name>-<i>`). */
  workloadName: string;
  /** The StatefulSet's UID: only pods it controls are members (Go `memberPods`). */
  workloadUid: string;
  /**
   * The workload is settled: desired equals actual and the StatefulSet controller has observed
   * the spec (docs/design/operator.md §2.7). A fresh disk is only made while settled (#79).
   */
  workloadSettled: boolean;
  members: readonly MemberObservation[];
}

export type HealingActionKind =
  /** A member pod stuck terminating: delete with grace 0; the member keeps its disk. */
  | 'forceDeletePod'
  /** A claim already being deleted while a scheduled pod pins it: delete the pod to release it. */
  | 'releaseDisk'
  /** A Lost claim: delete the claim (and the pod) so the member returns on a fresh disk. */
  | 'replaceLostDisk'
  /** A member down past the delay: delete its claim, then its pod; it returns on a fresh disk. */
  | 'replaceMember';

/** One delete, in the order given; both preconditions are always present. */
export interface PlannedDelete {
  kind: 'Pod' | 'PersistentVolumeClaim';
  name: string;
  uid: string;
  resourceVersion: string;
  /** 0 for a force-delete; absent means the object's own grace. */
  gracePeriodSeconds?: number;
}

export interface HealingEvent {
  type: 'Normal' | 'Warning';
  reason: 'MemberForceDeleted' | 'MemberDiskLost' | 'MemberReplaced';
  message: string;
}

export interface HealingAction {
  kind: HealingActionKind;
  ordinal: number;
  deletes: PlannedDelete[];
  event: HealingEvent;
}

export interface HealingBlocked {
  reason: 'MemberUnschedulable';
  message: string;
}

/** One row of the fleet status' member table (RFC 3339 times). */
export interface MemberStatusRow {
  ordinal: number;
  pod: string | null;
  ready: boolean;
  node: string | null;
  zone: string | null;
  claim: string | null;
  claimPhase: string | null;
  downSince: string | null;
  replacementDue: string | null;
  /** Why a down member is not (yet) replaced, for `kubectl describe`. */
  note?: string;
}

export interface HealingPlan {
  /** At most one destructive action per plan. */
  action?: HealingAction;
  blocked?: HealingBlocked;
  memberStatus: MemberStatusRow[];
  /** Milliseconds until the next time the plan changes by the clock alone; absent when none. */
  requeueAfterMs?: number;
}
