/**
 * The StatefulSet pod planner: one sync of upstream `stateful_set_control.go: updateStatefulSet`
 * (`processReplica`, the condemned claim fix, `processCondemned`, `runForAll`, the update step)
 * as a pure function from observed objects to the ordered actions upstream would take
 * (docs/design/statefulset.md §4–§8). `statusOf` is the status upstream writes after that sync
 * (docs/design/statefulset.md §10).
 *
 * OrderedReady ("monotonic"): at most one create or condemned delete per sync; every pass stops at
 * the first pod that is terminating, not Running+Ready, or not yet available (minReadySeconds).
 * Parallel: every replica is processed (slow-start batches 1, 2, 4…; an error stops later
 * batches) and readiness never blocks. Pods in the plan are not yet created, so (as upstream,
 * whose in-memory pods have no phase) they count as unavailable and never in the status.
 *
 * @module
 */
import type { Pod, StatefulSet } from '../../api/model/index.js';
import {
  identityMatches,
  newStatefulSetPod,
  ordinalInSet,
  podName,
  storageMatches,
  withIdentity,
  withStorage,
  withTemplate,
} from './identity.js';
import { claimsForPod, claimsStale } from './plan-claims.js';
import {
  isFailedOrSucceeded,
  isPending,
  isRunningAndAvailable,
  isRunningAndReady,
  isTerminating,
  isUnavailable,
  podRevision,
  type SetView,
  viewOf,
} from './plan-spec.js';
import type { Plan, PlanAction, PlanInput, WaitReason } from './plan-types.js';
import { updateVictims } from './plan-update.js';

export { requeueAfterSeconds, type SyncedStatus, statusOf } from './plan-status.js';
export type * from './plan-types.js';

/** Upstream `MaxBatchSize` for slowStartBatch. */
const MAX_BATCH = 500;

interface Slot {
  pod: Pod;
  created: boolean;
}

/** One step's outcome: `block` stops a monotonic pass; `error` stops any pass. */
interface Step {
  block: boolean;
  error?: string;
}

const OK: Step = { block: false };

class Sync {
  readonly view: SetView;
  readonly monotonic: boolean;
  /**
   * `Recreate` with its gate on (docs/design/statefulset.md §8.5); with the gate off it is a
   * RollingUpdate.
   */
  readonly recreate: boolean;
  readonly currentSet: StatefulSet;
  readonly updateSet: StatefulSet;
  readonly plan: Plan = { actions: [], errors: [], updateDeletions: 0 };
  /** Claims this plan creates, so one sync never creates a claim twice. */
  readonly planned = new Set<string>();

  readonly input: PlanInput;

  constructor(input: PlanInput) {
    this.input = input;
    this.view = viewOf(input.set);
    this.monotonic = !this.view.parallel;
    this.recreate = this.view.recreate && input.gates?.statefulSetRecreateStrategy === true;
    const setTemplate = this.view.template;
    this.currentSet = withTemplate(input.set, input.currentTemplate ?? setTemplate);
    this.updateSet = withTemplate(input.set, input.updateTemplate ?? setTemplate);
  }

  push(action: PlanAction): void {
    this.plan.actions.push(action);
  }

  wait(pod: Pod, reason: WaitReason, error?: string): Step {
    if (this.monotonic && this.plan.waiting === undefined) {
      this.plan.waiting = { podName: pod.metadata?.name ?? '', reason };
    }
    if (error !== undefined) this.plan.errors.push(error);
    return error === undefined ? { block: true } : { block: true, error };
  }

  available(pod: Pod): boolean {
    return isRunningAndAvailable(pod, this.view.minReadySeconds, this.input.now);
  }

  /** Upstream `createPersistentVolumeClaims`: create the missing ones; report those being deleted. */
  ensureClaims(pod: Pod): string | undefined {
    const { missing, deleting } = claimsForPod(this.input.set, pod, this.input.claims);
    const podName = pod.metadata?.name ?? '';
    for (const claim of missing) {
      const name = claim.metadata?.name ?? '';
      if (this.planned.has(name)) continue;
      this.planned.add(name);
      this.push({ type: 'createClaim', claim, podName });
    }
    return deleting.length > 0
      ? deleting.map((n) => `pvc ${n} is being deleted`).join(', ')
      : undefined;
  }
}

/**
 * Upstream `newVersionedStatefulSetPod` (docs/design/statefulset.md §8.1), with Go's `a && b || c`
 * precedence.
 */
