/**
 * The placement rule of `planRelease` (issue 14, item 8), as a fast-check property over a small
 * simulated cluster: zones of nodes, node-local or zonal disks, Strict placement, a fleet created
 * and then driven through scale-in and growth sequences and hand-deleted kept claims, with an
 * adversarial scheduler (any pending pod, any node its rules allow, in any order).
 *
 * The simulation models what the rule relies on, as upstream implements it: the StatefulSet
 * creates every missing pod below `replicas` (gated, with a Pending WaitForFirstConsumer claim
 * when it has none) and deletes the pods above; the scheduler honours the gate, the required
 * node affinity (the exclusions), host anti-affinity (one member per node), a kept disk's place
 * (its node, or its zone), and the zone spread (`maxSkew: 1`, `DoNotSchedule`, `minDomains` =
 * zones, counting only pods on nodes the pod's affinity admits, and a minimum of 0 when fewer
 * domains than `minDomains` remain); a pod it cannot place is marked Unschedulable and retried
 * whenever the cluster changes. A fresh disk is made on the node its pod lands on.
 *
 * Properties, checked after every step of every sequence:
 * - a fresh disk is never made on the node of a node-local kept disk (any ordinal);
 * - liveness: whenever a growth could be completed by some scheduling order, every wanted
 *   member placed with every kept disk reattached (an exhaustive search from the state the
 *   growth started in, with the same rules and no exclusions), the fleet converges to that.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { planScale } from './plan.js';
import { planRelease } from './release.js';
import type { ClaimFacts, MemberPodFacts, NodeFacts } from './types.js';

type Scope = 'node' | 'zone';

interface Node {
  readonly name: string;
  readonly zone: string;
}
interface Pod {
  gated: boolean;
  node?: string;
  unschedulable: boolean;
  excluded: readonly string[];
}
interface Disk {
  node?: string;
}
interface World {
  readonly scope: Scope;
  readonly zones: readonly string[];
  readonly nodes: readonly Node[];
  replicas: number;
  desired: number;
  readonly pods: Map<number, Pod>;
  /** Claims of the fleet: a disk with a node is bound (the disk exists there). */
  readonly disks: Map<number, Disk>;
  /** Violations of the safety property seen so far. */
  readonly violations: string[];
}

const zoneOf = (w: World, node: string) => w.nodes.find((n) => n.name === node)?.zone;

/** A choice source: fast-check's numbers first, then 0 forever. */
function chooser(choices: readonly number[]) {
  let i = 0;
  return (n: number) => (n <= 1 ? 0 : (choices[i++] ?? 0) % n);
}

// --- the operator (the code under test) and the StatefulSet ----------------------------------

function operatorStep(w: World): boolean {
  const placed = [...w.pods.values()].filter((p) => p.node !== undefined).length;
  const plan = planScale({
    setName: 'f',
    desired: w.desired,
    templateConverged: true,
    claims: [...w.disks.keys()].map((ordinal) => ({ ordinal, ours: true, terminating: false })),
    set: {
      specReplicas: w.replicas,
      generation: 1,
      observedGeneration: 1,
      replicas: w.pods.size,
      readyReplicas: placed,
      updatedReplicas: w.pods.size,
      currentRevision: 'r',
      updateRevision: 'r',
    },
  });
  let changed = false;
  if (plan.replicas !== undefined && plan.replicas !== w.replicas) {
    w.replicas = plan.replicas;
    changed = true;
  }
  const release = planRelease({
    setName: 'f',
    replicas: w.replicas,
    mode: 'Strict',
    diskScope: w.scope,
    zones: w.zones,
    members: memberFacts(w),
    claims: claimFactsOf(w),
    nodes: w.nodes.map((n): NodeFacts => ({ ...n, eligible: true })),
  });
  for (const r of release.releases) {
    const pod = w.pods.get(r.ordinal);
    if (pod === undefined || !pod.gated) continue;
    pod.gated = false;
    pod.excluded = r.excludeNodes;
    changed = true;
  }
  return changed;
}

