/**
 * DaemonSet status (upstream `daemon_controller.go: updateDaemonSetStatus, storeDaemonSetStatus`),
 * pure: per eligible node, its oldest daemon pod decides ready, available and up to date; a pod
 * on a node that should not run one is misscheduled.
 *
 * @module
 */
import type { DaemonSet, DaemonSetStatus, Node, Pod } from '../../api/model/index.js';
import { isPodAvailable, isPodReady } from '../replicaset/status.js';
import { comparePods, eligibilityByNode, isPodUpdated, podsByNode } from './daemon-pods.js';

/** The counts the controller owns (conditions and collisionCount are kept as they are). */
export interface DaemonSetCounts {
  readonly desiredNumberScheduled: number;
  readonly currentNumberScheduled: number;
  readonly numberMisscheduled: number;
  readonly numberReady: number;
  readonly updatedNumberScheduled: number;
  readonly numberAvailable: number;
  readonly numberUnavailable: number;
}

const COUNT_KEYS: readonly (keyof DaemonSetCounts)[] = [
  'desiredNumberScheduled',
  'currentNumberScheduled',
  'numberMisscheduled',
  'numberReady',
  'updatedNumberScheduled',
  'numberAvailable',
  'numberUnavailable',
];

const OMIT_EMPTY = [
  'observedGeneration',
  'updatedNumberScheduled',
  'numberAvailable',
  'numberUnavailable',
] as const;

/** Upstream `updateDaemonSetStatus`'s counting. */
export function daemonSetCounts(
  ds: DaemonSet,
  nodes: readonly Node[],
  pods: readonly Pod[],
  hash: string,
  now: number,
): DaemonSetCounts {
  const byNode = podsByNode(pods);
  const minReady = ds.spec?.minReadySeconds ?? 0;
  let desired = 0;
  let current = 0;
  let misscheduled = 0;
  let ready = 0;
  let updated = 0;
  let available = 0;
  for (const [node, e] of eligibilityByNode(ds, nodes)) {
    const onNode = byNode.get(node) ?? [];
    if (!e.shouldRun) {
      if (onNode.length > 0) misscheduled++;
      continue;
    }
    desired++;
    const pod = [...onNode].sort(comparePods)[0];
    if (pod === undefined) continue;
    current++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReady, now)) available++;
    }
    if (isPodUpdated(pod, hash)) updated++;
  }
  return {
    desiredNumberScheduled: desired,
    currentNumberScheduled: current,
    numberMisscheduled: misscheduled,
    numberReady: ready,
    updatedNumberScheduled: updated,
    numberAvailable: available,
    numberUnavailable: desired - available,
  };
}

/**
 * The status to write, or undefined when upstream's `storeDaemonSetStatus` would skip the
 * write: every count equal and `observedGeneration` already at least the generation (or not
 * to be moved).
 * `observe` is false while expectations are pending (the sync did not act on this generation).
 */
export function nextStatus(
  ds: DaemonSet,
  counts: DaemonSetCounts,
  observe: boolean,
): DaemonSetStatus | undefined {
  const cur: Partial<DaemonSetStatus> = ds.status ?? {};
  const generation = ds.metadata?.generation ?? 0;
  const observed = cur.observedGeneration ?? 0;
  const same = COUNT_KEYS.every((k) => (cur[k] ?? 0) === counts[k]);
  // Upstream also writes when only observedGeneration lags but it may not move it yet (a write
  // that changes nothing); skipped here.
  if (same && (observed >= generation || !observe)) return undefined;
  const next: DaemonSetStatus = {
    ...cur,
    ...counts,
    ...(observe ? { observedGeneration: generation } : {}),
  };
  // Go's omitempty: these four are left out at 0, as a real server shows them.
  for (const k of OMIT_EMPTY) if (next[k] === 0) delete next[k];
  return next;
}
