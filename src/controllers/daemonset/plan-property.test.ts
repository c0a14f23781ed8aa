/**
 * Properties of the planner over a simulated cluster: nodes come and go (or get a NoExecute
 * taint), planned pods are created unready and turn ready at random later steps, deleted pods
 * linger as terminating for a while. Then the template changes (a new hash) and a rolling update
 * runs with random readiness. Checked at every step and after convergence:
 * - never two live daemon pods on one node without surge, never more surged nodes than maxSurge;
 * - during the update, never more eligible nodes without an available pod than maxUnavailable;
 * - converged: exactly one pod on every eligible node, none elsewhere, all at the current hash.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { DaemonSet, Node, Pod } from '../../api/model/index.js';
import { isPodReady } from '../replicaset/status.js';
import {
  DAEMONSET_HASH_LABEL,
  nodeShouldRunDaemonPod,
  targetNodeName,
} from './node-eligibility.js';
import { planDaemonSet } from './plan.js';
import { makeDaemonSet, makeNode, makePod, NOW } from './testing/fixtures.js';

type Command =
  | { kind: 'tick'; ready: number[] }
  | { kind: 'addNode' }
  | { kind: 'removeNode'; index: number }
  | { kind: 'taint'; index: number };

class Sim {
  nodes: Node[] = [];
  readonly pods = new Map<string, Pod>();
  hash = 'h1';
  private seq = 0;
  private nodeSeq = 0;

  readonly ds: DaemonSet;

  constructor(ds: DaemonSet, nodeCount: number) {
    this.ds = ds;
    for (let i = 0; i < nodeCount; i++) this.addNode();
  }

  addNode(): void {
    this.nodes.push(makeNode(`n${++this.nodeSeq}`));
  }

  /** A node deleted: PodGC removes its bound pods (the DaemonSet leaves them, as upstream). */
  removeNode(index: number): void {
    const [node] = this.nodes.splice(index % Math.max(1, this.nodes.length), 1);
    for (const [name, pod] of this.pods) {
      if (node !== undefined && pod.spec?.nodeName === node.metadata?.name) this.pods.delete(name);
    }
  }

  /** One disturbance of the churn phase. */
  apply(c: Command): void {
    if (c.kind === 'tick') this.tick(c.ready);
    else if (c.kind === 'addNode') this.addNode();
    else if (c.kind === 'removeNode') this.removeNode(c.index);
    else {
      const node = this.nodes[c.index % Math.max(1, this.nodes.length)];
      if (node !== undefined) node.spec = { taints: [{ key: 'gone', effect: 'NoExecute' }] };
    }
  }

  /** Runs one plan and applies it; returns whether it did anything. */
  sync(): boolean {
    const plan = planDaemonSet({
      ds: this.ds,
      nodes: this.nodes,
      pods: [...this.pods.values()],
      hash: this.hash,
      now: NOW,
    });
    for (const name of plan.deletePods) {
      const pod = this.pods.get(name);
      assert.ok(pod !== undefined, `planned to delete unknown ${name}`);
      assert.ok(!pod.metadata?.deletionTimestamp, `deletes ${name} twice`);
      this.pods.set(name, { ...pod, metadata: { ...pod.metadata, deletionTimestamp: 'x' } });
    }
    for (const node of plan.createNodes) {
      const name = `p${++this.seq}`;
      this.pods.set(
        name,
        makePod(name, node, { hash: this.hash, ready: false, createdAt: NOW + this.seq }),
      );
    }
    return plan.createNodes.length + plan.deletePods.length > 0;
  }

  /** Terminating pods vanish; the pods picked (by index) turn ready. */
  tick(ready: readonly number[]): void {
    for (const [name, pod] of this.pods)
      if (pod.metadata?.deletionTimestamp) this.pods.delete(name);
    const unready = [...this.pods.values()].filter((p) => !isPodReady(p));
    for (const i of ready) {
      const pod = unready[i % Math.max(1, unready.length)];
      if (pod !== undefined) this.pods.set(pod.metadata?.name ?? '', makeReady(pod));
    }
  }

  live(): Pod[] {
    return [...this.pods.values()].filter((p) => !p.metadata?.deletionTimestamp);
  }

  eligible(): string[] {
    return this.nodes
      .filter((n) => nodeShouldRunDaemonPod(n, this.ds).shouldRun)
      .map((n) => n.metadata?.name ?? '');
  }

  perNode(): Map<string, Pod[]> {
    const out = new Map<string, Pod[]>();
    for (const p of this.live()) {
      const node = targetNodeName(p) ?? '';
      out.set(node, [...(out.get(node) ?? []), p]);
    }
    return out;
  }

  /** Syncs with every pod turning ready until a plan does nothing (bounded). */
  converge(): void {
    for (let i = 0; i < 200; i++) {
      this.tick([]);
      for (const [name, pod] of this.pods)
        if (!isPodReady(pod)) this.pods.set(name, makeReady(pod));
      if (!this.sync()) return;
    }
    assert.fail('did not converge in 200 syncs');
  }
}

