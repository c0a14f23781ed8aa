/**
 * What the planner needs to know about one member, read from its pod, claim and node: is it
 * down and since when, has it been Ready long enough to absorb a replacement, is it waiting on
 * something a new disk cannot fix, does its pod await the scheduler, and was its disk made for
 * its current pod. Pure; times are epoch ms.
 *
 * Definitions (used by every rule, so they live in one place):
 * - **terminating**: the pod has a `deletionTimestamp`.
 * - **ready**: not terminating, condition `Ready` is `True`, and its node (when known) exists
 *   and is Ready. The node check catches the ~50 s before the node lifecycle controller marks
 *   the pod's own condition False.
 * - **down**: the pod is missing, terminating, or not ready (Go `persistent.go`).
 * - **downSince**: the `Ready` condition's `lastTransitionTime` when it is False; the pod's
 *   `creationTimestamp` when it has no Ready condition yet; the deletion request time
 *   (`deletionTimestamp − deletionGracePeriodSeconds`) when terminating while still Ready; the
 *   node's `notReadySince` when only the node is down. Unknown (undefined) otherwise: an
 *   unknown start never makes a member due.
 * - **readySince**: the `Ready` condition's `lastTransitionTime` while ready. A member is
 *   "Ready for 5 minutes" when `now − readySince ≥ 5 min` (exactly 5:00 counts). A Ready
 *   condition with no transition time never counts: unknown is not stable.
 */

import { isJsonObject, type KubeObject } from '../../api/object.js';
import { field } from '../../api/policy/pod-conditions.js';
import { parseTime } from '../../api/time.js';
import {
  CONFIG_WAIT_REASONS,
  FRESH_DISK_WINDOW_MS,
  type MemberObservation,
  type NodeObservation,
  TERMINATION_MARGIN_MS,
} from './types.js';

type Json = Record<string, unknown>;

export interface MemberFacts {
  ordinal: number;
  /** The pod, when one exists and the workload controls it. */
  pod?: KubeObject;
  claim?: KubeObject;
  node?: NodeObservation;
  terminating: boolean;
  ready: boolean;
  down: boolean;
  downSince?: number;
  readySince?: number;
  /** When a terminating pod counts as stuck: its deletionTimestamp + 2 min. */
  forceDeleteAt?: number;
  /** A container or init container waits with a reason in `CONFIG_WAIT_REASONS`. */
  waitingOnConfig: boolean;
  /** The pod exists, is not terminating and has no `spec.nodeName` yet. */
  awaitsScheduler: boolean;
  /**
   * The scheduler has decided the pod (Go `scheduleDecided`): it exists, is not terminating,
   * and is bound to a node or marked `PodScheduled=False/Unschedulable`. A pod found no node
   * is a decision, not a wait: it holds no zone, so it cannot hold back a fresh disk for
   * another member (issue 14 item 9: a Lost claim waited ~2 min for such a pod).
   */
  scheduleDecided: boolean;
  /** `PodScheduled=False/Unschedulable`: since when, and the scheduler's message. */
  unschedulableSince?: number;
  unschedulableMessage?: string;
  claimPhase?: string;
  claimTerminating: boolean;
  /** The claim was created for the current pod (or its origin is unknown): never replaced again. */
  diskMadeForPod: boolean;
}

/** A pod condition by type, or undefined. */
export function podCondition(pod: KubeObject, type: string): Json | undefined {
  const conditions = field(pod, 'status').conditions;
  if (!Array.isArray(conditions)) return undefined;
  return conditions.find((c): c is Json => isJsonObject(c) && c.type === type);
}

/** The pod's controller owner reference UID, if any. */
export function controllerUid(obj: KubeObject): string | undefined {
  const refs = obj.metadata?.ownerReferences;
  return refs?.find((r) => r.controller === true)?.uid;
}

/** Some container or init container waits on its image or configuration. */
export function isWaitingOnConfig(pod: KubeObject): boolean {
  const status = field(pod, 'status');
  for (const key of ['initContainerStatuses', 'containerStatuses']) {
    const list = status[key];
    if (!Array.isArray(list)) continue;
    for (const s of list) {
      const reason = field(field(s, 'state'), 'waiting').reason;
      if (typeof reason === 'string' && CONFIG_WAIT_REASONS.has(reason)) return true;
    }
  }
  return false;
}

