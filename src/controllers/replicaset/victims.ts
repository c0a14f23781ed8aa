/**
 * ReplicaSet scale-down victim selection: upstream `controller_utils.go: ActivePodsWithRanks.Less`
 * (PodDeletionCost and LogarithmicScaleDown on, their defaults) with `replica_set.go:
 * getPodsToDelete` / `getPodsRankedByRelatedPodsOnSameNode`. Pure: `now` is epoch ms.
 *
 * One deliberate deviation, for a total order: upstream, when both pods are ready, their Ready
 * times differ but fall in the same log2 bucket, compares UIDs and stops; when the times are
 * exactly equal it goes on to restarts and creation time. That relation is not transitive (A, B
 * ready at the same instant with B restarting more, C ready a little earlier in the same bucket,
 * uid(A) < uid(C) < uid(B) gives B < A < C < B), so Go's unstable sort result depends on input
 * order. Here a shared bucket always falls through to rules 7–8, and the UID tie-break (then
 * namespace/name) ends the comparison, so the ranking is a total order independent of input order.
 *
 * @module
 */

import type { ContainerStatus, Pod } from '../../api/model/index.js';
import { parseTime } from '../../api/time.js';
import { isPodActive, isPodReady, podReadyCondition } from './status.js';

export const POD_DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/**
 * Parses a pod-deletion-cost value like `GetDeletionCostFromPodAnnotations`: the first character
 * must be '-' or 1-9, or the whole value is "0" ("+10", "007" and "" are invalid); then a base-10
 * int32. Returns `undefined` for an invalid value (validation rejects those: "must be a 32bit integer").
 */
export function parsePodDeletionCost(value: string): number | undefined {
  if (!/^(0|-[0-9]+|[1-9][0-9]*)$/.test(value)) return undefined;
  const n = Number(value) + 0; // "+ 0" turns "-0" into 0
  return n >= INT32_MIN && n <= INT32_MAX ? n : undefined;
}

/** The deletion cost the sorter uses: absent or invalid → 0. */
export function podDeletionCost(pod: Pod): number {
  const raw = pod.metadata?.annotations?.[POD_DELETION_COST_ANNOTATION];
  return raw === undefined ? 0 : (parsePodDeletionCost(raw) ?? 0);
}

// PodPending 0 < PodUnknown 1 < PodRunning 2; any other phase maps to 0 (Go map zero value).
const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/** Everything the comparison reads, computed once per pod. */
interface PodFacts {
  pod: Pod;
  rank: number;
  nodeName: string;
  phase: number;
  ready: boolean;
  cost: number;
  readyAt: number | undefined;
  restarts: number;
  sidecarRestarts: number;
  createdAt: number | undefined;
  uid: string;
  key: string;
}

function maxRestarts(statuses: readonly ContainerStatus[] | undefined, only?: Set<string>): number {
  let max = 0;
  for (const s of statuses ?? []) {
    if (only && !only.has(s.name)) continue;
    max = Math.max(max, s.restartCount);
  }
  return max;
}

/** Names of restartable init containers (sidecars: `restartPolicy: Always`). */
function sidecarNames(pod: Pod): Set<string> {
  const names = new Set<string>();
  for (const c of pod.spec?.initContainers ?? [])
    if (c.restartPolicy === 'Always') names.add(c.name);
  return names;
}

function nodeNameOf(pod: Pod): string {
  return pod.spec?.nodeName ?? '';
}

function factsOf(pod: Pod, rank: number): PodFacts {
  const status = pod.status ?? {};
  const ready = isPodReady(pod);
  const phase = status.phase === undefined ? 0 : (PHASE_ORDINAL[status.phase] ?? 0);
  return {
    pod,
    rank,
    nodeName: nodeNameOf(pod),
    phase,
    ready,
    cost: podDeletionCost(pod),
    readyAt: ready ? parseTime(podReadyCondition(pod)?.lastTransitionTime) : undefined,
    restarts: maxRestarts(status.containerStatuses),
    sidecarRestarts: maxRestarts(status.initContainerStatuses, sidecarNames(pod)),
    createdAt: parseTime(pod.metadata?.creationTimestamp),
    uid: pod.metadata?.uid ?? '',
    key: `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`,
  };
}

