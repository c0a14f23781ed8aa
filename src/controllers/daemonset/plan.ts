/**
 * The DaemonSet planner: nodes × daemon pods → pods to create (by node) and to delete, pure
 * (upstream `daemon_controller.go: manage, podsShouldBeOnNode, getUnscheduledPodsWithoutNode`).
 *
 * One sync does what upstream's does: `manage` first (a pod on every eligible node without
 * one, none where the pod may not stay, failed and surplus pods removed); only when that has
 * nothing to do, and the strategy is RollingUpdate, one step of the rolling update
 * (`rolling-update.ts`). OnDelete pods change only when someone deletes them: `manage` then
 * creates the replacement from the current template.
 *
 * Node iteration is in name order (upstream walks a Go map), so a plan is deterministic.
 *
 * @module
 */
import type { DaemonSet, Node, Pod } from '../../api/model/index.js';
import { isPodAvailable, isPodReady } from '../replicaset/status.js';
import {
  comparePods,
  deleting,
  eligibilityByNode,
  isPodUpdated,
  nameOf,
  podsByNode,
  rollingValues,
  surgeCount,
} from './daemon-pods.js';
import type { Eligibility } from './node-eligibility.js';
import { rollingUpdate } from './rolling-update.js';

export const FAILED_DAEMON_POD_REASON = 'FailedDaemonPod';
export const SUCCEEDED_DAEMON_POD_REASON = 'SucceededDaemonPod';

/** What one sync sees. */
export interface PlanInput {
  readonly ds: DaemonSet;
  readonly nodes: readonly Node[];
  /** The DaemonSet's claimed pods (terminal pods already being deleted left out). */
  readonly pods: readonly Pod[];
  /** The current revision's hash (`controller-revision-hash` of up-to-date pods). */
  readonly hash: string;
  /** Epoch ms, for minReadySeconds. */
  readonly now: number;
  /** Whether deleting a failed pod on this node is held back by its backoff. */
  readonly inBackoff?: (nodeName: string) => boolean;
}

export interface PlanEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

export interface Plan {
  /** Nodes to create a daemon pod for, in node-name order. */
  readonly createNodes: string[];
  /** Names of pods to delete. */
  readonly deletePods: string[];
  readonly events: PlanEvent[];
  /** Nodes whose failed pod is deleted now: their backoff moves on. */
  readonly backoffNodes: string[];
  /** Nodes whose failed pod waits for its backoff: sync again then. */
  readonly waitingNodes: string[];
  /** Which step produced the actions. */
  readonly step: 'manage' | 'rollingUpdate' | 'none';
}

interface Ctx {
  readonly input: PlanInput;
  readonly minReady: number;
  readonly events: PlanEvent[];
  readonly backoffNodes: string[];
  readonly waitingNodes: string[];
}

const available = (ctx: Ctx, pod: Pod): boolean => isPodAvailable(pod, ctx.minReady, ctx.input.now);

/** The running (not failed, not succeeded) pods of a node; failed and succeeded ones go. */
function runningPods(ctx: Ctx, node: string, pods: readonly Pod[], deletes: string[]): Pod[] {
  const ns = ctx.input.ds.metadata?.namespace ?? '';
  const running: Pod[] = [];
  for (const pod of pods) {
    if (deleting(pod)) continue;
    const phase = pod.status?.phase;
    if (phase === 'Failed') {
      // Upstream fights the kubelet here (a pod it rejects fails again): back off per node.
      if (ctx.input.inBackoff?.(node) === true) {
        ctx.waitingNodes.push(node);
        continue;
      }
      ctx.backoffNodes.push(node);
      ctx.events.push({
        type: 'Warning',
        reason: FAILED_DAEMON_POD_REASON,
        message: `Found failed daemon pod ${ns}/${nameOf(pod)} on node ${node}, will try to kill it`,
      });
      deletes.push(nameOf(pod));
    } else if (phase === 'Succeeded') {
      ctx.events.push({
        type: 'Normal',
        reason: SUCCEEDED_DAEMON_POD_REASON,
        message: `Found succeeded daemon pod ${ns}/${nameOf(pod)} on node ${node}, will try to delete it`,
      });
      deletes.push(nameOf(pod));
    } else {
      running.push(pod);
    }
  }
  return running.sort(comparePods);
}