function memberFacts(w: World): MemberPodFacts[] {
  return [...w.pods].map(([ordinal, p]) => ({
    ordinal,
    gated: p.gated,
    terminating: false,
    placement: p.node ? 'scheduled' : p.unschedulable ? 'unschedulable' : 'awaiting',
    ...(p.node ? { node: p.node } : {}),
  }));
}

function claimFactsOf(w: World): ClaimFacts[] {
  return [...w.disks].map(([ordinal, d]) => ({
    ordinal,
    ours: true,
    terminating: false,
    bound: d.node !== undefined,
    ...(d.node ? { node: d.node } : {}),
  }));
}

function statefulSetStep(w: World): boolean {
  let changed = false;
  for (const o of [...w.pods.keys()]) {
    if (o >= w.replicas) {
      w.pods.delete(o);
      changed = true;
    }
  }
  for (let o = 0; o < w.replicas; o++) {
    if (w.pods.has(o)) continue;
    w.pods.set(o, { gated: true, unschedulable: false, excluded: [] });
    if (!w.disks.has(o)) w.disks.set(o, {});
    changed = true;
  }
  return changed;
}

// --- the scheduler -----------------------------------------------------------------------------

interface Placement {
  readonly node: (n: string) => string | undefined;
  readonly disk: (o: number) => Disk | undefined;
}

/** The nodes pod `o` may go to now, by the rules in the module note. */
function feasible(w: World, at: Placement, o: number, excluded: readonly string[]): string[] {
  const admitted = w.nodes.filter((n) => !excluded.includes(n.name));
  const count = new Map(w.zones.map((z) => [z, 0]));
  for (const n of admitted) {
    if (at.node(n.name) !== undefined) count.set(n.zone, (count.get(n.zone) ?? 0) + 1);
  }
  const domains = new Set(admitted.map((n) => n.zone));
  const min =
    domains.size < w.zones.length ? 0 : Math.min(...[...domains].map((z) => count.get(z) ?? 0));
  const disk = at.disk(o);
  return admitted
    .filter((n) => at.node(n.name) === undefined)
    .filter((n) => (count.get(n.zone) ?? 0) + 1 - min <= 1)
    .filter((n) => {
      if (disk?.node === undefined) return true;
      return w.scope === 'node' ? n.name === disk.node : n.zone === zoneOf(w, disk.node);
    })
    .map((n) => n.name);
}

function placementOf(w: World): Placement {
  const byNode = new Map<string, string>();
  for (const [o, p] of w.pods) if (p.node) byNode.set(p.node, String(o));
  return { node: (n) => byNode.get(n), disk: (o) => w.disks.get(o) };
}

/** Places one pending pod (chosen by `pick`), or marks every unplaceable one; false when idle. */
function schedulerStep(w: World, pick: (n: number) => number): boolean {
  const at = placementOf(w);
  const pending = [...w.pods].filter(([, p]) => !p.gated && p.node === undefined);
  const options = pending.map(([o, p]) => ({ o, p, nodes: feasible(w, at, o, p.excluded) }));
  let changed = false;
  for (const { p, nodes } of options) {
    if (nodes.length === 0 && !p.unschedulable) {
      p.unschedulable = true;
      changed = true;
    }
  }
  const placeable = options.filter((x) => x.nodes.length > 0);
  if (placeable.length === 0) return changed;
  const { o, p, nodes } = placeable[pick(placeable.length)]!;
  const node = nodes[pick(nodes.length)]!;
  const disk = w.disks.get(o) ?? {};
  if (disk.node === undefined && w.scope === 'node') checkFresh(w, o, node);
  p.node = node;
  p.unschedulable = false;
  if (disk.node === undefined) w.disks.set(o, { node });
  return true;
}

/** Safety: a fresh disk never lands on the node of another ordinal's node-local kept disk. */
function checkFresh(w: World, ordinal: number, node: string): void {
  for (const [o, d] of w.disks) {
    if (o !== ordinal && d.node === node) {
      w.violations.push(
        `fresh disk of member ${ordinal} made on ${node}, the node of kept disk ${o}`,
      );
    }
  }
}