function newVersionedPod(s: Sync, ordinal: number): Pod {
  const v = s.view;
  const current =
    (v.strategy === 'RollingUpdate' &&
      !s.recreate &&
      v.partition === undefined &&
      ordinal < v.start + v.statusCurrentReplicas) ||
    (v.partition !== undefined && ordinal < v.start + v.partition);
  return current
    ? newStatefulSetPod(s.currentSet, s.input.currentRevision, ordinal)
    : newStatefulSetPod(s.updateSet, s.input.updateRevision, ordinal);
}

function createReplica(s: Sync, pod: Pod): Step {
  if (claimsStale(s.input.set, pod, s.input.claims)) return s.wait(pod, 'StaleClaim');
  const error = s.ensureClaims(pod);
  if (error !== undefined) return s.wait(pod, 'Error', error);
  s.push({ type: 'createPod', pod });
  return s.monotonic ? s.wait(pod, 'Created') : OK;
}

/** Upstream `UpdateStatefulPod` when identity, storage or retention ownership drifted. */
function repairReplica(s: Sync, pod: Pod): Step {
  const retention = s.input.retentionUpToDate?.(pod) ?? true;
  const identity = identityMatches(s.input.set, pod);
  const storage = storageMatches(s.input.set, pod);
  if (identity && retention && storage) return OK;
  let repaired = identity ? pod : withIdentity(s.updateSet, pod);
  if (!storage) {
    repaired = withStorage(s.updateSet, repaired);
    const error = s.ensureClaims(repaired);
    if (error !== undefined) return s.wait(pod, 'Error', error);
  }
  if (!retention) s.push({ type: 'updateClaimRetention', pod: repaired });
  if (!identity || !storage) s.push({ type: 'updatePod', pod: repaired });
  return OK;
}

/** Upstream `processReplica` (docs/design/statefulset.md §4.3). */
function processReplica(s: Sync, slot: Slot): Step {
  const pod = slot.pod;
  if (slot.created && isFailedOrSucceeded(pod)) {
    // Replaced on a later sync, once the old object is gone from the cache.
    if (!isTerminating(pod)) {
      s.push({ type: 'deletePod', podName: pod.metadata?.name ?? '', reason: 'Failed' });
    }
    return s.wait(pod, 'FailedPodReplaced');
  }
  if (!slot.created) {
    const step = createReplica(s, pod);
    if (step.block || step.error !== undefined) return step;
    // Parallel goes on with the in-memory pod: never terminating, never ready, identity intact.
    return OK;
  }
  if (isPending(pod)) {
    const error = s.ensureClaims(pod);
    if (error !== undefined) return s.wait(pod, 'Error', error);
  }
  if (s.monotonic && isTerminating(pod)) return s.wait(pod, 'Terminating');
  if (s.monotonic && !isRunningAndReady(pod)) return s.wait(pod, 'NotRunningAndReady');
  if (s.monotonic && !s.available(pod)) return s.wait(pod, 'NotAvailable');
  return repairReplica(s, pod);
}

/**
 * Upstream `processCondemned` (docs/design/statefulset.md §4.5): every deletion blocks a monotonic
 * pass.
 */
function processCondemned(s: Sync, pod: Pod, firstUnavailable: Pod | undefined): Step {
  if (isTerminating(pod)) return s.monotonic ? s.wait(pod, 'Terminating') : OK;
  if (s.monotonic && pod !== firstUnavailable) {
    if (!isRunningAndReady(pod)) return s.wait(pod, 'NotRunningAndReady');
    if (!s.available(pod)) return s.wait(pod, 'NotAvailable');
  }
  s.push({ type: 'deletePod', podName: pod.metadata?.name ?? '', reason: 'Condemned' });
  return s.wait(pod, 'Deleted');
}

/** Upstream `runForAll`: sequential and stopping (monotonic) or slow-start batches (parallel). */
function runForAll<T>(items: readonly T[], fn: (item: T) => Step, monotonic: boolean): boolean {
  if (monotonic) {
    return items.some((item) => {
      const step = fn(item);
      return step.block || step.error !== undefined;
    });
  }
  let i = 0;
  for (let batch = 1; i < items.length; batch = Math.min(2 * batch, MAX_BATCH)) {
    const size = Math.min(batch, items.length - i);
    // Every call of a batch runs (upstream runs them concurrently) before errors are checked.
    const steps = items.slice(i, i + size).map(fn);
    i += size;
    if (steps.some((step) => step.error !== undefined)) return true;
  }
  return false;
}