/**
 * floor(log2(now − t)) with the duration in NANOSECONDS as upstream computes it (float64 of an
 * int64 ns count), −1 for a non-positive duration. Exact for the double: Math.log2 is corrected
 * against powers of two so bucket edges never drift by one.
 */
export function logBucket(t: number, now: number): number {
  const ns = (now - t) * 1e6;
  if (!(ns > 0)) return -1;
  let e = Math.floor(Math.log2(ns));
  if (2 ** e > ns) e--;
  else if (2 ** (e + 1) <= ns) e++;
  return e;
}

/** Sort key of a time: zero first (−2, "afterOrZero"), else its log bucket (more recent first). */
function timeKey(t: number | undefined, now: number): number {
  return t === undefined ? -2 : logBucket(t, now);
}

function cmp(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Rules 1–5 of Less; negative means `a` is deleted first. */
function compareState(a: PodFacts, b: PodFacts): number {
  if (a.nodeName !== b.nodeName && (a.nodeName === '' || b.nodeName === ''))
    return a.nodeName === '' ? -1 : 1;
  if (a.phase !== b.phase) return cmp(a.phase, b.phase);
  if (a.ready !== b.ready) return a.ready ? 1 : -1;
  if (a.cost !== b.cost) return cmp(a.cost, b.cost);
  return cmp(b.rank, a.rank);
}

/** Rules 6–8 and the UID tie-break; negative means `a` is deleted first. */
function compareHistory(a: PodFacts, b: PodFacts, now: number): number {
  if (a.ready && b.ready) {
    const byReady = cmp(timeKey(a.readyAt, now), timeKey(b.readyAt, now));
    if (byReady !== 0) return byReady;
  }
  if (a.restarts !== b.restarts) return cmp(b.restarts, a.restarts);
  if (a.sidecarRestarts !== b.sidecarRestarts) return cmp(b.sidecarRestarts, a.sidecarRestarts);
  const byCreated = cmp(timeKey(a.createdAt, now), timeKey(b.createdAt, now));
  if (byCreated !== 0) return byCreated;
  return cmpStr(a.uid, b.uid);
}

function compareFacts(a: PodFacts, b: PodFacts, now: number): number {
  return compareState(a, b) || compareHistory(a, b, now);
}

/**
 * Pairwise deletion preference: negative if `a` should be deleted before `b`, positive if after,
 * 0 if upstream's Less says neither. `rankA`/`rankB` are the co-location ranks.
 */
export function comparePodsForDeletion(a: Pod, b: Pod, now: number, rankA = 0, rankB = 0): number {
  return compareFacts(factsOf(a, rankA), factsOf(b, rankB), now);
}

/**
 * Co-location rank per pod: the number of ACTIVE related pods on the same `spec.nodeName`
 * (unscheduled pods share the "" bucket). Related pods are the pods of every ReplicaSet with the
 * same controller; pass `[]` for a ReplicaSet without an owner (every rank 0).
 */
export function colocationRanks(pods: readonly Pod[], relatedPods: readonly Pod[]): number[] {
  const perNode = new Map<string, number>();
  for (const p of relatedPods) {
    if (!isPodActive(p)) continue;
    const node = nodeNameOf(p);
    perNode.set(node, (perNode.get(node) ?? 0) + 1);
  }
  return pods.map((p) => perNode.get(nodeNameOf(p)) ?? 0);
}

/** All `pods`, most-preferred victim first. Deterministic for any input order. */
export function rankPodsForDeletion(
  pods: readonly Pod[],
  relatedPods: readonly Pod[],
  now: number,
): Pod[] {
  const ranks = colocationRanks(pods, relatedPods);
  const facts = pods.map((p, i) => factsOf(p, ranks[i] ?? 0));
  facts.sort((a, b) => compareFacts(a, b, now) || cmpStr(a.key, b.key));
  return facts.map((f) => f.pod);
}

/**
 * The `diff` pods to delete (upstream getPodsToDelete). When every pod goes, no ranking is done and
 * the input order is kept, as upstream does; `diff` ≤ 0 selects nothing.
 */
export function podsToDelete(
  filteredPods: readonly Pod[],
  relatedPods: readonly Pod[],
  diff: number,
  now: number,
): Pod[] {
  if (diff <= 0) return [];
  if (diff >= filteredPods.length) return [...filteredPods];
  return rankPodsForDeletion(filteredPods, relatedPods, now).slice(0, diff);
}
