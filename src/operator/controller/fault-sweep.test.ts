/**
 * The celld operator's API-fault sweep (the Go operator's reliability sweep, docs/design/operator.md §7.4):
 * for each phase of each profile, a fault-free run records the operator's mutating API calls;
 * then, for every recorded call index and each fault (a timeout, a 429, a 409 conflict, and a
 * response lost after the write committed), a fresh namespace replays the phase with that one
 * call failed, the operator is restarted from Kubernetes state only, and the run must converge
 * with at most 8 failed reconciles, issue no delete the fault-free run did not, fence every
 * pod and claim delete by uid and resourceVersion, keep the reservation and every claim it did
 * not replace, and keep the fleet's children labelled and owned (`testing/fault-invariants.ts`;
 * how a run is driven and how retries are counted: `testing/fault-run.ts`).
 *
 * A planned call is named by its signature and occurrence in the fault-free run ("the 3rd
 * status write"), so small differences in how status writes interleave do not move the fault
 * to another call; a run that makes fewer such calls than the fault-free one reports the plan
 * as not reached and is still checked. Every call of `persistent-create` and
 * `persistent-replace` is swept with all four faults. In the other phases every call except
 * the repeated status writes is swept; of those, the 1st, the 2nd and every
 * {@link STATUS_STRIDE}th are (deterministic sampling, to keep the file under three minutes;
 * the status writes of one phase only differ in the member table they carry). Runs go
 * {@link CONCURRENCY} at a time, each in its own namespace with its own operator over one
 * shared simulated cluster; the diagnostics list each phase's calls and run counts.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { type Bench, startBench } from './testing/fault-bench.js';
import { callSignature, FAULT_KINDS, type FaultPlan, plansOf } from './testing/fault-client.js';
import { allowedDeletes, MAX_RETRIES, runViolations } from './testing/fault-invariants.js';
import { PHASES, type Phase } from './testing/fault-phases.js';
import { type RunRecord, releaseRun, runPhase } from './testing/fault-run.js';

const CONCURRENCY = 16;
/** Phases swept at every call index with every fault. */
const FULL: ReadonlySet<string> = new Set(['persistent-create', 'persistent-replace']);
/** In the other phases, status writes after the first two: every STATUS_STRIDE-th. */
const STATUS_STRIDE = 4;

const SHORT: Readonly<Record<string, string>> = {
  'persistent-create': 'pc',
  'persistent-scale-in': 'ps',
  'persistent-replace': 'pr',
  'persistent-delete': 'pd',
  'bucket-create': 'bc',
  'bucket-delete': 'bd',
};

function swept(phase: Phase, plan: FaultPlan): boolean {
  if (FULL.has(phase.name) || !plan.signature.startsWith('updateStatus ')) return true;
  return plan.occurrence <= 2 || plan.occurrence % STATUS_STRIDE === 0;
}

function plansFor(phase: Phase, clean: RunRecord): FaultPlan[] {
  return plansOf(clean.calls, FAULT_KINDS).filter((p) => swept(phase, p));
}

async function pool<T, R>(items: readonly T[], size: number, work: (t: T) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: size }, worker));
  return results;
}

interface Outcome {
  readonly record: RunRecord;
  readonly violations: string[];
}

function describeRun(o: Outcome): string {
  const { plan, faulted } = o.record;
  const at = faulted ? `#${faulted.index}` : 'not reached';
  return `${o.record.phase} ${plan?.kind} on ${plan?.signature} (${plan?.occurrence}. of it, #${plan?.at} in the fault-free run; ${at} here): ${o.violations.join('; ')}`;
}

function report(t: TestContext, phase: Phase, clean: RunRecord, outcomes: Outcome[]): void {
  const reached = outcomes.filter((o) => o.record.faulted !== undefined);
  const maxRetries = Math.max(0, ...outcomes.map((o) => o.record.retries));
  const slowest = Math.max(0, ...outcomes.map((o) => o.record.durationMs));
  t.diagnostic(`${phase.name} fault-free calls: ${callSummary(clean)}`);
  t.diagnostic(
    `${phase.name}: ${clean.calls.filter((c) => c.index > 0).length} mutating calls; ` +
      `${outcomes.length} faulted runs (${reached.length} reached their call), ` +
      `max ${maxRetries} failed reconciles, slowest ${slowest} ms`,
  );
  for (const kind of FAULT_KINDS) {
    const runs = outcomes.filter((o) => o.record.plan?.kind === kind);
    const bad = runs.filter((o) => o.violations.length > 0).length;
    t.diagnostic(`  ${kind}: ${runs.length} runs, ${bad} failing`);
  }
}

/** Each kind of call of the fault-free run was failed, with each fault, at least once. */
function assertSignaturesCovered(phase: Phase, clean: RunRecord, outcomes: Outcome[]): void {
  const hit = new Set(
    outcomes.flatMap((o) =>
      o.record.faulted ? [`${o.record.plan?.kind} ${o.record.plan?.signature}`] : [],
    ),
  );
  const signatures = new Set(clean.calls.filter((c) => c.index > 0).map(callSignature));
  const missing = FAULT_KINDS.flatMap((kind) =>
    [...signatures].map((s) => `${kind} ${s}`).filter((s) => !hit.has(s)),
  );
  assert.deepEqual(missing, [], `${phase.name}: calls never failed`);
}

function callSummary(clean: RunRecord): string {
  const counts = new Map<string, number>();
  for (const c of clean.calls.filter((c) => c.index > 0))
    counts.set(callSignature(c), (counts.get(callSignature(c)) ?? 0) + 1);
  return [...counts].map(([s, n]) => (n > 1 ? `${s} ×${n}` : s)).join(', ');
}

describe('celld operator API-fault sweep', () => {
  let bench: Bench;
  before(async () => {
    bench = await startBench();
  });
  after(async () => {
    await bench?.close();
  });

  for (const phase of PHASES) {
    it(`${phase.name}: no fault leads to a delete, a lost claim or reservation, or non-convergence`, async (t) => {
      const short = SHORT[phase.name] ?? phase.name;
      const clean = await runPhase(bench, phase, `${short}-clean`);
      const allowed = allowedDeletes(clean);
      assert.deepEqual(await runViolations(bench, clean, allowed), [], `${phase.name} fault-free`);
      await releaseRun(bench.harness, clean.namespace);
      const plans = plansFor(phase, clean);
      assert.ok(plans.length > 0, `${phase.name}: the fault-free run made no write`);
      const outcomes = await pool(plans, CONCURRENCY, async (plan) => {
        const record = await runPhase(bench, phase, `${short}-${plan.at}-${plan.kind}`, plan);
        const violations = await runViolations(bench, record, allowed);
        await releaseRun(bench.harness, record.namespace);
        return { record, violations };
      });
      report(t, phase, clean, outcomes);
      const failures = outcomes.filter((o) => o.violations.length > 0).map(describeRun);
      assert.deepEqual(failures, [], `${phase.name}: runs broke an invariant`);
      assertSignaturesCovered(phase, clean, outcomes);
      assert.ok(outcomes.every((o) => o.record.retries <= MAX_RETRIES));
    });
  }
});
