/**
 * PodDisruptionBudget status as the disruption controller computes it, following upstream
 * `pkg/controller/disruption/disruption.go` (`trySync`, `getPodsForPdb`, `getExpectedPodCount`,
 * `getExpectedScale`, `buildDisruptedPodMap`, `countHealthyPods`, `updatePdbStatus`, `failSafe`).
 * Pure: pods, workloads and `now` (epoch ms) come in; the new status, whether it differs from the
 * stored one, events and the recheck time come out. The controller performs the write.
 *
 * @module
 */

import { LabelSelectorParseError, labelSelectorFromObject } from '../../api/labels/selector.js';
import type { Pod, PodDisruptionBudget } from '../../api/model/index.js';
import {
  conditionsAreUpToDate,
  DISRUPTION_ALLOWED_CONDITION,
  disruptionAllowedConditions,
  SYNC_FAILED_REASON,
  setStatusCondition,
} from '../../api/policy/pdb-conditions.js';
import {
  DELETION_TIMEOUT_MS,
  int,
  orderStatus,
  type PdbStatus,
  readDisruptedPods,
  readPdbStatus,
} from '../../api/policy/pdb-status.js';
import { isPodReady } from '../../api/policy/pod-conditions.js';
import { parseTime } from '../../api/time.js';
import { scaledValueFromIntOrPercent } from '../deployment/rollout-math.js';
import { type ControllerScaleLookup, controllerOf } from './controller-scale.js';

/** An event the controller should record (upstream `recorder.Eventf`). */
export interface PdbEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
  /** Set when the event is about a pod rather than the PDB. */
  readonly pod?: string;
}

/** The outcome of one PDB sync. `changed: false` means the write must be skipped. */
export type PdbStatusResult =
  | {
      readonly ok: true;
      readonly status: PdbStatus;
      readonly changed: boolean;
      /** Epoch ms at which the PDB must be synced again (a disrupted-pod entry expires). */
      readonly recheckAt?: number;
      /** Selected pods without a controller reference (upstream only warns about them). */
      readonly unmanagedPods: readonly string[];
      readonly events: readonly PdbEvent[];
    }
  | {
      readonly ok: false;
      /** The sync error's text; it is also the SyncFailed condition's message. */
      readonly error: string;
      /** Upstream `failSafe`: the stored status with disruptionsAllowed 0 and SyncFailed. */
      readonly status: PdbStatus;
      readonly changed: true;
      readonly events: readonly PdbEvent[];
    };

function isDeleting(pod: Pod): boolean {
  const t = pod.metadata?.deletionTimestamp;
  return t !== undefined && t !== null;
}

/**
 * Upstream `getPodsForPdb`: pods of the PDB's namespace matched by `spec.selector`. In
 * policy/v1 an empty selector `{}` selects every pod of the namespace and a missing one selects
 * none. Throws {@link LabelSelectorParseError} for an invalid selector.
 */
export function podsForPdb(pdb: PodDisruptionBudget, pods: readonly Pod[]): Pod[] {
  const selector = labelSelectorFromObject(pdb.spec?.selector);
  const namespace = pdb.metadata?.namespace ?? '';
  return pods.filter(
    (p) => (p.metadata?.namespace ?? '') === namespace && selector.matches(p.metadata?.labels),
  );
}

/** A selected pod's controller reference resolves to nothing (upstream's `NoControllers`). */
class NoControllersError extends Error {}

interface ExpectedCount {
  expectedCount: number;
  desiredHealthy: number;
  unmanagedPods: string[];
}

/**
 * Upstream `getExpectedScale`: the sum of the scales of the distinct controllers of the pods.
 * Pods without a controller reference are reported, not counted; a controller reference that
 * resolves to nothing is an error.
 */
function expectedScale(
  pods: readonly Pod[],
  namespace: string,
  lookup: ControllerScaleLookup,
): { expectedCount: number; unmanagedPods: string[] } {
  const scales = new Map<string, number>();
  const seenRefs = new Set<string>();
  const unmanagedPods: string[] = [];
  for (const pod of pods) {
    const ref = controllerOf(pod);
    if (ref === undefined) {
      unmanagedPods.push(pod.metadata?.name ?? '');
      continue;
    }
    if (seenRefs.has(ref.uid)) continue;
    const found = lookup(ref, namespace);
    if (found === undefined) {
      throw new NoControllersError(
        `found no controllers for pod ${JSON.stringify(pod.metadata?.name ?? '')}`,
      );
    }
    seenRefs.add(ref.uid);
    scales.set(found.uid, found.scale);
  }
  let expectedCount = 0;
  for (const s of scales.values()) expectedCount += s;
  return { expectedCount, unmanagedPods };
}

/**
 * Upstream `getExpectedPodCount`. maxUnavailable (int or %, rounded up) wins over minAvailable:
 * expected = controllers' scale, desired = max(0, expected − maxUnavailable). minAvailable as an
 * int: desired = the int, expected = number of selected pods (no controllers needed).
 * minAvailable as a percentage: expected = controllers' scale, desired = ceil(% × expected).
 * Neither set: everything 0.
 */
