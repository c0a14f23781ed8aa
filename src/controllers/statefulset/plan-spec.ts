/**
 * Typed reads of a StatefulSet's JSON (spec and status) and the pod predicates the planner uses
 * (upstream `stateful_set_utils.go`: `getStartOrdinal`, `isCreated`, `isRunningAndReady`,
 * `isRunningAndAvailable`, `isUnavailable`, `isTerminating`, `getPodRevision`). Pure.
 *
 * @module
 */
import type {
  PersistentVolumeClaim,
  Pod,
  PodTemplateSpec,
  StatefulSet,
  StatefulSetSpec,
} from '../../api/model/index.js';
import { minReadySecondsOf, replicasOf } from '../../controller/workload-defaults.js';
import { isPodAvailable, isPodReady } from '../replicaset/status.js';

/** Label naming the ControllerRevision a pod was built from (upstream `ControllerRevisionHashLabelKey`). */
export const REVISION_LABEL = 'controller-revision-hash';

/** The parts of a StatefulSet the planner reads, with upstream's defaults applied. */
export interface SetView {
  name: string;
  namespace: string;
  replicas: number;
  /** `spec.ordinals.start`, 0 when unset. */
  start: number;
  parallel: boolean;
  /** `OnDelete`, or `RollingUpdate` (also for `Recreate`, which the planner honours only under its gate). */
  strategy: 'RollingUpdate' | 'OnDelete';
  /**
   * `updateStrategy.type: Recreate` (gate StatefulSetRecreateStrategy;
   * docs/design/statefulset.md §8.5).
   */
  recreate: boolean;
  /** `rollingUpdate.partition`; undefined when `rollingUpdate` itself is nil (docs/design/statefulset.md §8.1, the nil case). */
  partition: number | undefined;
  maxUnavailable: number | string | undefined;
  minReadySeconds: number;
  serviceName: string;
  template: PodTemplateSpec;
  claimTemplates: PersistentVolumeClaim[];
  matchLabels: Record<string, string>;
  whenScaled: 'Retain' | 'Delete';
  generation: number;
  deleting: boolean;
  /** `status.currentReplicas`, used by docs/design/statefulset.md §8.1 when `rollingUpdate` is nil. */
  statusCurrentReplicas: number;
  collisionCount: number | undefined;
}

function strategyOf(
  spec: Partial<StatefulSetSpec>,
): Pick<SetView, 'strategy' | 'recreate' | 'partition' | 'maxUnavailable'> {
  const s = spec.updateStrategy ?? {};
  const strategy = s.type === 'OnDelete' ? 'OnDelete' : 'RollingUpdate';
  const recreate = s.type === 'Recreate';
  const rolling = s.rollingUpdate;
  if (strategy === 'OnDelete' || rolling === undefined) {
    return { strategy, recreate, partition: undefined, maxUnavailable: undefined };
  }
  return {
    strategy,
    recreate,
    partition: rolling.partition ?? 0,
    maxUnavailable: rolling.maxUnavailable,
  };
}

/**
 * Views by set object. A sync reads the view once per pod (identity, storage, new pods), and
 * building it per call was a quarter of the controller thread's CPU at 100 members; set objects
 * are never mutated once read (informer objects are frozen, the sync builds new ones).
 */
const views = new WeakMap<StatefulSet, SetView>();

/**
 * Reads a StatefulSet; missing fields take upstream's defaults (docs/design/statefulset.md §11).
 */
export function viewOf(set: StatefulSet): SetView {
  let view = views.get(set);
  if (view === undefined) {
    view = readView(set);
    views.set(set, view);
  }
  return view;
}

function readView(set: StatefulSet): SetView {
  const spec: Partial<StatefulSetSpec> = set.spec ?? {};
  const deletion = set.metadata?.deletionTimestamp;
  return {
    name: set.metadata?.name ?? '',
    namespace: set.metadata?.namespace ?? '',
    replicas: replicasOf(set),
    start: spec.ordinals?.start ?? 0,
    parallel: spec.podManagementPolicy === 'Parallel',
    ...strategyOf(spec),
    minReadySeconds: minReadySecondsOf(set),
    serviceName: spec.serviceName ?? '',
    template: spec.template ?? {},
    claimTemplates: spec.volumeClaimTemplates ?? [],
    matchLabels: { ...spec.selector?.matchLabels },
    whenScaled:
      spec.persistentVolumeClaimRetentionPolicy?.whenScaled === 'Delete' ? 'Delete' : 'Retain',
    generation: set.metadata?.generation ?? 0,
    deleting: deletion !== undefined && deletion !== null,
    statusCurrentReplicas: set.status?.currentReplicas ?? 0,
    collisionCount: set.status?.collisionCount,
  };
}

function phaseOf(pod: Pod): string | undefined {
  return pod.status?.phase;
}

export function isFailedOrSucceeded(pod: Pod): boolean {
  const phase = phaseOf(pod);
  return phase === 'Failed' || phase === 'Succeeded';
}

export function isPending(pod: Pod): boolean {
  return phaseOf(pod) === 'Pending';
}

export function isTerminating(pod: Pod | PersistentVolumeClaim): boolean {
  const d = pod.metadata?.deletionTimestamp;
  return d !== undefined && d !== null;
}

/** Upstream `isRunningAndReady`: phase Running and condition Ready True. */
export function isRunningAndReady(pod: Pod): boolean {
  return phaseOf(pod) === 'Running' && isPodReady(pod);
}

/** Upstream `isRunningAndAvailable`: Running, Ready for more than minReadySeconds. */
export function isRunningAndAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  return phaseOf(pod) === 'Running' && isPodAvailable(pod, minReadySeconds, now);
}

/** Upstream `isUnavailable`: not available, or terminating (a terminating pod is going away). */
export function isUnavailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  return !isRunningAndAvailable(pod, minReadySeconds, now) || isTerminating(pod);
}

/** Upstream `getPodRevision`: the `controller-revision-hash` label ('' when absent). */
export function podRevision(pod: Pod): string {
  return pod.metadata?.labels?.[REVISION_LABEL] ?? '';
}
