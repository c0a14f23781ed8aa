/**
 * From one {@link Outcome} and the observed children to the fleet's whole status: counts, the
 * `/scale` selector, the five conditions, `state`, `blockedSince` and the member table. Pure;
 * status is never an input to a decision (the Go operator's rule), only its own previous
 * value is read, so transition times and `blockedSince` survive an unchanged reconcile and
 * an unchanged status is not written at all.
 *
 * @module
 */
import type { CelldFleet, Pod } from '../../api/model/index.js';
import { deepEqual } from '../../api/object.js';
import {
  type MetaCondition,
  readConditions,
  setStatusCondition,
} from '../../api/policy/pdb-conditions.js';
import { isPodReady } from '../../api/policy/pod-conditions.js';
import { formatTime } from '../../api/time.js';
import { fleetReplicas } from '../api/fleet-defaults.js';
import type { CelldFleetStatus, FleetMemberStatus, FleetState } from '../api/types.js';
import type { MemberStatusRow } from '../healing/types.js';
import { LABEL_FLEET, LABEL_FLEET_UID } from '../render/metadata.js';
import { memberOrdinal, memberPods } from './members.js';
import type { FleetObservation, Workload } from './observe.js';
import type { Outcome } from './outcome.js';

const STATE: Readonly<Record<Outcome['kind'], FleetState>> = {
  ready: 'Ready',
  progress: 'Progressing',
  blocked: 'Blocked',
  paused: 'Paused',
  deleting: 'Deleting',
};

/** The workload's ready count, 0 until its controller has seen the current generation. */
function readyReplicas(workload: Workload | undefined): number {
  if (workload === undefined) return 0;
  const status = workload.status;
  const generation = workload.metadata?.generation ?? 0;
  if ((status?.observedGeneration ?? 0) < generation) return 0;
  const ready = status?.readyReplicas;
  return typeof ready === 'number' ? ready : 0;
}

function compactRow(row: MemberStatusRow, fleetName: string): FleetMemberStatus {
  const m: FleetMemberStatus = { pod: row.pod ?? `${fleetName}-${row.ordinal}`, ready: row.ready };
  m.ordinal = row.ordinal;
  if (row.node) m.node = row.node;
  if (row.zone) m.zone = row.zone;
  if (row.claim) m.claim = row.claim;
  if (row.claimPhase === 'Pending' || row.claimPhase === 'Bound' || row.claimPhase === 'Lost')
    m.claimPhase = row.claimPhase;
  if (row.downSince) m.downSince = row.downSince;
  if (row.replacementDue) m.replacementDue = row.replacementDue;
  if (row.note) m.note = row.note;
  return m;
}

/** Rows for fleets without a healing table (Bucket): one per member pod, by name. */
function podRows(obs: FleetObservation, pods: Pod[]): FleetMemberStatus[] {
  return pods
    .map((p) => {
      const nodeName = p.spec?.nodeName;
      const ready = !p.metadata?.deletionTimestamp && isPodReady(p);
      const m: FleetMemberStatus = { pod: p.metadata?.name ?? '', ready };
      if (nodeName) {
        m.node = nodeName;
        const zone = obs.node(nodeName).zone;
        if (zone) m.zone = zone;
      }
      return m;
    })
    .sort((a, b) => a.pod.localeCompare(b.pod));
}

/**
 * How the members stand against `desired` (`spec.replicas`) for the Ready condition:
 * - `surplus`: members the fleet no longer wants that still exist (a scale-in waiting or
 *   under way: ordinals at or above `desired`; for a Deployment, pods beyond `desired`,
 *   terminating ones included);
 * - `readyKept`: the workload's ready count without the ready surplus members, at most
 *   `desired`. So the message never reads "5 of 4 members ready" while member 4 waits to be
 *   removed, and a kept member that is down is not hidden by a ready condemned one.
 */
interface MemberCounts {
  readonly readyKept: number;
  readonly surplus: number;
}

function memberCounts(
  obs: FleetObservation,
  members: readonly Pod[],
  ready: number,
  desired: number,
): MemberCounts {
  if (obs.workloadKind === 'Deployment') {
    return {
      readyKept: Math.min(ready, desired),
      surplus: Math.max(0, members.length - desired),
    };
  }
  const condemned = members.filter((p) => (memberOrdinal(obs, p) ?? -1) >= desired);
  const readyCondemned = condemned.filter(
    (p) => !p.metadata?.deletionTimestamp && isPodReady(p),
  ).length;
  return {
    readyKept: Math.min(desired, Math.max(0, ready - readyCondemned)),
    surplus: condemned.length,
  };
}

