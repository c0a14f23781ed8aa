/**
 * Property: a simulated cluster runs many syncs of the planner while the set is scaled, its
 * template changed and pods fail; planned pods become Running+Ready some steps after creation and
 * deleted pods vanish some steps later. Every plan is checked against the StatefulSet guarantees,
 * and after the disturbances stop the set must converge.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { PersistentVolumeClaim, Pod, StatefulSet } from '../../api/model/index.js';
import { formatTime } from '../../api/time.js';
import { ordinalInSet } from './identity.js';
import { type Plan, planStatefulSet, statusOf } from './plan.js';
import { isRunningAndReady, isUnavailable, podRevision } from './plan-spec.js';
import { maxUnavailableOf } from './plan-update.js';
import { makeSet, NOW } from './testing/plan-fixtures.js';

const STEP_MS = 1000;

interface Config {
  policy: 'OrderedReady' | 'Parallel';
  gate: boolean;
  start: number;
  partition: number;
  maxUnavailable: number | string;
  minReadySeconds: number;
  readyDelays: number[];
  goneDelay: number;
}

type Command =
  | { kind: 'tick' }
  | { kind: 'scale'; replicas: number }
  | { kind: 'template' }
  | { kind: 'fail'; index: number };

interface SimPod {
  pod: Pod;
  createdAt: number;
  readyDelay: number;
  deletedAt?: number;
  failed?: boolean;
}

class Cluster {
  step = 0;
  created = 0;
  replicas = 0;
  revision = 1;
  currentRevision = 'r1';
  statusCurrent = 0;
  readonly pods = new Map<string, SimPod>();
  readonly claims = new Map<string, PersistentVolumeClaim>();
  readonly cfg: Config;

  constructor(cfg: Config) {
    this.cfg = cfg;
  }

  get now(): number {
    return NOW + this.step * STEP_MS;
  }

  set(): StatefulSet {
    const set = makeSet({
      replicas: this.replicas,
      start: this.cfg.start,
      policy: this.cfg.policy,
      partition: this.cfg.partition,
      maxUnavailable: this.cfg.maxUnavailable,
      minReadySeconds: this.cfg.minReadySeconds,
      claims: ['data'],
      image: `nginx:${this.revision}`,
      currentReplicas: this.statusCurrent,
    });
    return set;
  }

  /** The pod as the API would show it at the current step. */
  observed(p: SimPod): Pod {
    const age = this.step - p.createdAt;
    const failed = p.failed === true;
    const ready = !failed && age >= p.readyDelay;
    const meta = { ...p.pod.metadata };
    if (p.deletedAt !== undefined) meta.deletionTimestamp = formatTime(NOW + p.deletedAt * STEP_MS);
    const readySince = NOW + (p.createdAt + p.readyDelay) * STEP_MS;
    return {
      ...p.pod,
      metadata: meta,
      status: {
        phase: failed ? 'Failed' : ready ? 'Running' : 'Pending',
        conditions: [
          {
            type: 'Ready',
            status: ready ? 'True' : 'False',
            lastTransitionTime: formatTime(readySince),
          },
        ],
      },
    };
  }

  input() {
    const set = this.set();
    return {
      set,
      pods: [...this.pods.values()].map((p) => this.observed(p)),
      currentRevision: this.currentRevision,
      updateRevision: `r${this.revision}`,
      claims: [...this.claims.values()],
      now: this.now,
      gates: { maxUnavailableStatefulSet: this.cfg.gate },
    };
  }

  sync(): Plan {
    const input = this.input();
    const plan = planStatefulSet(input);
    checkPlan(this, input.set, input.pods, plan);
    for (const a of plan.actions) this.apply(a);
    const status = statusOf(input, plan);
    this.currentRevision = status.currentRevision;
    this.statusCurrent = status.currentReplicas;
    return plan;
  }

  apply(a: Plan['actions'][number]): void {
    if (a.type === 'createClaim') this.claims.set(a.claim.metadata?.name ?? '', a.claim);
    if (a.type === 'createPod') {
      const name = a.pod.metadata?.name ?? '';
      const readyDelay = this.cfg.readyDelays[this.created++ % this.cfg.readyDelays.length] ?? 1;
      this.pods.set(name, {
        pod: { ...a.pod, metadata: { ...a.pod.metadata, uid: `u${this.created}` } },
        createdAt: this.step,
        readyDelay,
      });
    }
    if (a.type === 'deletePod') {
      const p = this.pods.get(a.podName);
      if (p && p.deletedAt === undefined) p.deletedAt = this.step;
    }
  }

  tick(): void {
    this.step++;
    for (const [name, p] of this.pods) {
      if (p.deletedAt !== undefined && this.step - p.deletedAt >= this.cfg.goneDelay)
        this.pods.delete(name);
    }
  }
}

function ordinal(set: StatefulSet, pod: Pod): number {
  return ordinalInSet(set.metadata?.name ?? '', pod.metadata?.name ?? '');
}

interface Seen {
  c: Cluster;
  set: StatefulSet;
  pods: Pod[];
  byName: Map<string, Pod>;
}

