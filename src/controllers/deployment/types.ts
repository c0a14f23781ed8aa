/**
 * The slices of `apps/v1` Deployment and ReplicaSet the deployment controller reads and writes,
 * with the field accessors that apply upstream's defaults. Objects stay plain JSON (the informer
 * cache holds frozen copies); these types only name what the controller touches.
 *
 * @module
 */
import type { LabelSelectorObject } from '../../api/labels/selector.js';
import type { KubeObject } from '../../api/object.js';

/** A `DeploymentCondition` / `ReplicaSetCondition` as stored (times are RFC 3339 seconds). */
export interface Condition {
  type: string;
  status: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** `DeploymentStatus`; zero counts are omitted as Go's `omitempty` does. */
export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: Condition[];
  collisionCount?: number;
}

export interface PodTemplate {
  metadata?: { labels?: Record<string, string> | null; [k: string]: unknown };
  spec?: unknown;
  [k: string]: unknown;
}

export interface Deployment extends KubeObject {
  spec?: {
    replicas?: number;
    selector?: LabelSelectorObject;
    template?: PodTemplate;
    strategy?: { type?: string; rollingUpdate?: unknown };
    minReadySeconds?: number;
    revisionHistoryLimit?: number | null;
    paused?: boolean;
    progressDeadlineSeconds?: number | null;
  };
  status?: DeploymentStatus;
}

export interface ReplicaSet extends KubeObject {
  spec?: {
    replicas?: number;
    minReadySeconds?: number;
    selector?: LabelSelectorObject;
    template?: PodTemplate;
  };
  status?: {
    replicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    observedGeneration?: number;
    conditions?: Condition[];
  };
}

/** Go's `math.MaxInt32`: the "unset" sentinel of progressDeadlineSeconds and the history limit. */
export const MAX_INT32 = 2147483647;

/** `HasProgressDeadline`: set and not MaxInt32. */
export function hasProgressDeadline(d: Deployment): boolean {
  const s = d.spec?.progressDeadlineSeconds;
  return typeof s === 'number' && s !== MAX_INT32;
}

/** `HasRevisionHistoryLimit`: set and not MaxInt32. */
export function hasRevisionHistoryLimit(d: Deployment): boolean {
  const l = d.spec?.revisionHistoryLimit;
  return typeof l === 'number' && l !== MAX_INT32;
}

/** Status counters of a ReplicaSet (absent → 0). */
export function rsStatusReplicas(rs: ReplicaSet | undefined): number {
  return rs?.status?.replicas ?? 0;
}

export function rsReadyReplicas(rs: ReplicaSet | undefined): number {
  return rs?.status?.readyReplicas ?? 0;
}

export function uidOf(obj: KubeObject | undefined): string {
  return obj?.metadata?.uid ?? '';
}