function readyMessage(c: MemberCounts, desired: number, allReady: boolean, o: Outcome): string {
  const counted = `${c.readyKept} of ${desired} members ready`;
  if (allReady) return counted;
  // Upstream's rollout status names the old replicas still pending termination the same way.
  const pending = c.surplus > 0 ? `, ${c.surplus} more pending removal` : '';
  return `${counted}${pending}: ${o.message}`;
}

interface ConditionSpec {
  type: string;
  status: boolean;
  reason: string;
  message: string;
}

function conditionSpecs(
  o: Outcome,
  counts: MemberCounts,
  desired: number,
  paused: boolean,
  deleting: boolean,
): ConditionSpec[] {
  // Ready: every wanted member ready and none left to remove (Go: ready > 0 && ready == replicas).
  const allReady = counts.readyKept > 0 && counts.readyKept === desired && counts.surplus === 0;
  return [
    {
      type: 'Ready',
      status: allReady,
      reason: allReady ? 'Provisioned' : o.reason,
      message: readyMessage(counts, desired, allReady, o),
    },
    { type: 'Progressing', status: o.kind === 'progress', reason: o.reason, message: o.message },
    { type: 'Blocked', status: o.kind === 'blocked', reason: o.reason, message: o.message },
    {
      type: 'MaintenancePaused',
      status: paused,
      reason: paused ? 'MaintenancePaused' : 'NotPaused',
      message: paused ? 'Workload changes and self-healing are suspended' : 'Not paused',
    },
    {
      type: 'Deleting',
      status: deleting,
      reason: deleting ? 'Deleting' : 'NotDeleting',
      message: deleting ? o.message : 'Not being deleted',
    },
  ];
}

export interface StatusInput {
  readonly fleet: CelldFleet;
  readonly observation: FleetObservation;
  readonly outcome: Outcome;
  readonly now: number;
  /** The reservation's name, once it is known to be this fleet's. */
  readonly reservation?: string;
}

/** The status this outcome gives the fleet. */
export function fleetStatus(input: StatusInput): CelldFleetStatus {
  const { fleet, observation: obs, outcome: o, now } = input;
  const previous: CelldFleetStatus = fleet.status ?? {};
  const name = fleet.metadata?.name ?? '';
  const uid = fleet.metadata?.uid ?? '';
  const desired = fleetReplicas(fleet.spec);
  const pods = memberPods(obs);
  const ready = readyReplicas(obs.workload);
  const counts = memberCounts(obs, pods, ready, desired);
  let conditions: MetaCondition[] = readConditions(previous.conditions);
  const generation = fleet.metadata?.generation;
  const paused = o.kind === 'paused';
  const deleting = Boolean(fleet.metadata?.deletionTimestamp);
  for (const c of conditionSpecs(o, counts, desired, paused, deleting)) {
    conditions = setStatusCondition(
      conditions,
      {
        type: c.type,
        status: c.status ? 'True' : 'False',
        reason: c.reason,
        message: c.message,
        ...(generation === undefined ? {} : { observedGeneration: generation }),
      },
      now,
    );
  }
  const status: CelldFleetStatus = {
    replicas: pods.length,
    readyReplicas: ready,
    labelSelector: `${LABEL_FLEET}=${name},${LABEL_FLEET_UID}=${uid}`,
    state: STATE[o.kind],
    conditions,
  };
  if (generation !== undefined) status.observedGeneration = generation;
  if (input.reservation) status.reservation = input.reservation;
  if (o.kind === 'blocked') {
    const wasBlocked = readConditions(previous.conditions).find((c) => c.type === 'Blocked');
    status.blockedSince =
      wasBlocked?.status === 'True' && previous.blockedSince
        ? previous.blockedSince
        : formatTime(now);
  }
  const members = o.members?.map((r) => compactRow(r, name)) ?? podRows(obs, pods);
  if (members.length > 0) status.members = members.slice(0, 100);
  return status;
}

/** Whether writing `next` would change what is stored. */
export function statusChanged(fleet: CelldFleet, next: CelldFleetStatus): boolean {
  return !deepEqual(fleet.status ?? {}, next);
}

/** The Blocked condition's change between two statuses, for the one event per change. */
export function blockedChange(
  before: CelldFleetStatus | undefined,
  after: CelldFleetStatus,
): { blocked: boolean; reason: string; message: string } | undefined {
  const find = (s: CelldFleetStatus | undefined) =>
    readConditions(s?.conditions).find((c) => c.type === 'Blocked');
  const was = find(before);
  const now = find(after);
  if (now === undefined) return undefined;
  const wasBlocked = was?.status === 'True';
  const isBlocked = now.status === 'True';
  if (wasBlocked === isBlocked && (!isBlocked || was?.reason === now.reason)) return undefined;
  return { blocked: isBlocked, reason: now.reason, message: now.message };
}
