/**
 * One run of the API-fault sweep: a fresh namespace is brought to a phase's starting state by
 * a fault-free operator (then stopped), the phase is triggered, and the operator under test
 * starts with a {@link faultClient}. With a fault plan:
 *
 * 1. the run waits until the planned mutating call is reached (or the phase converges first:
 *    the call does not exist in this run, reported as not reached);
 * 2. the faulted reconcile finishes; after a `lost` or `429` fault the same operator also gets
 *    its first retry (1 s at most), so retries on a cache that lags the committed write are
 *    exercised too ({@link IN_PROCESS_RETRIES});
 * 3. the operator is stopped and a new one starts on fresh informers and a new client: a
 *    restart from Kubernetes state only;
 * 4. the run waits for the phase's end state, then 300 ms more so a late stray write is seen.
 *
 * **How retries are counted.** A retry is a reconcile the controller loop requeues through the
 * rate limiter because it failed: outcome `error` (or `requeue`). `retries` counts them from
 * the faulted reconcile (included) until convergence, over both operator instances; a restart
 * counts as no retry by itself, but every failed reconcile of the new instance does. Failures
 * any run has (a 409 on a cache one event behind, which fault-free runs show too) are included,
 * so the count bounds what the fault cost from above; the sweep requires it to be at most 8.
 *
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject } from '../../../api/object.js';
import { isNotFound } from '../../../client/api-client.js';
import { RESOURCES } from '../../../controller/context.js';
import type { ReconcileOutcome } from '../../../controller/controller.js';
import { eventually, type Harness } from '../../../controller/testing/harness.js';
import { FLEETS, NETWORK_POLICIES, RESERVATIONS } from '../resources.js';
import { type Bench, startOperator } from './fault-bench.js';
import type { FaultKind, FaultPlan, RecordedCall } from './fault-client.js';
import {
  createFleet,
  FLEET_NAME,
  fleetReady,
  fleetRef,
  type Phase,
  type PhaseStart,
  prepareNamespace,
} from './fault-phases.js';

const CONVERGE_TIMEOUT_MS = 30_000;
const QUIET_MS = 300;
const POLL_MS = 100;
/**
 * Reconciles the faulted operator gets after the faulted one before it is restarted: a lost
 * answer and a throttle are retried in-process once (a retry on a cache that has not seen
 * the committed write yet: AlreadyExists, a stale resourceVersion, a 404), a timeout and a
 * conflict are followed by an immediate restart (recovery from Kubernetes state alone).
 */
const IN_PROCESS_RETRIES: Readonly<Record<FaultKind, number>> = {
  lost: 1,
  '429': 1,
  timeout: 0,
  conflict: 0,
};
const CHILD_TYPES = [
  RESOURCES.pods,
  RESOURCES.persistentvolumeclaims,
  RESOURCES.statefulsets,
  RESOURCES.deployments,
  RESOURCES.services,
  RESOURCES.poddisruptionbudgets,
  NETWORK_POLICIES,
];

export interface RunRecord {
  readonly phase: string;
  readonly namespace: string;
  readonly plan?: FaultPlan;
  readonly start: PhaseStart;
  /** Every call of the operator(s) under test during the phase, in order. */
  readonly calls: readonly RecordedCall[];
  /** The call that got the fault; undefined when the plan's call was never made. */
  readonly faulted?: RecordedCall;
  readonly retries: number;
  readonly converged: boolean;
  readonly durationMs: number;
}

const failed = (o: ReconcileOutcome): boolean => o === 'error' || o === 'requeue';

async function snapshot(h: Harness, ns: string): Promise<PhaseStart> {
  const uids = new Set<string>();
  const claims = new Map<string, string>();
  for (const type of CHILD_TYPES) {
    for (const o of await h.list({ ...type, namespace: ns })) {
      uids.add(o.metadata?.uid ?? '');
      if (type === RESOURCES.persistentvolumeclaims)
        claims.set(o.metadata?.name ?? '', o.metadata?.uid ?? '');
    }
  }
  const fleet = await h.get(fleetRef(ns));
  const reservationName = (fleet?.status as { reservation?: string } | undefined)?.reservation;
  const reservation = reservationName
    ? await h.get({ ...RESERVATIONS, name: reservationName })
    : undefined;
  return { uids, claims, fleetUid: fleet?.metadata?.uid, reservation };
}