/** No pod is created over a live namesake; OrderedReady: only after every predecessor is Ready. */
function checkCreate(s: Seen, pod: Pod): void {
  const name = pod.metadata?.name ?? '';
  const { start } = s.c.cfg;
  assert.ok(!s.byName.has(name), `created ${name} while a pod of that ordinal exists`);
  const o = ordinal(s.set, pod);
  assert.ok(o >= start && o < start + s.c.replicas, `created ${name} outside the range`);
  if (s.c.cfg.policy !== 'OrderedReady') return;
  for (let po = start; po < o; po++) {
    const p = s.byName.get(`web-${po}`);
    assert.ok(
      p !== undefined && isRunningAndReady(p),
      `created ${name} before web-${po} was Ready`,
    );
  }
}

/** OrderedReady: a condemned pod goes only once every higher ordinal is gone. */
function checkCondemned(s: Seen, podName: string): void {
  if (s.c.cfg.policy !== 'OrderedReady') return;
  const o = ordinalInSet('web', podName);
  for (const p of s.pods) {
    assert.ok(ordinal(s.set, p) <= o, `deleted ${podName} before ${p.metadata?.name} was gone`);
  }
}

/**
 * Unavailable in-range members (missing ones count) plus this sync's update deletions stay within
 * maxUnavailable (1 without the gate). Upstream's gate-off Parallel path does not promise this
 * (it waits only for pods ABOVE the target), so it is not checked there.
 */
function checkUpdateBudget(s: Seen, deletes: number): void {
  const { cfg, replicas } = s.c;
  if (deletes === 0 || (cfg.policy !== 'OrderedReady' && !cfg.gate)) return;
  const max = cfg.gate ? maxUnavailableOf(cfg.maxUnavailable, replicas) : 1;
  let unavailable = 0;
  for (let o = cfg.start; o < cfg.start + replicas; o++) {
    const p = s.byName.get(`web-${o}`);
    if (p === undefined || isUnavailable(p, cfg.minReadySeconds, s.c.now)) unavailable++;
  }
  assert.ok(
    unavailable + deletes <= max,
    `${unavailable} unavailable + ${deletes} deleted > ${max}`,
  );
}

/** The guarantees of one plan against the pods it saw. */
function checkPlan(c: Cluster, set: StatefulSet, pods: Pod[], plan: Plan): void {
  const s: Seen = { c, set, pods, byName: new Map(pods.map((p) => [p.metadata?.name ?? '', p])) };
  let updateDeletes = 0;
  for (const a of plan.actions) {
    if (a.type === 'createPod') checkCreate(s, a.pod);
    if (a.type === 'deletePod' && a.reason === 'Condemned') checkCondemned(s, a.podName);
    if (a.type === 'deletePod' && a.reason === 'Update') updateDeletes++;
  }
  checkUpdateBudget(s, updateDeletes);
}

/** Runs syncs with no disturbance: 400 steps is far more than 6 pods × (4 + 3) steps need. */
function settle(c: Cluster): void {
  for (let i = 0; i < 400; i++) {
    c.sync();
    c.tick();
  }
}

function run(c: Cluster, cmd: Command): void {
  if (cmd.kind === 'scale') c.replicas = cmd.replicas;
  if (cmd.kind === 'template') c.revision++;
  if (cmd.kind === 'fail') {
    const p = c.pods.get(`web-${cmd.index}`);
    if (p) p.failed = true;
  }
  c.sync();
  c.tick();
}

/** Exactly the range, all Ready, at the update revision from the partition up, with claims. */
function checkConverged(c: Cluster): void {
  const { start, partition } = c.cfg;
  const set = c.set();
  const pods = [...c.pods.values()].map((p) => c.observed(p));
  const ordinals = pods.map((p) => ordinal(set, p)).sort((a, b) => a - b);
  const want = Array.from({ length: c.replicas }, (_, i) => start + i);
  assert.deepEqual(ordinals, want);
  assert.ok(pods.every((p) => isRunningAndReady(p)));
  const update = `r${c.revision}`;
  for (const p of pods) {
    if (ordinal(set, p) - start >= partition) assert.equal(podRevision(p), update);
  }
  if (partition === 0 && c.replicas > 0) assert.equal(c.currentRevision, update);
  for (const o of want) assert.ok(c.claims.has(`data-web-${o}`), `claim of web-${o}`);
}

const configArb = fc.record({
  policy: fc.constantFrom('OrderedReady' as const, 'Parallel' as const),
  gate: fc.boolean(),
  start: fc.integer({ min: 0, max: 2 }),
  partition: fc.integer({ min: 0, max: 2 }),
  maxUnavailable: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constantFrom('25%', '50%', '100%')),
  minReadySeconds: fc.constantFrom(0, 1, 2),
  readyDelays: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 6 }),
  goneDelay: fc.integer({ min: 1, max: 3 }),
});

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'tick' as const }) },
  {
    weight: 2,
    arbitrary: fc
      .integer({ min: 0, max: 5 })
      .map((replicas) => ({ kind: 'scale' as const, replicas })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'template' as const }) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 0, max: 6 }).map((index) => ({ kind: 'fail' as const, index })),
  },
);

describe('planStatefulSet over simulated syncs', () => {
  it('keeps the ordering, identity and availability guarantees and converges', () => {
    fc.assert(
      fc.property(configArb, fc.array(commandArb, { maxLength: 40 }), (cfg, commands) => {
        const c = new Cluster(cfg);
        c.replicas = 3;
        for (const cmd of commands) run(c, cmd);
        settle(c);
        checkConverged(c);
      }),
      { numRuns: 150 },
    );
  });
});