function settle(w: World, pick: (n: number) => number): void {
  for (let i = 0; i < 500; i++) {
    const a = operatorStep(w);
    const b = statefulSetStep(w);
    const c = schedulerStep(w, pick);
    if (!a && !b && !c) return;
  }
  assert.fail('the simulation did not settle in 500 steps');
}

// --- the oracle: could any order place everyone? --------------------------------------------

/**
 * From the pods placed now, can members `0..target-1` all be placed by the scheduler's rules in
 * some order, fresh disks never on another ordinal's node-local kept disk? Exhaustive, memoised.
 */
function completable(w: World, target: number): boolean {
  const fixed = new Map<number, string>();
  for (const [o, p] of w.pods) if (o < target && p.node) fixed.set(o, p.node);
  const reserved = new Set(
    w.scope === 'node' ? [...w.disks.values()].flatMap((d) => (d.node ? [d.node] : [])) : [],
  );
  const seen = new Set<string>();
  /** The placements one more member could make from `placed`. */
  const moves = (placed: Map<number, string>): Array<[number, string]> => {
    const byNode = new Map([...placed].map(([o, n]) => [n, String(o)]));
    const at: Placement = { node: (n) => byNode.get(n), disk: (o) => w.disks.get(o) };
    const out: Array<[number, string]> = [];
    for (let o = 0; o < target; o++) {
      if (placed.has(o)) continue;
      const kept = w.disks.get(o)?.node !== undefined;
      for (const node of feasible(w, at, o, []))
        if (kept || !reserved.has(node)) out.push([o, node]);
    }
    return out;
  };
  const search = (placed: Map<number, string>): boolean => {
    if (placed.size === target) return true;
    const key = [...placed].sort(([a], [b]) => a - b).join(';');
    if (seen.has(key)) return false;
    seen.add(key);
    return moves(placed).some(([o, node]) => search(new Map([...placed, [o, node]])));
  };
  return search(fixed);
}

// --- the property ------------------------------------------------------------------------------

type Step = { kind: 'scale'; to: number } | { kind: 'delete-claim'; pick: number };

function buildWorld(scope: Scope, zoneCount: number, perZone: readonly number[]): World {
  const zones = ['a', 'b', 'c'].slice(0, zoneCount);
  const nodes: Node[] = [];
  zones.forEach((zone, i) => {
    for (let k = 0; k < (perZone[i] ?? 1); k++) nodes.push({ name: `n-${zone}${k}`, zone });
  });
  return {
    scope,
    zones,
    nodes,
    replicas: 0,
    desired: 0,
    pods: new Map(),
    disks: new Map(),
    violations: [],
  };
}

/** Applies one user step: a new target, or deleting a removed member's kept claim by hand. */
function apply(w: World, step: Step): void {
  if (step.kind === 'scale') {
    w.desired = step.to;
    return;
  }
  const removed = [...w.disks.keys()].filter((o) => !w.pods.has(o));
  const o = removed[step.pick % Math.max(removed.length, 1)];
  if (o !== undefined) w.disks.delete(o);
}

function allPlaced(w: World): boolean {
  for (let o = 0; o < w.desired; o++) if (w.pods.get(o)?.node === undefined) return false;
  return true;
}

interface Run {
  scope: Scope;
  zones: number;
  perZone: number[];
  steps: Step[];
  choices: number[];
  /** Growths known to be completable (the search is skipped): larger worlds. */
  completable?: boolean;
}

/** Runs the steps on a new world, checking both properties after each. */
function check(r: Run) {
  const w = buildWorld(r.scope, r.zones, r.perZone);
  const pick = chooser(r.choices);
  for (const step of r.steps) {
    // Liveness is the growth's (a contraction waits for a full roll-out by design).
    const growth = step.kind === 'scale' && step.to >= w.replicas;
    apply(w, step);
    const possible = growth && (r.completable ?? completable(w, w.desired));
    settle(w, pick);
    assert.deepEqual(w.violations, []);
    if (possible) assert.ok(allPlaced(w), `after ${JSON.stringify(step)}: ${describeWorld(w)}`);
  }
}

