/**
 * The decision of the `pods/eviction` subresource, following upstream
 * `pkg/registry/core/pod/storage/eviction.go` (`Create`, `canIgnorePDB`,
 * `shouldEnforceResourceVersion`, `checkAndDecrement`, `getPodDisruptionBudgets`,
 * `createTooManyRequestsError`, `addConditionAndDeletePod`) with upstream's exact texts.
 *
 * Pure: the handler reads the pod and the namespace's PDBs, asks {@link evictionDecision}, then
 * writes the PDB status (optimistic concurrency; on conflict it re-reads and asks again, as
 * upstream's retry loop does), sets the pod condition and deletes the pod.
 *
 * @module
 */

import { forbidden, type StatusCause, StatusError, unclassifiedError } from '../errors.js';
import { LabelSelectorParseError, labelSelectorFromObject } from '../labels/selector.js';
import { isLabelSelectorObject } from '../labels/selector-shape.js';
import type { KubeObject } from '../object.js';
import { disruptionAllowedConditions } from './pdb-conditions.js';
import { disruptionTime, type PdbStatus, readPdbStatus } from './pdb-status.js';
import {
  evictionDisruptionTarget,
  field,
  isPodReady,
  type PodCondition,
} from './pod-conditions.js';

/**
 * Upstream `MaxDisruptedPodSize`: more unconfirmed evictions than this in one PDB's
 * `status.disruptedPods` and the eviction is refused (the controller is lagging).
 */
export const MAX_DISRUPTED_POD_SIZE = 2000;

/** Upstream `policyv1.DisruptionBudgetCause`, the `reason` of the 429's cause. */
export const DISRUPTION_BUDGET_CAUSE = 'DisruptionBudget';

/** The 429 message for every budget refusal. */
export const VIOLATES_BUDGET_MESSAGE =
  "Cannot evict pod as it would violate the pod's disruption budget.";

/** The 500 message when the pod is covered by two or more PDBs. */
export const MULTIPLE_PDBS_MESSAGE =
  'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';

/** The parts of `metav1.DeleteOptions` (from the Eviction body and the request) that matter. */
export interface EvictionDeleteOptions {
  readonly dryRun?: readonly string[] | null;
  readonly preconditions?: {
    readonly uid?: string | null;
    readonly resourceVersion?: string | null;
  } | null;
}

/** The eviction may proceed. */
export interface EvictionAllowed {
  readonly allow: true;
  /**
   * The PDB status to write with the PDB's resourceVersion as precondition (disruptionsAllowed
   * decremented, the pod added to disruptedPods). Absent when no PDB applies, the pod's state
   * lets it skip the budget, an unhealthy pod is evicted without spending the budget, or on dry
   * run. On a write conflict, re-read the PDB and decide again.
   */
  readonly pdbUpdate?: {
    readonly name: string;
    /** The PDB's resourceVersion the status was computed from: the write's precondition. */
    readonly resourceVersion: string;
    readonly status: PdbStatus;
  };
  /** The one PDB covering the pod, if any (named in {@link evictionConflictError}). */
  readonly pdbName?: string;
  /** The `DisruptionTarget` condition to set on the pod before deleting it (absent on dry run). */
  readonly podCondition?: PodCondition;
  /**
   * The resourceVersion the pod delete must be conditioned on, when upstream adds one (so a pod
   * that became Ready meanwhile is not deleted behind the budget's back). Absent: use the
   * caller's delete options unchanged.
   */
  readonly deleteResourceVersion?: string;
  /**
   * True when a Conflict from that conditioned delete must be answered with
   * {@link evictionConflictError} (429, clients retry) instead of the Conflict itself.
   */
  readonly conflictIsTooManyRequests: boolean;
  /** Which rule allowed it: no budget check, no PDB, unhealthy pod, or budget decremented. */
  readonly via: 'ignoredPdb' | 'noPdb' | 'unhealthyPod' | 'budget';
}

/** The eviction is refused; `error` is the Status to answer with. */
export interface EvictionRefused {
  readonly allow: false;
  readonly status: 429 | 500 | 403;
  readonly message: string;
  readonly causes: readonly StatusCause[];
  readonly error: StatusError;
}