/** With surge: keep the oldest new and the oldest old pod; the old one goes once the new one is available. */
function pruneSurged(ctx: Ctx, running: readonly Pod[], deletes: string[]): void {
  let oldestNew: Pod | undefined;
  let oldestOld: Pod | undefined;
  for (const pod of running) {
    if (isPodUpdated(pod, ctx.input.hash)) {
      if (oldestNew === undefined) {
        oldestNew = pod;
        continue;
      }
    } else if (oldestOld === undefined) {
      oldestOld = pod;
      continue;
    }
    deletes.push(nameOf(pod));
  }
  if (oldestNew === undefined || oldestOld === undefined) return;
  if (!isPodReady(oldestOld) || available(ctx, oldestNew)) deletes.push(nameOf(oldestOld));
}

/** Upstream `podsShouldBeOnNode`. */
function podsShouldBeOnNode(
  ctx: Ctx,
  node: string,
  eligibility: Eligibility,
  pods: readonly Pod[] | undefined,
  creates: string[],
  deletes: string[],
): void {
  const { shouldRun, shouldContinueRunning } = eligibility;
  if (shouldRun && pods === undefined) {
    creates.push(node);
    return;
  }
  if (shouldContinueRunning) {
    const running = runningPods(ctx, node, pods ?? [], deletes);
    if (surgeCount(ctx.input.ds, 1) <= 0) {
      // Without surge, more than one running pod: all but the oldest go.
      for (const pod of running.slice(1)) deletes.push(nameOf(pod));
      return;
    }
    if (running.length === 0) {
      if (shouldRun) creates.push(node);
      return;
    }
    if (running.length > 1) pruneSurged(ctx, running, deletes);
    return;
  }
  for (const pod of pods ?? []) if (!deleting(pod)) deletes.push(nameOf(pod));
}

/** Upstream `manage`: every node, then unbound pods pinned to nodes that no longer exist. */
function manage(
  ctx: Ctx,
  byNode: ReadonlyMap<string, Pod[]>,
  eligible: ReadonlyMap<string, Eligibility>,
) {
  const creates: string[] = [];
  const deletes: string[] = [];
  for (const [node, eligibility] of eligible) {
    podsShouldBeOnNode(ctx, node, eligibility, byNode.get(node), creates, deletes);
  }
  for (const [node, pods] of [...byNode].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (eligible.has(node)) continue;
    for (const pod of pods) if ((pod.spec?.nodeName ?? '') === '') deletes.push(nameOf(pod));
  }
  return { creates, deletes };
}

/** One sync's pod actions for a DaemonSet whose expectations are satisfied. */
export function planDaemonSet(input: PlanInput): Plan {
  const ctx: Ctx = {
    input,
    minReady: input.ds.spec?.minReadySeconds ?? 0,
    events: [],
    backoffNodes: [],
    waitingNodes: [],
  };
  const byNode = podsByNode(input.pods);
  const eligible = eligibilityByNode(input.ds, input.nodes);
  const managed = manage(ctx, byNode, eligible);
  const base = {
    events: ctx.events,
    backoffNodes: ctx.backoffNodes,
    waitingNodes: ctx.waitingNodes,
  };
  if (managed.creates.length > 0 || managed.deletes.length > 0) {
    return { ...base, createNodes: managed.creates, deletePods: managed.deletes, step: 'manage' };
  }
  if (rollingValues(input.ds) === undefined) {
    return { ...base, createNodes: [], deletePods: [], step: 'none' };
  }
  const rolled = rollingUpdate(
    { ds: input.ds, hash: input.hash, minReady: ctx.minReady, now: input.now },
    byNode,
    eligible,
  );
  const acted = rolled.creates.length > 0 || rolled.deletes.length > 0;
  return {
    ...base,
    createNodes: rolled.creates,
    deletePods: rolled.deletes,
    step: acted ? 'rollingUpdate' : 'none',
  };
}
