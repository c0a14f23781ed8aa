/**
 * `filterOneNode` agrees with `feasibleNodes` on every node of random clusters (taints,
 * cordons, node selectors, host ports, anti-affinity, topology spread, capacity), so the
 * plugin list copied from `schedule.ts` cannot drift unnoticed.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Pod } from '../../api/model/index.js';
import { buildNodeInfos } from '../node-info.js';
import { feasibleNodes, schedulingContext } from '../schedule.js';
import { makeNode, makePod } from '../testing/fixtures.js';
import { filterOneNode } from './node-filter.js';

const nodeArb = (i: number) =>
  fc
    .record({
      zone: fc.constantFrom('a', 'b'),
      cpu: fc.constantFrom('1', '2'),
      tainted: fc.boolean(),
      cordoned: fc.boolean(),
      disk: fc.boolean(),
    })
    .map((o) =>
      makeNode(`n${i}`, {
        labels: o.disk ? { zone: o.zone, disk: 'ssd' } : { zone: o.zone },
        cpu: o.cpu,
        pods: '4',
        taints: o.tainted ? [{ key: 'dedicated', effect: 'NoSchedule' }] : undefined,
        unschedulable: o.cordoned,
      }),
    );

const clusterArb = fc.integer({ min: 1, max: 5 }).chain((n) =>
  fc.tuple(
    fc.tuple(...Array.from({ length: n }, (_, i) => nodeArb(i))),
    fc.array(
      fc.record({
        node: fc.integer({ min: 0, max: n - 1 }),
        app: fc.constantFrom('web', 'db'),
        cpu: fc.constantFrom('100m', '500m', '1'),
        port: fc.boolean(),
      }),
      { maxLength: 8 },
    ),
  ),
);

const incomingArb = fc
  .record({
    app: fc.constantFrom('web', 'db'),
    cpu: fc.constantFrom('100m', '1', '2'),
    tolerate: fc.boolean(),
    ssd: fc.boolean(),
    anti: fc.boolean(),
    spread: fc.boolean(),
    port: fc.boolean(),
  })
  .map((o) =>
    makePod('incoming', {
      labels: { app: o.app },
      cpu: o.cpu,
      spec: {
        containers: [
          {
            name: 'c',
            resources: { requests: { cpu: o.cpu } },
            ...(o.port ? { ports: [{ containerPort: 80, hostPort: 8080 }] } : {}),
          },
        ],
        ...(o.ssd ? { nodeSelector: { disk: 'ssd' } } : {}),
        tolerations: o.tolerate ? [{ key: 'dedicated', operator: 'Exists' }] : undefined,
        affinity: o.anti
          ? {
              podAntiAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: [
                  { labelSelector: { matchLabels: { app: o.app } }, topologyKey: 'zone' },
                ],
              },
            }
          : undefined,
        topologySpreadConstraints: o.spread
          ? [
              {
                maxSkew: 1,
                topologyKey: 'zone',
                whenUnsatisfiable: 'DoNotSchedule',
                labelSelector: { matchLabels: { app: o.app } },
              },
            ]
          : undefined,
      },
    }),
  );

describe('filterOneNode', () => {
  it('gives each node the status feasibleNodes gives it', () => {
    fc.assert(
      fc.property(clusterArb, incomingArb, ([nodes, specs], pod) => {
        const bound: Pod[] = specs.map((s, i) =>
          makePod(`b${i}`, {
            node: nodes[s.node]?.metadata?.name ?? '',
            labels: { app: s.app },
            phase: 'Running',
            spec: {
              containers: [
                {
                  name: 'c',
                  resources: { requests: { cpu: s.cpu } },
                  ...(s.port ? { ports: [{ containerPort: 80, hostPort: 8080 }] } : {}),
                },
              ],
            },
          }),
        );
        const ctx = schedulingContext(pod, buildNodeInfos(nodes, bound));
        const { rejected } = feasibleNodes(ctx);
        for (const node of ctx.nodes) {
          assert.deepEqual(filterOneNode(ctx, node), rejected.get(node.name) ?? null, node.name);
        }
      }),
      { numRuns: 300 },
    );
  });
});