/**
 * The disk was made for the current pod: the claim was created less than 1 minute before the
 * pod (Go's rule), or at/after it. Improvement over Go: when either timestamp is missing or
 * unparseable the origin is unknown, and unknown counts as "made for this pod", so a
 * replacement is refused rather than guessed.
 */
export function isDiskMadeForPod(claim: KubeObject, pod: KubeObject): boolean {
  const claimCreated = parseTime(claim.metadata?.creationTimestamp);
  const podCreated = parseTime(pod.metadata?.creationTimestamp);
  if (claimCreated === undefined || podCreated === undefined) return true;
  // Go replaces only a claim created MORE than 1 min before the pod, so exactly 60 s is still "made for it".
  return claimCreated >= podCreated - FRESH_DISK_WINDOW_MS;
}

function claimPhaseOf(claim: KubeObject | undefined): string | undefined {
  const phase = field(claim, 'status').phase;
  return typeof phase === 'string' ? phase : undefined;
}

/** The facts of one member at `now`; a pod the workload does not control counts as no pod. */
export function memberFacts(m: MemberObservation, workloadUid: string): MemberFacts {
  const pod = m.pod !== undefined && controllerUid(m.pod) === workloadUid ? m.pod : undefined;
  const claim = m.claim;
  // Any non-empty deletionTimestamp marks deletion, even one this code cannot parse.
  const claimTerminating = Boolean(claim?.metadata?.deletionTimestamp);
  const base = {
    ordinal: m.ordinal,
    claim,
    // The node is the pod's: a stray pod's node is no member's.
    ...(m.node === undefined || pod === undefined ? {} : { node: m.node }),
    claimPhase: claimPhaseOf(claim),
    claimTerminating,
  };
  if (pod === undefined) {
    return {
      ...base,
      terminating: false,
      ready: false,
      down: true,
      waitingOnConfig: false,
      awaitsScheduler: false,
      scheduleDecided: false,
      diskMadeForPod: false,
    };
  }
  const deletionAt = parseTime(pod.metadata?.deletionTimestamp);
  const terminating = Boolean(pod.metadata?.deletionTimestamp);
  const readyCond = podCondition(pod, 'Ready');
  const readyTransition = parseTime(readyCond?.lastTransitionTime);
  const nodeDown = m.node !== undefined && (!m.node.exists || !m.node.ready);
  const condReady = readyCond?.status === 'True';
  const ready = !terminating && condReady && !nodeDown;
  const nodeName = field(pod, 'spec').nodeName;
  const scheduled = typeof nodeName === 'string' && nodeName !== '';
  const schedCond = podCondition(pod, 'PodScheduled');
  const unschedulable =
    !terminating &&
    !scheduled &&
    schedCond?.status === 'False' &&
    schedCond.reason === 'Unschedulable';
  return {
    ...base,
    pod,
    terminating,
    ready,
    down: !ready,
    downSince: ready
      ? undefined
      : downSince(pod, terminating, deletionAt, readyCond, readyTransition, m),
    readySince: ready ? readyTransition : undefined,
    forceDeleteAt: deletionAt === undefined ? undefined : deletionAt + TERMINATION_MARGIN_MS,
    waitingOnConfig: isWaitingOnConfig(pod),
    awaitsScheduler: !terminating && !scheduled,
    scheduleDecided: !terminating && (scheduled || unschedulable),
    unschedulableSince: unschedulable ? parseTime(schedCond.lastTransitionTime) : undefined,
    unschedulableMessage:
      unschedulable && typeof schedCond.message === 'string' ? schedCond.message : undefined,
    diskMadeForPod: claim === undefined ? false : isDiskMadeForPod(claim, pod),
  };
}

function downSince(
  pod: KubeObject,
  terminating: boolean,
  deletionAt: number | undefined,
  readyCond: Json | undefined,
  readyTransition: number | undefined,
  m: MemberObservation,
): number | undefined {
  if (readyCond === undefined) return parseTime(pod.metadata?.creationTimestamp);
  if (readyCond.status !== 'True') return readyTransition;
  if (terminating && deletionAt !== undefined) {
    const grace = pod.metadata?.deletionGracePeriodSeconds;
    return deletionAt - (typeof grace === 'number' ? grace * 1000 : 0);
  }
  return m.node?.notReadySince;
}
