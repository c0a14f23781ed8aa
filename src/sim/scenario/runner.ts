/**
 * Runs one scenario: starts a cluster (`startCluster`: virtual clock, paused, the file's
 * seed), watches the kinds the invariants name (and the timeline's defaults), runs the steps
 * in order, then stops everything it started, whatever happened.
 *
 * Time only moves inside steps: `advance` runs the cluster through a duration, `wait` moves
 * it in `interval` increments (1 s by default) and looks after each, so a wait ends at most
 * one interval after its condition became true. After every step the runner waits until the
 * watches have caught up with the cluster (see `KindWatchers.settle`), so the events a step
 * caused are reported under it and checked before the next step acts.
 *
 * Invariants are checked at every watch event (`InvariantEngine`), in commit order
 * (`EventBuffer`); the first violation stops the run at the next look — a wait's next
 * increment, an advance's next minute, a drain's or random-faults' next round, else the end
 * of the step — and the remaining steps are skipped. An invariant that starts `after` a
 * step that never ran is reported as skipped.
 *
 * @module
 */
import type { ClusterOptions, TestCluster } from '../cluster.js';
import { type ActionContext, describeError, StepFailure } from './actions.js';
import {
  clusterOptions,
  type ScenarioCluster,
  type StartCluster,
  scenarioCluster,
} from './cluster.js';
import { EventBuffer } from './event-buffer.js';
import { InvariantEngine, type Violation } from './invariants.js';
import { KindResolver } from './kinds.js';
import type { RunListener } from './records.js';
import type { InvariantResult, ScenarioResult, StepResult } from './results.js';
import { runStepAction } from './step-runner.js';
import type { KindRef, Scenario, Step } from './types.js';
import { KindWatchers, resourceKey } from './watchers.js';

/** Shown in the timeline and the JSON log even when no invariant names them. */
export const DEFAULT_WATCHED_KINDS: readonly KindRef[] = [
  { kind: 'Node', apiVersion: 'v1' },
  { kind: 'Pod', apiVersion: 'v1' },
  { kind: 'PersistentVolumeClaim', apiVersion: 'v1' },
  { kind: 'PersistentVolume', apiVersion: 'v1' },
  { kind: 'StatefulSet', apiVersion: 'apps/v1' },
  { kind: 'Deployment', apiVersion: 'apps/v1' },
];

export interface RunOptions {
  readonly startCluster: StartCluster;
  /** Adapts the started cluster. @default scenarioCluster (watches over its kubeconfig) */
  readonly adapt?: (cluster: TestCluster) => Promise<ScenarioCluster>;
  readonly listener?: RunListener;
  /** Events shown before a violation. @default 20 */
  readonly historySize?: number;
  readonly logLevel?: ClusterOptions['logLevel'];
}

export async function runScenario(
  scenario: Scenario,
  options: RunOptions,
): Promise<ScenarioResult> {
  const wallStart = performance.now();
  const listener = options.listener ?? { record: () => undefined };
  let started: TestCluster;
  try {
    started = await options.startCluster(
      clusterOptions(scenario.cluster, options.logLevel ?? 'silent'),
    );
  } catch (err) {
    return notRun(scenario, 'start', describeError(err), performance.now() - wallStart);
  }
  let cluster: ScenarioCluster | undefined;
  try {
    cluster = await (options.adapt ?? scenarioCluster)(started);
    return await new Run(scenario, cluster, listener, options.historySize ?? 20, wallStart).run();
  } finally {
    await (cluster ?? started).stop();
  }
}

function notRun(
  scenario: Scenario,
  phase: 'start',
  message: string,
  wallMs: number,
): ScenarioResult {
  return {
    name: scenario.name,
    file: scenario.file,
    passed: false,
    error: { phase, message },
    steps: scenario.steps.map((step) => ({
      step,
      status: 'skipped',
      message: 'not run',
      startedAt: 0,
      virtualMs: 0,
      wallMs: 0,
    })),
    invariants: scenario.invariants.map((invariant) => ({
      invariant,
      status: 'skipped',
      checks: 0,
    })),
    startTime: 0,
    virtualMs: 0,
    wallMs,
  };
}

class Run {
  readonly #scenario: Scenario;
  readonly #cluster: ScenarioCluster;
  readonly #listener: RunListener;
  readonly #wallStart: number;
  readonly #engine: InvariantEngine;
  readonly #kinds: KindResolver;
  readonly #watchers: KindWatchers;
  readonly #buffer: EventBuffer;
  /** The cluster as steps see it: moving its clock delivers the events that follow. */
  readonly #actionCluster: ScenarioCluster;
  #t0 = 0;
  #currentStep: Step | undefined;
  #violationStep: number | undefined;