/** Splits the observed pods into in-range slots (missing ones filled in) and condemned pods. */
function partition(s: Sync): { replicas: Slot[]; condemned: Pod[] } {
  const v = s.view;
  const byOrdinal = new Map<number, Pod>();
  const condemned: Pod[] = [];
  for (const pod of s.input.pods) {
    const ordinal = ordinalInSet(v.name, pod.metadata?.name ?? '');
    if (ordinal < 0) continue; // unparsable names are ignored, as upstream
    if (ordinal >= v.start && ordinal < v.start + v.replicas) byOrdinal.set(ordinal, pod);
    else condemned.push(pod);
  }
  const replicas: Slot[] = [];
  for (let ordinal = v.start; ordinal < v.start + v.replicas; ordinal++) {
    const pod = byOrdinal.get(ordinal);
    replicas.push(pod ? { pod, created: true } : missingSlot(s, ordinal));
  }
  condemned.sort((a, b) => ordinalOfName(s, b) - ordinalOfName(s, a));
  return { replicas, condemned };
}

/**
 * A slot for an ordinal with no pod; its pod is built on first use. A sync of a large set
 * waiting on one ordinal reads only that one, and building all of them (a template copy each)
 * dominated the controller's CPU at 100 members.
 */
function missingSlot(s: Sync, ordinal: number): Slot {
  let pod: Pod | undefined;
  return {
    created: false,
    get pod() {
      pod ??= newVersionedPod(s, ordinal);
      return pod;
    },
  };
}

function ordinalOfName(s: Sync, pod: Pod): number {
  return ordinalInSet(s.view.name, pod.metadata?.name ?? '');
}

/** Lowest unavailable replica, else the lowest-ordinal unavailable condemned pod. */
function firstUnavailablePod(s: Sync, replicas: Slot[], condemned: Pod[]): Pod | undefined {
  const unavailable = (p: Pod) => isUnavailable(p, s.view.minReadySeconds, s.input.now);
  return (
    replicas.find((slot) => unavailable(slot.pod))?.pod ??
    [...condemned].reverse().find(unavailable)
  );
}

/** Everything upstream does to the set's pods and claims in one sync, in order. */
export function planStatefulSet(input: PlanInput): Plan {
  const s = new Sync(input);
  if (s.view.deleting) {
    s.plan.waiting = { podName: '', reason: 'SetDeleting' };
    return s.plan;
  }
  if (s.recreate && planRecreate(s)) return s.plan;
  const { replicas, condemned } = partition(s);
  const first = firstUnavailablePod(s, replicas, condemned);
  if (runForAll(replicas, (slot) => processReplica(s, slot), s.monotonic)) return s.plan;
  const fixClaims = (pod: Pod): Step => {
    if (!(input.retentionUpToDate?.(pod) ?? true)) s.push({ type: 'updateClaimRetention', pod });
    return OK;
  };
  if (runForAll(condemned, fixClaims, s.monotonic)) return s.plan;
  if (runForAll(condemned, (pod) => processCondemned(s, pod, first), s.monotonic)) return s.plan;
  if (s.view.strategy === 'OnDelete' || s.recreate) return s.plan;
  planUpdate(s, replicas);
  return s.plan;
}

/**
 * Recreate (KEP-3541): while any pod of the set (condemned ordinals included) is not at the
 * update revision, delete all of them at once and wait; while any pod is terminating, wait. Old
 * and new revisions never run together; claims are kept. True when the sync stops here.
 */
function planRecreate(s: Sync): boolean {
  const pods = s.input.pods.filter((p) => ordinalOfName(s, p) >= 0);
  const stale = pods.filter((p) => podRevision(p) !== s.input.updateRevision);
  for (const pod of stale) {
    if (isTerminating(pod)) continue;
    s.push({ type: 'deletePod', podName: pod.metadata?.name ?? '', reason: 'Update' });
    s.plan.updateDeletions++;
  }
  const waiting = pods.find(isTerminating) ?? stale[0];
  if (waiting === undefined) return false;
  s.wait(waiting, stale.some((p) => !isTerminating(p)) ? 'Deleted' : 'Terminating');
  return true;
}

function planUpdate(s: Sync, replicas: Slot[]): void {
  let victims: Pod[];
  try {
    victims = updateVictims({
      view: s.view,
      replicas: replicas.map((slot) => slot.pod),
      updateRevision: s.input.updateRevision,
      now: s.input.now,
      gate: s.input.gates?.maxUnavailableStatefulSet === true,
    });
  } catch (err) {
    s.plan.errors.push(err instanceof Error ? err.message : String(err));
    return;
  }
  for (const pod of victims) {
    s.push({ type: 'deletePod', podName: pod.metadata?.name ?? '', reason: 'Update' });
    s.plan.updateDeletions++;
  }
}

/** The name of the pod for `ordinal` of `set` (re-exported for callers wiring the plan). */
export function statefulPodName(set: StatefulSet, ordinal: number): string {
  return podName(set.metadata?.name ?? '', ordinal);
}