export type EvictionDecision = EvictionAllowed | EvictionRefused;

/** `status` is the code `error` was made with (each caller names it, to type it). */
function refused(error: StatusError, status: EvictionRefused['status']): EvictionRefused {
  return {
    allow: false,
    status,
    message: error.status.message ?? '',
    causes: error.status.details?.causes ?? [],
    error,
  };
}

/** `errors.NewTooManyRequests` with one DisruptionBudget cause (retryAfter 0 is omitted). */
function tooManyRequests(causeMessage: string, retryAfterSeconds: number): StatusError {
  return new StatusError(429, 'TooManyRequests', VIOLATES_BUDGET_MESSAGE, {
    ...(retryAfterSeconds > 0 ? { retryAfterSeconds } : {}),
    causes: [{ reason: DISRUPTION_BUDGET_CAUSE, message: causeMessage }],
  });
}

/**
 * Upstream `createTooManyRequestsError`: the PDB's status is stale (or a conditioned delete
 * conflicted); retry after 10 s.
 */
export function evictionConflictError(pdbName: string): StatusError {
  return tooManyRequests(
    `The disruption budget ${pdbName} is still being processed by the server.`,
    10,
  );
}

function phaseOf(pod: KubeObject): unknown {
  return field(pod, 'status').phase;
}

function isDeleting(pod: KubeObject): boolean {
  const t = pod.metadata?.deletionTimestamp;
  return t !== undefined && t !== null && t !== '';
}

/**
 * Upstream `canIgnorePDB`: Succeeded, Failed and Pending pods, and pods already deleting, are
 * evicted without consulting any budget (the disruption already happened or never started).
 */
export function canIgnorePdb(pod: KubeObject): boolean {
  const phase = phaseOf(pod);
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || isDeleting(pod);
}

/** Upstream `shouldEnforceResourceVersion`: false for terminal or deleting pods. */
function shouldEnforceResourceVersion(pod: KubeObject): boolean {
  const phase = phaseOf(pod);
  return !(phase === 'Succeeded' || phase === 'Failed' || isDeleting(pod));
}

function resourceVersionIsUnset(opts: EvictionDeleteOptions): boolean {
  const rv = opts.preconditions?.resourceVersion;
  return rv === undefined || rv === null;
}

function isDryRun(opts: EvictionDeleteOptions): boolean {
  return (opts.dryRun ?? []).length > 0;
}

/**
 * Upstream `getPodDisruptionBudgets`: PDBs of the pod's namespace whose selector is valid,
 * non-empty and matches the pod's labels. Unlike the controller, an empty or missing selector
 * matches nothing here.
 */
export function pdbsForPod(pod: KubeObject, pdbs: readonly KubeObject[]): KubeObject[] {
  const namespace = pod.metadata?.namespace ?? '';
  return pdbs.filter((pdb) => {
    if ((pdb.metadata?.namespace ?? '') !== namespace) return false;
    // A selector of the wrong shape (validation keeps those out) matches nothing, as one that
    // does not parse.
    const raw = field(pdb, 'spec').selector;
    if (!isLabelSelectorObject(raw)) return false;
    let selector: ReturnType<typeof labelSelectorFromObject>;
    try {
      selector = labelSelectorFromObject(raw);
    } catch (e) {
      if (e instanceof LabelSelectorParseError) return false;
      throw e;
    }
    return !selector.isEmpty() && selector.matches(pod.metadata?.labels);
  });
}

/**
 * Upstream `checkAndDecrement`: refuses a stale (429, still being processed), negative (403) or
 * overfull (403) budget and one with no disruption left (429, needs/has); otherwise returns the
 * status with one fewer disruption (and `InsufficientPods` once that reaches 0), plus the pod in
 * `disruptedPods` unless this is a dry run.
 */