function makeReady(pod: Pod): Pod {
  return makePod(pod.metadata?.name ?? '', targetNodeName(pod) ?? '', {
    hash: pod.metadata?.labels?.[DAEMONSET_HASH_LABEL] ?? '',
    ready: true,
    createdAt: Date.parse(pod.metadata?.creationTimestamp ?? ''),
  });
}

/** At most `maxUnavailable` eligible nodes without a ready pod, `maxSurge` nodes with two. */
function assertBudgets(sim: Sim, maxUnavailable: number, maxSurge: number): void {
  const per = sim.perNode();
  const unavailable = sim.eligible().filter((n) => !(per.get(n) ?? []).some(isPodReady)).length;
  assert.ok(unavailable <= maxUnavailable, `${unavailable} unavailable > ${maxUnavailable}`);
  const surged = [...per.values()].filter((pods) => pods.length > 1).length;
  assert.ok(surged <= maxSurge, `${surged} surged > ${maxSurge}`);
}

function assertConverged(sim: Sim): void {
  const per = sim.perNode();
  const eligible = new Set(sim.eligible());
  for (const node of eligible) {
    const pods = per.get(node) ?? [];
    assert.equal(pods.length, 1, `node ${node} has ${pods.length} pods`);
    assert.equal(
      pods[0]?.metadata?.labels?.[DAEMONSET_HASH_LABEL],
      sim.hash,
      `node ${node} not updated`,
    );
  }
  for (const [node, pods] of per) {
    if (!eligible.has(node)) assert.equal(pods.length, 0, `pods left on ineligible ${node}`);
  }
}

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .array(fc.nat(20), { maxLength: 4 })
      .map((ready) => ({ kind: 'tick' as const, ready })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'addNode' as const }) },
  { weight: 1, arbitrary: fc.nat(10).map((index) => ({ kind: 'removeNode' as const, index })) },
  { weight: 1, arbitrary: fc.nat(10).map((index) => ({ kind: 'taint' as const, index })) },
);

const strategy = fc.oneof(
  fc.record({ maxUnavailable: fc.integer({ min: 1, max: 3 }), maxSurge: fc.constant(0) }),
  fc.record({ maxUnavailable: fc.constantFrom('20%', '50%', '100%'), maxSurge: fc.constant(0) }),
  fc.record({
    maxUnavailable: fc.constant(0),
    maxSurge: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constant('34%')),
  }),
);

function scaledUp(v: number | string, total: number): number {
  return typeof v === 'number' ? v : Math.ceil((Number.parseInt(v, 10) * total) / 100);
}

describe('planDaemonSet properties', () => {
  it('nodes churn, then a rolling update: budgets hold at every step, every node converges', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        strategy,
        fc.array(command, { maxLength: 25 }),
        fc.array(fc.array(fc.nat(20), { maxLength: 3 }), { maxLength: 40 }),
        (nodeCount, rollingUpdate, churn, readiness) => {
          const ds = makeDaemonSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate } });
          const sim = new Sim(ds, nodeCount);
          const surge = scaledUp(rollingUpdate.maxSurge, 1) > 0;
          const noDoubles = () => {
            if (surge) return;
            for (const [node, pods] of sim.perNode())
              assert.ok(pods.length <= 1, `two pods on ${node}`);
          };
          for (const c of churn) {
            sim.apply(c);
            sim.sync();
            noDoubles();
          }
          sim.converge();
          assertConverged(sim);

          // The rolling update, from a settled state on fixed nodes.
          sim.hash = 'h2';
          const desired = sim.eligible().length;
          const maxSurge = scaledUp(rollingUpdate.maxSurge, desired);
          const maxUnavailable = surge
            ? 0
            : Math.max(1, scaledUp(rollingUpdate.maxUnavailable, desired));
          for (const ready of readiness) {
            sim.sync();
            noDoubles();
            assertBudgets(sim, maxUnavailable, maxSurge);
            sim.tick(ready);
          }
          sim.converge();
          assertConverged(sim);
        },
      ),
      { numRuns: 300 },
    );
  });
});