function expectedPodCount(
  pdb: PodDisruptionBudget,
  pods: readonly Pod[],
  lookup: ControllerScaleLookup,
): ExpectedCount {
  const namespace = pdb.metadata?.namespace ?? '';
  const { maxUnavailable, minAvailable } = pdb.spec ?? {};
  if (typeof maxUnavailable === 'number' || typeof maxUnavailable === 'string') {
    const { expectedCount, unmanagedPods } = expectedScale(pods, namespace, lookup);
    const unavailable = scaledValueFromIntOrPercent(maxUnavailable, expectedCount, true);
    return {
      expectedCount,
      desiredHealthy: Math.max(0, expectedCount - unavailable),
      unmanagedPods,
    };
  }
  if (typeof minAvailable === 'number') {
    return { expectedCount: pods.length, desiredHealthy: minAvailable, unmanagedPods: [] };
  }
  if (typeof minAvailable === 'string') {
    const { expectedCount, unmanagedPods } = expectedScale(pods, namespace, lookup);
    const desiredHealthy = scaledValueFromIntOrPercent(minAvailable, expectedCount, true);
    return { expectedCount, desiredHealthy, unmanagedPods };
  }
  return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
}

/**
 * Upstream `buildDisruptedPodMap`: keeps the stored entries of pods that still exist, are not
 * yet deleting, and whose eviction is at most {@link DELETION_TIMEOUT_MS} old; expired entries
 * are dropped with a `NotDeleted` event. `recheckAt` is the earliest expiry still pending.
 */
export function buildDisruptedPodMap(
  pdb: PodDisruptionBudget,
  pods: readonly Pod[],
  now: number,
): { disruptedPods: Record<string, string>; recheckAt?: number; events: PdbEvent[] } {
  const stored = readDisruptedPods(pdb.status?.disruptedPods);
  const disruptedPods: Record<string, string> = {};
  const events: PdbEvent[] = [];
  let recheckAt: number | undefined;
  for (const pod of pods) {
    const name = pod.metadata?.name ?? '';
    const stamp = Object.hasOwn(stored, name) ? stored[name] : undefined;
    if (isDeleting(pod) || stamp === undefined) continue;
    const expectedDeletion = (parseTime(stamp) ?? Number.NEGATIVE_INFINITY) + DELETION_TIMEOUT_MS;
    if (expectedDeletion < now) {
      // Upstream prints the namespace twice here ("PDB %s/%s", ns, ns); kept for parity.
      const ns = pdb.metadata?.namespace ?? '';
      events.push({
        type: 'Warning',
        reason: 'NotDeleted',
        message: `Pod was expected by PDB ${ns}/${ns} to be deleted but it wasn't`,
        pod: name,
      });
      continue;
    }
    if (recheckAt === undefined || expectedDeletion < recheckAt) recheckAt = expectedDeletion;
    disruptedPods[name] = stamp;
  }
  return recheckAt === undefined ? { disruptedPods, events } : { disruptedPods, recheckAt, events };
}

/**
 * Upstream `countHealthyPods`: Ready pods that are not deleting and not in `disruptedPods` with
 * an unexpired entry (an entry exactly at its expiry no longer hides the pod).
 */
export function countHealthyPods(
  pods: readonly Pod[],
  disruptedPods: Readonly<Record<string, string>>,
  now: number,
): number {
  let healthy = 0;
  for (const pod of pods) {
    if (isDeleting(pod)) continue;
    const name = pod.metadata?.name ?? '';
    if (Object.hasOwn(disruptedPods, name)) {
      const at = parseTime(disruptedPods[name]);
      if (at !== undefined && at + DELETION_TIMEOUT_MS > now) continue;
    }
    if (isPodReady(pod)) healthy++;
  }
  return healthy;
}

function sameDisruptedPods(a: Record<string, string>, b: Record<string, string>): boolean {
  const ak = Object.keys(a);
  if (ak.length !== Object.keys(b).length) return false;
  return ak.every((k) => Object.hasOwn(b, k) && parseTime(a[k]) === parseTime(b[k]));
}

/**
 * Upstream `failSafe`: after a failed sync, keep the stored status but allow no disruption and
 * set `DisruptionAllowed=False` reason `SyncFailed` with the error as message.
 */
