/**
 * Facts for `planScale` and `planRelease` from Kubernetes objects: which claims named
 * `data-<set>-<n>` exist, whose they are and where their disks are, where the scheduler stands
 * on each member pod, and which nodes a member could be scheduled to. Pure functions over the
 * objects a reconcile already holds in its caches.
 *
 * @module
 */
import { asKind } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import type { ClaimFacts, MemberPodFacts, NodeFacts, PodPlacement } from './types.js';

/** Set by the scheduler on a WaitForFirstConsumer claim; it stays once the disk is made. */
export const ANNOTATION_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
const ZONE_LABEL = 'topology.kubernetes.io/zone';
const OS_LABEL = 'kubernetes.io/os';

/** How the operator marks what it owns: a label carrying the fleet's UID (no owner references). */
export interface FleetOwnership {
  labelKey: string;
  fleetUid: string;
}

/** Ordinals as the StatefulSet writes them: decimal, no sign, no leading zero (`07` is no member). */
const ORDINAL = /^(0|[1-9][0-9]{0,8})$/;

/** The ordinal in `<prefix><ordinal>`, or undefined when the name is not of that shape. */
export function ordinalOf(name: string, prefix: string): number | undefined {
  if (!name.startsWith(prefix)) return undefined;
  const rest = name.slice(prefix.length);
  return ORDINAL.test(rest) ? Number(rest) : undefined;
}

/**
 * The claims among `claims` that sit at a member's name `data-<set>-<n>`. A claim is ours only if
 * it carries the fleet UID label and has no owner references: Go's rule (docs/design/operator.md §7.1), under which the
 * operator never adopts an object it did not label, and a claim someone else owns is never
 * reused even if it carries our label.
 */
export function claimFacts(
  claims: readonly KubeObject[],
  setName: string,
  ownership: FleetOwnership,
): ClaimFacts[] {
  const prefix = `data-${setName}-`;
  const facts: ClaimFacts[] = [];
  for (const obj of claims) {
    const claim = asKind(obj, 'PersistentVolumeClaim');
    const meta = claim.metadata ?? {};
    const ordinal = ordinalOf(meta.name ?? '', prefix);
    if (ordinal === undefined) continue;
    const labelled = meta.labels?.[ownership.labelKey] === ownership.fleetUid;
    const owned = (meta.ownerReferences ?? []).length > 0;
    // A Lost claim names a volume that no longer exists: nothing is left to return to.
    const lost = claim.status?.phase === 'Lost';
    const fact: ClaimFacts = {
      ordinal,
      ours: labelled && !owned,
      terminating: Boolean(meta.deletionTimestamp),
      bound: Boolean(claim.spec?.volumeName) && !lost,
    };
    const node = meta.annotations?.[ANNOTATION_SELECTED_NODE];
    if (node) fact.node = node;
    facts.push(fact);
  }
  return facts;
}

/**
 * Where the scheduler stands on a pod (Go `scheduleDecided`): a node means placed; a
 * `PodScheduled=False` condition with reason `Unschedulable` means the scheduler found no node,
 * which is also a decision. Anything else (no condition yet, or a `SchedulingGated` pod) is
 * still awaiting the scheduler.
 */
export function podPlacement(obj: KubeObject | undefined): PodPlacement {
  if (obj === undefined) return 'absent';
  const pod = asKind(obj, 'Pod');
  if (pod.spec?.nodeName) return 'scheduled';
  const scheduled = (pod.status?.conditions ?? []).find((c) => c.type === 'PodScheduled');
  if (scheduled?.status === 'False' && scheduled.reason === 'Unschedulable') return 'unschedulable';
  return 'awaiting';
}

/**
 * The pods named `<set>-<n>` that the StatefulSet `setUid` controls (Go `memberPods`: a stray
 * pod with a member's name is no member), as `planRelease` reads them; `gate` is the operator's
 * scheduling gate.
 */
export function memberPodFacts(
  pods: readonly KubeObject[],
  setName: string,
  setUid: string,
  gate: string,
): MemberPodFacts[] {
  const facts: MemberPodFacts[] = [];
  for (const obj of pods) {
    if (controllerUid(obj) !== setUid) continue;
    const pod = asKind(obj, 'Pod');
    const ordinal = ordinalOf(pod.metadata?.name ?? '', `${setName}-`);
    if (ordinal === undefined) continue;
    const spec = pod.spec;
    const fact: MemberPodFacts = {
      ordinal,
      gated: (spec?.schedulingGates ?? []).some((g) => g.name === gate),
      terminating: Boolean(pod.metadata?.deletionTimestamp),
      placement: podPlacement(pod),
    };
    if (spec?.nodeName) fact.node = spec.nodeName;
    facts.push(fact);
  }
  return facts;
}

/**
 * A node as the release planner sees it. Eligible means a member could be scheduled there now,
 * by the rules the member's template and the scheduler apply: Ready, not cordoned, no taint a
 * member does not tolerate for scheduling (NoSchedule, NoExecute), Linux, in a fleet zone.
 */
export function nodeFacts(obj: KubeObject, zones: readonly string[]): NodeFacts {
  const node = asKind(obj, 'Node');
  const labels = node.metadata?.labels ?? {};
  const { spec, status } = node;
  const zone = labels[ZONE_LABEL];
  const ready = (status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
  const tainted = (spec?.taints ?? []).some(
    (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute',
  );
  const eligible =
    ready &&
    !spec?.unschedulable &&
    !tainted &&
    labels[OS_LABEL] === 'linux' &&
    zone !== undefined &&
    zones.includes(zone);
  return { name: node.metadata?.name ?? '', ...(zone === undefined ? {} : { zone }), eligible };
}

function controllerUid(pod: KubeObject): string | undefined {
  return (pod.metadata?.ownerReferences ?? []).find((ref) => ref.controller === true)?.uid;
}
