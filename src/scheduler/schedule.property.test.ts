import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Node, Pod } from '../api/model/index.js';
import { buildNodeInfos } from './node-info.js';
import { feasibleNodes, schedule, schedulingContext } from './schedule.js';
import { makeNode, makePod } from './testing/fixtures.js';

const zone = fc.constantFrom('a', 'b', 'c');
const app = fc.constantFrom('web', 'db');

const nodeArb = (i: number) =>
  fc
    .record({
      zone,
      cpu: fc.constantFrom('1', '2', '4'),
      pods: fc.constantFrom('2', '3', '110'),
      tainted: fc.boolean(),
      cordoned: fc.boolean(),
      disk: fc.boolean(),
    })
    .map((o) =>
      makeNode(`n${i}`, {
        labels: o.disk ? { zone: o.zone, disk: 'ssd' } : { zone: o.zone },
        cpu: o.cpu,
        pods: o.pods,
        taints: o.tainted ? [{ key: 'dedicated', effect: 'NoSchedule' }] : undefined,
        unschedulable: o.cordoned && o.tainted,
      }),
    );

const clusterArb = fc.integer({ min: 1, max: 6 }).chain((n) =>
  fc.tuple(
    fc.tuple(...Array.from({ length: n }, (_, i) => nodeArb(i))),
    fc.array(
      fc.record({
        node: fc.integer({ min: 0, max: n - 1 }),
        app,
        cpu: fc.constantFrom('100m', '500m', '1'),
      }),
      {
        maxLength: 8,
      },
    ),
  ),
);

const podArb = fc
  .record({
    app,
    cpu: fc.constantFrom('100m', '1', '3'),
    tolerate: fc.boolean(),
    ssd: fc.boolean(),
    anti: fc.boolean(),
    spread: fc.constantFrom('none', 'DoNotSchedule', 'ScheduleAnyway'),
  })
  .map((o) =>
    makePod('incoming', {
      labels: { app: o.app },
      cpu: o.cpu,
      spec: {
        tolerations: o.tolerate ? [{ key: 'dedicated', operator: 'Exists' }] : undefined,
        affinity: {
          nodeAffinity: o.ssd
            ? {
                preferredDuringSchedulingIgnoredDuringExecution: [
                  {
                    weight: 5,
                    preference: { matchExpressions: [{ key: 'disk', operator: 'Exists' }] },
                  },
                ],
              }
            : undefined,
          podAntiAffinity: o.anti
            ? {
                requiredDuringSchedulingIgnoredDuringExecution: [
                  {
                    labelSelector: { matchLabels: { app: o.app } },
                    topologyKey: 'kubernetes.io/hostname',
                  },
                ],
              }
            : undefined,
        },
        topologySpreadConstraints:
          o.spread === 'none'
            ? undefined
            : [
                {
                  maxSkew: 1,
                  topologyKey: 'zone',
                  whenUnsatisfiable: o.spread,
                  labelSelector: { matchLabels: { app: o.app } },
                },
              ],
      },
    }),
  );

function boundPods(
  nodes: readonly Node[],
  specs: { node: number; app: string; cpu: string }[],
): Pod[] {
  return specs.map((s, i) =>
    makePod(`b${i}`, {
      node: nodes[s.node]?.metadata?.name ?? '',
      labels: { app: s.app },
      cpu: s.cpu,
      phase: 'Running',
    }),
  );
}

describe('schedule properties', () => {
  it('a chosen node passes every filter; unschedulable means no node does', () => {
    fc.assert(
      fc.property(
        clusterArb,
        podArb,
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        ([nodes, specs], pod, r) => {
          const bound = boundPods(nodes, specs);
          const result = schedule(pod, nodes, bound, { random: () => r });
          const ctx = schedulingContext(pod, buildNodeInfos(nodes, bound));
          const feasible = feasibleNodes(ctx).feasible.map((n) => n.name);
          if ('node' in result)
            assert.ok(feasible.includes(result.node), `${result.node} not in ${feasible}`);
          else assert.deepEqual(feasible, []);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the result does not depend on node or pod order', () => {
    fc.assert(
      fc.property(
        clusterArb,
        podArb,
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        fc.integer(),
        ([nodes, specs], pod, r, seed) => {
          const bound = boundPods(nodes, specs);
          const shuffled = [...nodes].sort(() => 0).reverse();
          const rotated = shuffled.map(
            (_, i) => shuffled[(i + Math.abs(seed)) % shuffled.length] ?? makeNode('missing'),
          );
          const a = schedule(pod, nodes, bound, { random: () => r });
          const b = schedule(pod, rotated, [...bound].reverse(), { random: () => r });
          assert.deepEqual(a, b);
        },
      ),
      { numRuns: 300 },
    );
  });
});