export function failSafeStatus(pdb: PodDisruptionBudget, error: string, now: number): PdbStatus {
  const old = readPdbStatus(pdb);
  const conditions = setStatusCondition(
    old.conditions ?? [],
    {
      type: DISRUPTION_ALLOWED_CONDITION,
      status: 'False',
      reason: SYNC_FAILED_REASON,
      message: error,
      ...(old.observedGeneration ? { observedGeneration: old.observedGeneration } : {}),
    },
    now,
  );
  return orderStatus({ ...old, disruptionsAllowed: 0, conditions });
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * One PDB sync (upstream `trySync` + `updatePdbStatus`, or `failSafe` on error).
 *
 * @param pdb the stored PodDisruptionBudget.
 * @param pods candidate pods (typically the namespace's); selection by `spec.selector` is done here.
 * @param controllerScale resolves a pod's controller reference to its workload's scale.
 * @param now epoch ms.
 */
export function pdbStatus(
  pdb: PodDisruptionBudget,
  pods: readonly Pod[],
  controllerScale: ControllerScaleLookup,
  now: number,
): PdbStatusResult {
  const events: PdbEvent[] = [];
  const fail = (error: string): PdbStatusResult => ({
    ok: false,
    error,
    status: failSafeStatus(pdb, error, now),
    changed: true,
    events,
  });
  let selected: Pod[];
  try {
    selected = podsForPdb(pdb, pods);
  } catch (e) {
    if (!(e instanceof LabelSelectorParseError)) throw e;
    events.push({ type: 'Warning', reason: 'NoPods', message: `Failed to get pods: ${e.message}` });
    return fail(e.message);
  }
  if (selected.length === 0) {
    events.push({ type: 'Normal', reason: 'NoPods', message: 'No matching pods found' });
  }
  let counts: ExpectedCount;
  try {
    counts = expectedPodCount(pdb, selected, controllerScale);
  } catch (e) {
    const message = errorText(e);
    if (e instanceof NoControllersError) {
      events.push({ type: 'Warning', reason: 'NoControllers', message });
    }
    events.push({
      type: 'Warning',
      reason: 'CalculateExpectedPodCountFailed',
      message: `Failed to calculate the number of expected pods: ${message}`,
    });
    return fail(message);
  }
  if (counts.unmanagedPods.length > 0) events.push(unmanagedPodsEvent(pdb));
  const disrupted = buildDisruptedPodMap(pdb, selected, now);
  events.push(...disrupted.events);
  const currentHealthy = countHealthyPods(selected, disrupted.disruptedPods, now);
  const { status, changed } = nextStatus(pdb, {
    currentHealthy,
    desiredHealthy: counts.desiredHealthy,
    expectedCount: counts.expectedCount,
    disruptedPods: disrupted.disruptedPods,
    now,
  });
  return {
    ok: true,
    status,
    changed,
    ...(disrupted.recheckAt === undefined ? {} : { recheckAt: disrupted.recheckAt }),
    unmanagedPods: counts.unmanagedPods,
    events,
  };
}

function unmanagedPodsEvent(pdb: PodDisruptionBudget): PdbEvent {
  // Upstream formats the selector with Go's %v of the struct; the selector string is clearer.
  const selector = labelSelectorFromObject(pdb.spec?.selector).toString();
  return {
    type: 'Warning',
    reason: 'UnmanagedPods',
    message:
      `Pods selected by this PodDisruptionBudget (selector: ${selector}) were found to be unmanaged. ` +
      'As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. ' +
      'To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.',
  };
}

interface Observed {
  currentHealthy: number;
  desiredHealthy: number;
  expectedCount: number;
  disruptedPods: Record<string, string>;
  now: number;
}

/**
 * Upstream `updatePdbStatus`: disruptionsAllowed = current − desired, but 0 when negative or when
 * no pods are expected (so a PDB whose first pods just appeared is safe until recomputed).
 * Unchanged numbers, disrupted map, generation and condition → `changed: false`.
 */
function nextStatus(
  pdb: PodDisruptionBudget,
  o: Observed,
): { status: PdbStatus; changed: boolean } {
  const old = readPdbStatus(pdb);
  const generation = int(pdb.metadata?.generation);
  const diff = o.currentHealthy - o.desiredHealthy;
  const disruptionsAllowed = o.expectedCount <= 0 || diff <= 0 ? 0 : diff;
  const unchanged =
    old.currentHealthy === o.currentHealthy &&
    old.desiredHealthy === o.desiredHealthy &&
    old.expectedPods === o.expectedCount &&
    old.disruptionsAllowed === disruptionsAllowed &&
    sameDisruptedPods(old.disruptedPods ?? {}, o.disruptedPods) &&
    (old.observedGeneration ?? 0) === generation &&
    conditionsAreUpToDate(
      old.conditions ?? [],
      old.disruptionsAllowed,
      old.observedGeneration ?? 0,
      generation,
    );
  if (unchanged) return { status: old, changed: false };
  const conditions = disruptionAllowedConditions(
    old.conditions ?? [],
    disruptionsAllowed,
    generation,
    o.now,
  );
  const status = orderStatus({
    observedGeneration: generation,
    disruptedPods: o.disruptedPods,
    disruptionsAllowed,
    currentHealthy: o.currentHealthy,
    desiredHealthy: o.desiredHealthy,
    expectedPods: o.expectedCount,
    conditions,
  });
  return { status, changed: true };
}