function checkAndDecrement(
  pdb: KubeObject,
  podName: string,
  dryRun: boolean,
  now: number,
): { status: PdbStatus } | { error: StatusError; code: 429 | 403 } {
  const name = pdb.metadata?.name ?? '';
  const status = readPdbStatus(pdb);
  if ((status.observedGeneration ?? 0) < (pdb.metadata?.generation ?? 0)) {
    return { error: evictionConflictError(name), code: 429 };
  }
  const gr = { group: 'policy', resource: 'poddisruptionbudget' };
  if (status.disruptionsAllowed < 0) {
    return { error: forbidden(gr, name, 'pdb disruptions allowed is negative'), code: 403 };
  }
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE) {
    return {
      error: forbidden(
        gr,
        name,
        'DisruptedPods map too big - too many evictions not confirmed by PDB controller',
      ),
      code: 403,
    };
  }
  if (status.disruptionsAllowed === 0) {
    return {
      error: tooManyRequests(
        `The disruption budget ${name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`,
        0,
      ),
      code: 429,
    };
  }
  const next: PdbStatus = { ...status, disruptionsAllowed: status.disruptionsAllowed - 1 };
  if (next.disruptionsAllowed === 0) {
    next.conditions = disruptionAllowedConditions(
      status.conditions ?? [],
      0,
      status.observedGeneration,
      now,
    );
  }
  if (!dryRun) {
    next.disruptedPods = { ...(status.disruptedPods ?? {}), [podName]: disruptionTime(now) };
  }
  return { status: next };
}

/**
 * Decides one eviction (upstream `EvictionREST.Create` minus the I/O).
 *
 * @param pod the pod as currently stored.
 * @param pdbs the PodDisruptionBudgets of the pod's namespace (matching is done here).
 * @param now epoch ms (the disruptedPods entry and the condition's transition time).
 * @param deleteOptions the Eviction's delete options merged with the request's dryRun.
 */
export function evictionDecision(
  pod: KubeObject,
  pdbs: readonly KubeObject[],
  now: number,
  deleteOptions: EvictionDeleteOptions = {},
): EvictionDecision {
  const dryRun = isDryRun(deleteOptions);
  const podCondition = dryRun ? {} : { podCondition: evictionDisruptionTarget(now) };
  const rv = pod.metadata?.resourceVersion ?? '';
  if (canIgnorePdb(pod)) {
    const enforce = shouldEnforceResourceVersion(pod) && resourceVersionIsUnset(deleteOptions);
    return {
      allow: true,
      ...podCondition,
      ...(enforce ? { deleteResourceVersion: rv } : {}),
      conflictIsTooManyRequests: false,
      via: 'ignoredPdb',
    };
  }
  const matching = pdbsForPod(pod, pdbs);
  if (matching.length > 1) return refused(unclassifiedError(MULTIPLE_PDBS_MESSAGE), 500);
  const [pdb] = matching;
  if (pdb === undefined) {
    return { allow: true, ...podCondition, conflictIsTooManyRequests: false, via: 'noPdb' };
  }
  const pdbName = pdb.metadata?.name ?? '';
  if (!isPodReady(pod) && unhealthyPodMayGo(pdb)) {
    return {
      allow: true,
      pdbName,
      ...podCondition,
      deleteResourceVersion: rv,
      conflictIsTooManyRequests: resourceVersionIsUnset(deleteOptions),
      via: 'unhealthyPod',
    };
  }
  const checked = checkAndDecrement(pdb, pod.metadata?.name ?? '', dryRun, now);
  if ('error' in checked) return refused(checked.error, checked.code);
  return {
    allow: true,
    ...(dryRun
      ? {}
      : {
          pdbUpdate: {
            name: pdbName,
            resourceVersion: pdb.metadata?.resourceVersion ?? '',
            status: checked.status,
          },
        }),
    pdbName,
    ...podCondition,
    conflictIsTooManyRequests: false,
    via: 'budget',
  };
}

/**
 * An unready pod is deleted without spending the budget when the policy is `AlwaysAllow`, or
 * (default `IfHealthyBudget`) when the guarded application is currently not disrupted:
 * currentHealthy ≥ desiredHealthy > 0. Otherwise the budget decides as for a healthy pod.
 */
function unhealthyPodMayGo(pdb: KubeObject): boolean {
  if (field(pdb, 'spec').unhealthyPodEvictionPolicy === 'AlwaysAllow') return true;
  const status = readPdbStatus(pdb);
  return status.currentHealthy >= status.desiredHealthy && status.desiredHealthy > 0;
}