/** Polls `probe` until true or the timeout; resolves whether it became true. */
async function until(probe: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  try {
    await eventually(async () => (await probe()) || undefined, { timeoutMs, intervalMs: POLL_MS });
    return true;
  } catch {
    return false;
  }
}

async function readyFleet(bench: Bench, phase: Phase, ns: string): Promise<void> {
  const h = bench.harness;
  await createFleet(h, ns, phase.profile);
  const setup = startOperator(bench, ns);
  try {
    if (!(await until(() => fleetReady(h, ns), CONVERGE_TIMEOUT_MS)))
      throw new Error(`${ns}: setup did not reach Ready`);
  } finally {
    await setup.stop();
  }
}

/** Deletes the run's workload so its pods stop taking node capacity (claims stay). */
export async function releaseRun(h: Harness, ns: string): Promise<void> {
  for (const type of [RESOURCES.statefulsets, RESOURCES.deployments]) {
    try {
      await h.client.delete(
        { ...type, namespace: ns, name: FLEET_NAME },
        { propagationPolicy: 'Background' },
      );
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

interface Attempt {
  readonly calls: RecordedCall[];
  faulted?: RecordedCall;
  retries: number;
  converged: boolean;
}

/** The faulted operator until its fault (and first retry), then a restarted one to the end. */
async function faultedAttempt(
  bench: Bench,
  ns: string,
  plan: FaultPlan,
  converged: () => Promise<boolean>,
): Promise<Attempt> {
  let failedFrom = -1;
  const operator = startOperator(bench, ns, plan, () => {
    failedFrom = operator.reconciles.length;
  });
  const first = operator.recorder;
  const attempt: Attempt = { calls: [], retries: 0, converged: false };
  const reached = await Promise.race([
    first.injected.then(() => true),
    until(converged, CONVERGE_TIMEOUT_MS).then(() => false),
  ]);
  if (reached) {
    attempt.faulted = first.calls.find((c) => c.fault !== undefined);
    const settled = failedFrom + 1 + IN_PROCESS_RETRIES[plan.kind];
    await until(async () => operator.reconciles.length >= settled, 1_000);
  }
  await operator.stop();
  attempt.calls.push(...first.calls);
  attempt.retries += operator.reconciles.slice(Math.max(failedFrom, 0)).filter(failed).length;
  const restarted = startOperator(bench, ns);
  const second = restarted.recorder;
  attempt.converged = await until(converged, CONVERGE_TIMEOUT_MS);
  await sleep(QUIET_MS);
  await restarted.stop();
  attempt.calls.push(...second.calls);
  attempt.retries += restarted.reconciles.filter(failed).length;
  return attempt;
}

/** A fault-free operator from the trigger to the end state. */
async function cleanAttempt(
  bench: Bench,
  ns: string,
  converged: () => Promise<boolean>,
): Promise<Attempt> {
  const operator = startOperator(bench, ns);
  const recorder = operator.recorder;
  const done = await until(converged, CONVERGE_TIMEOUT_MS);
  await sleep(QUIET_MS);
  await operator.stop();
  return {
    calls: recorder.calls,
    retries: operator.reconciles.filter(failed).length,
    converged: done,
  };
}

/**
 * Runs `phase` in the new namespace `ns`, with the fault `plan` or fault-free. The run's
 * objects stay for the invariant checks; {@link releaseRun} frees the nodes afterwards.
 */
export async function runPhase(
  bench: Bench,
  phase: Phase,
  ns: string,
  plan?: FaultPlan,
): Promise<RunRecord> {
  const h = bench.harness;
  await prepareNamespace(h, ns);
  if (phase.startsReady) await readyFleet(bench, phase, ns);
  const start = await snapshot(h, ns);
  const began = Date.now();
  await phase.trigger(h, ns);
  const converged = () => phase.converged(h, ns, start);
  const attempt = plan
    ? await faultedAttempt(bench, ns, plan, converged)
    : await cleanAttempt(bench, ns, converged);
  return {
    phase: phase.name,
    namespace: ns,
    ...(plan ? { plan } : {}),
    start,
    calls: attempt.calls,
    ...(attempt.faulted ? { faulted: attempt.faulted } : {}),
    retries: attempt.retries,
    converged: attempt.converged,
    durationMs: Date.now() - began,
  };
}

/** The fleet object at the end of a run (undefined once deleted). */
export function liveFleet(h: Harness, ns: string): Promise<KubeObject | undefined> {
  return h.get({ ...FLEETS, namespace: ns, name: FLEET_NAME });
}