const topology = {
  scope: fc.constantFrom<Scope>('node', 'zone'),
  zones: fc.integer({ min: 1, max: 3 }),
  perZone: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 3, maxLength: 3 }),
  choices: fc.array(fc.nat({ max: 1000 }), { maxLength: 300 }),
};
const scaleArb = fc.record({
  kind: fc.constant('scale' as const),
  to: fc.integer({ min: 0, max: 6 }),
});
const deleteArb = fc.record({ kind: fc.constant('delete-claim' as const), pick: fc.nat() });

describe('planRelease: a fresh disk never takes the place a kept disk needs', () => {
  it('any sequence of scale steps and hand-deleted kept claims', () => {
    const arb = fc.record({
      ...topology,
      start: scaleArb,
      rest: fc.array(fc.oneof(scaleArb, deleteArb), { minLength: 1, maxLength: 5 }),
    });
    fc.assert(
      fc.property(arb, (r) => check({ ...r, steps: [r.start, ...r.rest] })),
      { numRuns: 1000 },
    );
  });

  it('the issue’s shape: grow, shrink (claims kept), delete some kept claims, grow again', () => {
    const arb = fc.record({
      ...topology,
      up: fc.integer({ min: 1, max: 6 }),
      down: fc.integer({ min: 0, max: 5 }),
      deletes: fc.array(deleteArb, { maxLength: 2 }),
      again: fc.integer({ min: 1, max: 6 }),
    });
    fc.assert(
      fc.property(arb, (r) => {
        const steps: Step[] = [
          { kind: 'scale', to: r.up },
          { kind: 'scale', to: Math.min(r.down, r.up) },
          ...r.deletes,
          { kind: 'scale', to: r.again },
        ];
        check({ ...r, steps });
      }),
      { numRuns: 1000 },
    );
  });

  it('the issue’s case: 5 → 3 on node-local disks, claim 3 deleted, 3 → 6 over six nodes', () => {
    const steps: Step[] = [
      { kind: 'scale', to: 5 },
      { kind: 'scale', to: 3 },
      { kind: 'delete-claim', pick: 0 },
      { kind: 'scale', to: 6 },
    ];
    fc.assert(
      fc.property(topology.choices, (choices) =>
        check({ scope: 'node', zones: 3, perZone: [2, 2, 2], choices, steps }),
      ),
      { numRuns: 300 },
    );
  });

  it('a kept member held by the spread: fresh members fill the other zones, not its own', () => {
    // 9 → 3 keeps disks 3..8 (3 and 6 in zone a); claims 4 and 5 deleted; 3 → 9. Member 6 can
    // go to zone a only after b and c caught up, so a fresh member must not fill a's free node.
    const steps: Step[] = [
      { kind: 'scale', to: 9 },
      { kind: 'scale', to: 3 },
      { kind: 'delete-claim', pick: 1 },
      { kind: 'delete-claim', pick: 1 },
      { kind: 'scale', to: 9 },
    ];
    for (const scope of ['zone', 'node'] as const) {
      fc.assert(
        fc.property(topology.choices, (choices) =>
          check({ scope, zones: 3, perZone: [3, 3, 3], choices, steps, completable: true }),
        ),
        { numRuns: 150 },
      );
    }
  });
});

function describeWorld(w: World): string {
  const pods = [...w.pods].map(
    ([o, p]) => `${o}:${p.gated ? 'gated' : (p.node ?? (p.unschedulable ? 'unsched' : 'pending'))}`,
  );
  const disks = [...w.disks].map(([o, d]) => `${o}@${d.node ?? 'pending'}`);
  return `scope=${w.scope} nodes=${w.nodes.map((n) => n.name).join(',')} replicas=${w.replicas} desired=${w.desired} pods=[${pods.join(' ')}] disks=[${disks.join(' ')}]`;
}
