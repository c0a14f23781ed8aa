/**
 * One step of a RollingUpdate (upstream `update.go: rollingUpdate, findUpdatedPodsOnNode,
 * updatedDesiredNodeCounts`), pure, once `manage` has nothing left to do:
 * - maxSurge 0: delete old pods while at most `maxUnavailable` eligible nodes lack an available
 *   pod (the next `manage` puts new pods in their place);
 * - maxSurge > 0: create a new pod beside an old one on at most `maxSurge` nodes at a time, and
 *   delete an old pod once the new one beside it is available.
 *
 * Nodes are walked in name order (upstream: Go map order). A pod pinned to a node that no
 * longer exists counts as on a node that should not run it; upstream's surge branch fails the
 * whole sync there ("couldn't get node") until PodGC removes the pod.
 *
 * @module
 */
import type { DaemonSet, Pod } from '../../api/model/index.js';
import { isPodAvailable } from '../replicaset/status.js';
import { deleting, isPodUpdated, nameOf, surgeCount, unavailableCount } from './daemon-pods.js';
import type { Eligibility } from './node-eligibility.js';

/** What availability is judged by. */
export interface RollingCtx {
  readonly ds: DaemonSet;
  readonly hash: string;
  readonly minReady: number;
  readonly now: number;
}

const available = (ctx: RollingCtx, pod: Pod): boolean =>
  isPodAvailable(pod, ctx.minReady, ctx.now);

/** Upstream `findUpdatedPodsOnNode`: at most one new and one old live pod, else not ok. */
function splitNode(pods: readonly Pod[], hash: string) {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  for (const pod of pods) {
    if (deleting(pod)) continue;
    if (isPodUpdated(pod, hash)) {
      if (newPod !== undefined) return { ok: false as const };
      newPod = pod;
    } else {
      if (oldPod !== undefined) return { ok: false as const };
      oldPod = pod;
    }
  }
  return { ok: true as const, newPod, oldPod };
}

function rollingWithoutSurge(
  ctx: RollingCtx,
  nodes: ReadonlyMap<string, Pod[]>,
  maxUnavailable: number,
): string[] {
  let numUnavailable = 0;
  const replacements: string[] = [];
  const candidates: string[] = [];
  for (const pods of nodes.values()) {
    const s = splitNode(pods, ctx.hash);
    if (!s.ok || (s.oldPod === undefined) === (s.newPod === undefined)) {
      // Excess pods, or none, or one of each: manage handles the node; it counts as unavailable.
      numUnavailable++;
    } else if (s.newPod !== undefined) {
      if (!available(ctx, s.newPod)) numUnavailable++;
    } else if (s.oldPod !== undefined) {
      if (!available(ctx, s.oldPod)) {
        replacements.push(nameOf(s.oldPod));
        numUnavailable++;
      } else if (numUnavailable < maxUnavailable) {
        candidates.push(nameOf(s.oldPod));
      }
    }
  }
  const room = Math.min(Math.max(0, maxUnavailable - numUnavailable), candidates.length);
  return [...replacements, ...candidates.slice(0, room)];
}

/** What the surge step does with a node holding only an old pod. */
type OldOnly = 'replace' | 'deleteOld' | 'leaving' | 'candidate';

function oldOnly(ctx: RollingCtx, oldPod: Pod, shouldRun: boolean): OldOnly {
  if (!available(ctx, oldPod)) return shouldRun ? 'replace' : 'deleteOld';
  return shouldRun ? 'candidate' : 'leaving';
}

function rollingWithSurge(
  ctx: RollingCtx,
  nodes: ReadonlyMap<string, Pod[]>,
  eligible: ReadonlyMap<string, Eligibility>,
  maxSurge: number,
  desired: number,
): { creates: string[]; deletes: string[] } {
  const deletes: string[] = [];
  const leaving: string[] = [];
  const candidates: string[] = [];
  const allowed: string[] = [];
  let numSurge = 0;
  let numAvailable = 0;
  for (const [node, pods] of nodes) {
    const s = splitNode(pods, ctx.hash);
    if (!s.ok) {
      numSurge++;
      continue;
    }
    const counted = s.oldPod ?? s.newPod;
    if (counted !== undefined && available(ctx, counted)) numAvailable++;
    if (s.oldPod === undefined) continue;
    if (s.newPod !== undefined) {
      // Surged already: the old pod goes once the new one is available.
      if (available(ctx, s.newPod)) deletes.push(nameOf(s.oldPod));
      else numSurge++;
      continue;
    }
    switch (oldOnly(ctx, s.oldPod, eligible.get(node)?.shouldRun === true)) {
      case 'replace':
        allowed.push(node);
        break;
      case 'deleteOld':
        deletes.push(nameOf(s.oldPod));
        break;
      case 'leaving':
        leaving.push(nameOf(s.oldPod));
        break;
      case 'candidate':
        if (numSurge < maxSurge) candidates.push(node);
        break;
    }
  }
  // Pods on nodes the DaemonSet left go only while enough pods elsewhere are available.
  const deletable = Math.min(Math.max(0, numAvailable - desired), leaving.length);
  deletes.push(...leaving.slice(0, deletable));
  const room = Math.min(Math.max(0, maxSurge - numSurge), candidates.length);
  return { creates: [...allowed, ...candidates.slice(0, room)], deletes };
}

/** Upstream `rollingUpdate` with `updatedDesiredNodeCounts`. */
export function rollingUpdate(
  ctx: RollingCtx,
  byNode: ReadonlyMap<string, Pod[]>,
  eligible: ReadonlyMap<string, Eligibility>,
) {
  const nodes = new Map<string, Pod[]>();
  let desired = 0;
  for (const [node, e] of eligible) {
    if (e.shouldRun) desired++;
    const pods = byNode.get(node);
    if (pods !== undefined) nodes.set(node, pods);
    else if (e.shouldRun) nodes.set(node, []);
  }
  for (const [node, pods] of byNode) if (!nodes.has(node)) nodes.set(node, pods);
  let maxUnavailable = unavailableCount(ctx.ds, desired);
  const maxSurge = surgeCount(ctx.ds, desired);
  // An impossible configuration (both 0) falls back to one unavailable pod, as upstream.
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  if (maxSurge === 0)
    return { creates: [], deletes: rollingWithoutSurge(ctx, nodes, maxUnavailable) };
  return rollingWithSurge(ctx, nodes, eligible, maxSurge, desired);
}
