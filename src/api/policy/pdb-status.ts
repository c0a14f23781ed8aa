/**
 * The stored PodDisruptionBudget status as both its writers see it: the eviction subresource
 * (which spends one disruption and records the pod in `disruptedPods`) and the disruption
 * controller (which recomputes it). Reads with zero values for absent fields and rebuilds with
 * upstream's key order and `omitempty` fields dropped.
 *
 * @module
 */

import { isJsonObject, type KubeObject } from '../object.js';
import { formatTime } from '../time.js';
import { type MetaCondition, readConditions } from './pdb-conditions.js';
import { field } from './pod-conditions.js';

/**
 * How long an entry in `status.disruptedPods` is trusted (upstream `DeletionTimeout`, 2 min):
 * an evicted pod that still has no deletionTimestamp after this is assumed not to be deleted
 * and counts as healthy again.
 */
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;

/** `policy/v1` PodDisruptionBudgetStatus, keys in upstream's field order. */
export interface PdbStatus {
  observedGeneration?: number;
  /** Pod name → eviction time (RFC3339); omitted when empty. */
  disruptedPods?: Record<string, string>;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  conditions?: MetaCondition[];
}

/** A JSON number, or 0 (Go's zero value) for anything else. */
export function int(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** Reads the stored `status` of a PDB with zero values for absent fields. */
export function readPdbStatus(pdb: KubeObject): PdbStatus {
  const s = field(pdb, 'status');
  const status: PdbStatus = {
    disruptionsAllowed: int(s.disruptionsAllowed),
    currentHealthy: int(s.currentHealthy),
    desiredHealthy: int(s.desiredHealthy),
    expectedPods: int(s.expectedPods),
  };
  if (int(s.observedGeneration) !== 0) status.observedGeneration = int(s.observedGeneration);
  const disrupted = readDisruptedPods(s.disruptedPods);
  if (Object.keys(disrupted).length > 0) status.disruptedPods = disrupted;
  const conditions = readConditions(s.conditions);
  if (conditions.length > 0) status.conditions = conditions;
  return orderStatus(status);
}

export function readDisruptedPods(v: unknown): Record<string, string> {
  if (!isJsonObject(v)) return {};
  const out: Record<string, string> = {};
  for (const [name, t] of Object.entries(v)) if (typeof t === 'string') out[name] = t;
  return out;
}

/** Rebuilds a status with upstream's key order and its omitempty fields dropped. */
export function orderStatus(s: PdbStatus): PdbStatus {
  const disrupted = s.disruptedPods;
  const out: PdbStatus = {
    // The optional leading fields are spread in so that they keep their place in key order.
    ...(s.observedGeneration ? { observedGeneration: s.observedGeneration } : {}),
    ...(disrupted && Object.keys(disrupted).length > 0 ? { disruptedPods: disrupted } : {}),
    disruptionsAllowed: s.disruptionsAllowed,
    currentHealthy: s.currentHealthy,
    desiredHealthy: s.desiredHealthy,
    expectedPods: s.expectedPods,
  };
  if (s.conditions && s.conditions.length > 0) out.conditions = s.conditions;
  return out;
}

/** Formats an eviction time for `status.disruptedPods` (metav1.Time, second precision). */
export function disruptionTime(now: number): string {
  return formatTime(now);
}