  constructor(
    scenario: Scenario,
    cluster: ScenarioCluster,
    listener: RunListener,
    historySize: number,
    wallStart: number,
  ) {
    this.#scenario = scenario;
    this.#cluster = cluster;
    this.#listener = listener;
    this.#wallStart = wallStart;
    this.#engine = new InvariantEngine(scenario.invariants, { historySize });
    this.#kinds = new KindResolver(cluster.client);
    this.#buffer = new EventBuffer((e) => {
      const { event, violation } = this.#engine.observe(e);
      this.#listener.record({ type: 'event', event });
      this.#onViolation(violation);
    });
    this.#watchers = new KindWatchers(cluster, {
      synced: (key, objects, time) => {
        this.#buffer.flush();
        this.#listener.record({ type: 'sync', key, objects, time });
        this.#onViolation(this.#engine.sync(key, objects, time));
      },
      event: (e) => this.#buffer.push(e),
    });
    // Every movement of time delivers the events it caused, so a long step (a wait, 24
    // hours of random faults) notices a violation at its next look.
    const clock = cluster.clock;
    this.#actionCluster = {
      ...cluster,
      clock: {
        now: () => clock.now(),
        advance: async (d) => {
          await clock.advance(d);
          await this.#deliver();
        },
      },
    };
  }

  /** Lets events already sent reach the watches (two turns of the event loop), then delivers them. */
  async #deliver(): Promise<void> {
    for (let i = 0; i < 2; i++) await new Promise<void>((r) => setImmediate(r));
    this.#buffer.flush();
  }

  #now(): number {
    return this.#cluster.clock.now().getTime();
  }

  #onViolation(v: Violation | undefined): void {
    if (v === undefined) return;
    this.#violationStep = this.#currentStep?.index;
    this.#listener.record({ type: 'violation', violation: v });
  }

  async run(): Promise<ScenarioResult> {
    this.#t0 = this.#now();
    this.#listener.record({
      type: 'scenario-start',
      scenario: this.#scenario,
      startTime: this.#t0,
    });
    const results: StepResult[] = [];
    let failed = false;
    try {
      await this.#watchKinds(true);
      for (const step of this.#scenario.steps) {
        if (failed || this.#engine.violation !== undefined) {
          results.push(this.#skipped(step));
          continue;
        }
        const result = await this.#runStep(step);
        results.push(result);
        failed = result.status === 'failed';
      }
    } finally {
      await this.#watchers.stop();
    }
    const invariants = this.#invariantResults();
    const result: ScenarioResult = {
      name: this.#scenario.name,
      file: this.#scenario.file,
      passed: !failed && invariants.every((i) => i.status !== 'failed'),
      steps: results,
      invariants,
      startTime: this.#t0,
      virtualMs: this.#now() - this.#t0,
      wallMs: performance.now() - this.#wallStart,
    };
    this.#listener.record({ type: 'scenario-end', result });
    return result;
  }

  /** Watches the default kinds, the file's and the invariants'; unknown kinds are retried later. */
  async #watchKinds(first: boolean): Promise<void> {
    const refs = first ? [...DEFAULT_WATCHED_KINDS, ...this.#scenario.watch] : this.#scenario.watch;
    for (const ref of refs) {
      try {
        await this.#watchers.watch(await this.#kinds.resolve(ref));
      } catch {
        // A custom resource whose CRD a later step applies; tried again after each apply.
      }
    }
    for (const invariant of this.#engine.unbound()) {
      try {
        const info = await this.#kinds.resolve(invariant.target);
        await this.#watchers.watch(info);
        this.#onViolation(this.#engine.bind(invariant, resourceKey(info), this.#now()));
      } catch {
        // As above; an invariant whose kind never appears fails at the end.
      }
    }
  }

  #skipped(step: Step): StepResult {
    const why = this.#engine.violation
      ? 'skipped: an invariant was violated'
      : 'skipped: an earlier step failed';
    const result: StepResult = {
      step,
      status: 'skipped',
      message: why,
      startedAt: this.#now() - this.#t0,
      virtualMs: 0,
      wallMs: 0,
    };
    return result;
  }

  async #runStep(step: Step): Promise<StepResult> {
    this.#currentStep = step;
    const start = this.#now();
    const wall = performance.now();
    this.#listener.record({ type: 'step-start', step, time: start });
    const ctx: ActionContext = {
      cluster: this.#actionCluster,
      kinds: this.#kinds,
      note: (text) => this.#listener.record({ type: 'note', step, time: this.#now(), text }),
      stopped: () => this.#engine.violation !== undefined,
    };
    let status: 'passed' | 'failed' = 'passed';
    let message: string | undefined;
    try {
      message = await runStepAction(ctx, step.action);
    } catch (err) {
      status = 'failed';
      message = err instanceof StepFailure ? err.message : `error: ${describeError(err)}`;
    }
    if (!(await this.#watchers.settle())) {
      ctx.note('warning: the watches did not catch up with the cluster within 10s of wall time');
    }
    this.#buffer.flush();
    if (step.action.action === 'apply') await this.#watchKinds(false);
    if (step.name !== undefined) this.#onViolation(this.#engine.stepDone(step.name, this.#now()));
    const result: StepResult = {
      step,
      status,
      ...(message !== undefined ? { message } : {}),
      startedAt: start - this.#t0,
      virtualMs: this.#now() - start,
      wallMs: performance.now() - wall,
    };
    this.#listener.record({ type: 'step-end', result, time: this.#now() });
    this.#currentStep = undefined;
    return result;
  }

  #invariantResults(): InvariantResult[] {
    const history = this.#engine.history();
    const unbound = new Set(this.#engine.unbound());
    return this.#engine.statuses().map((s): InvariantResult => {
      if (s.violation) {
        return {
          invariant: s.invariant,
          status: 'failed',
          checks: s.checks,
          violation: s.violation,
          history,
          ...(this.#violationStep !== undefined ? { duringStep: this.#violationStep } : {}),
        };
      }
      if (unbound.has(s.invariant)) {
        const time = this.#now();
        const message = `the server never served kind ${s.invariant.target.kind}`;
        return {
          invariant: s.invariant,
          status: 'failed',
          checks: 0,
          violation: { invariant: s.invariant, time, message, error: true },
        };
      }
      const notReached = s.checks === 0 && s.invariant.after !== undefined;
      return {
        invariant: s.invariant,
        status: notReached ? 'skipped' : 'passed',
        checks: s.checks,
      };
    });
  }
}
