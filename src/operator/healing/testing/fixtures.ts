/**
 * Test fixtures for the healing planner: member pods, claims and inputs built from a few
 * numbers (epoch ms), so each table row states only what it is about. Used by tests only.
 *
 * @module
 */

import type { KubeObject } from '../../../api/object.js';
import { formatTime } from '../../../api/time.js';
import type { HealingInput, MemberObservation, NodeObservation } from '../types.js';

export const MIN = 60_000;
export const SEC = 1000;
/** A fixed wall clock: 2026-11-30T10:00:00Z. */
export const T0 = Date.parse('2026-11-30T10:00:00Z');
export const WORKLOAD = 'fleet';
export const WORKLOAD_UID = 'sts-uid';

export interface PodOpts {
  /** Ready condition status; `undefined` with `noReadyCondition` omits the condition. */
  ready?: boolean;
  /** The Ready condition's lastTransitionTime. */
  since?: number;
  createdAt?: number;
  noReadyCondition?: boolean;
  /** deletionTimestamp (already including the grace). */
  deletionAt?: number;
  graceSeconds?: number;
  /** `null` leaves the pod unscheduled. */
  nodeName?: string | null;
  waitingReason?: string;
  initWaitingReason?: string;
  unschedulableSince?: number;
  owner?: string;
  uid?: string;
  resourceVersion?: string;
}

export function pod(ordinal: number, o: PodOpts = {}): KubeObject {
  const conditions: Record<string, unknown>[] = [];
  const nodeName = o.nodeName === undefined ? `node-${ordinal}` : o.nodeName;
  if (o.unschedulableSince !== undefined) {
    conditions.push({
      type: 'PodScheduled',
      status: 'False',
      reason: 'Unschedulable',
      message: '0/3 nodes are available: 3 node(s) had volume node affinity conflict.',
      lastTransitionTime: formatTime(o.unschedulableSince),
    });
  }
  if (!o.noReadyCondition) {
    const c: Record<string, unknown> = {
      type: 'Ready',
      status: (o.ready ?? true) ? 'True' : 'False',
    };
    if (o.since !== undefined) c.lastTransitionTime = formatTime(o.since);
    conditions.push(c);
  }
  const waiting = (reason: string | undefined) =>
    reason === undefined ? undefined : [{ name: 'c', state: { waiting: { reason } } }];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${WORKLOAD}-${ordinal}`,
      uid: o.uid ?? `pod-uid-${ordinal}`,
      resourceVersion: o.resourceVersion ?? `${100 + ordinal}`,
      creationTimestamp: formatTime(o.createdAt ?? T0 - 60 * MIN),
      ...(o.deletionAt === undefined
        ? {}
        : {
            deletionTimestamp: formatTime(o.deletionAt),
            deletionGracePeriodSeconds: o.graceSeconds ?? 30,
          }),
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          name: WORKLOAD,
          uid: o.owner ?? WORKLOAD_UID,
          controller: true,
        },
      ],
    },
    spec: nodeName === null ? {} : { nodeName },
    status: {
      conditions,
      containerStatuses: waiting(o.waitingReason),
      initContainerStatuses: waiting(o.initWaitingReason),
    },
  };
}

export interface ClaimOpts {
  phase?: string;
  createdAt?: number;
  deletionAt?: number;
  uid?: string;
  resourceVersion?: string;
}

export function claim(ordinal: number, o: ClaimOpts = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: `data-${WORKLOAD}-${ordinal}`,
      uid: o.uid ?? `claim-uid-${ordinal}`,
      resourceVersion: o.resourceVersion ?? `${200 + ordinal}`,
      creationTimestamp: formatTime(o.createdAt ?? T0 - 120 * MIN),
      ...(o.deletionAt === undefined ? {} : { deletionTimestamp: formatTime(o.deletionAt) }),
    },
    status: { phase: o.phase ?? 'Bound' },
  };
}

export function node(ordinal: number, o: Partial<NodeObservation> = {}): NodeObservation {
  return { name: `node-${ordinal}`, exists: true, ready: true, zone: `zone-${ordinal % 3}`, ...o };
}

/** A member Ready since `readySince` (default an hour before T0) on an old disk. */
export function healthy(ordinal: number, readySince = T0 - 60 * MIN): MemberObservation {
  return {
    ordinal,
    pod: pod(ordinal, { since: readySince }),
    claim: claim(ordinal),
    node: node(ordinal),
  };
}

/** A member whose pod went not-Ready at `since`, on an old disk, on a Ready node. */
export function down(ordinal: number, since: number, o: PodOpts = {}): MemberObservation {
  return {
    ordinal,
    pod: pod(ordinal, { ready: false, since, ...o }),
    claim: claim(ordinal),
    node: node(ordinal),
  };
}

export function input(
  members: MemberObservation[],
  o: { now?: number; replicas?: number; delayMs?: number; settled?: boolean } = {},
): HealingInput {
  return {
    settings: {
      replicas: o.replicas ?? members.length,
      ...(o.delayMs === undefined ? {} : { memberReplacementDelayMs: o.delayMs }),
    },
    now: o.now ?? T0,
    workloadName: WORKLOAD,
    workloadUid: WORKLOAD_UID,
    workloadSettled: o.settled ?? true,
    members,
  };
}
