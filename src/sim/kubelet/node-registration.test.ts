import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NodeStatus } from '../../api/model/index.js';
import { resolveOptions } from './node-config.js';
import { healthyConditions, initialNode, mustPostStatus, nodeStatus } from './node-registration.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

describe('resolveOptions', () => {
  it('numbers nodes, zones round-robin, per-node CIDRs', () => {
    const o = resolveOptions({ count: 4, zones: ['x', 'y'], region: 'eu' });
    assert.deepEqual(
      o.nodes.map((n) => [n.name, n.zone, n.ip, n.podCIDR]),
      [
        ['fleetyard-node-1', 'eu-x', '172.18.0.2', '10.244.1.0/24'],
        ['fleetyard-node-2', 'eu-y', '172.18.0.3', '10.244.2.0/24'],
        ['fleetyard-node-3', 'eu-x', '172.18.0.4', '10.244.3.0/24'],
        ['fleetyard-node-4', 'eu-y', '172.18.0.5', '10.244.4.0/24'],
      ],
    );
    assert.equal(o.capacity.pods, '110');
    assert.equal(o.timing.shutdownDelayMs, 0);
    assert.equal(
      resolveOptions({ timing: { shutdownDelayMs: null } }).timing.shutdownDelayMs,
      undefined,
    );
  });
  // 3,001: past MAX_SIMULATED_NODES (the pod CIDRs would leave 10.0.0.0/8); 251 is accepted now.
  for (const count of [0, 3001, 1.5]) {
    it(`refuses count ${count}`, () => assert.throws(() => resolveOptions({ count }), RangeError));
  }
});

describe('node status', () => {
  const opts = resolveOptions({ count: 1 });
  const id = opts.nodes[0]!;

  it('keeps transition times while a condition holds, moves heartbeats', () => {
    const first = healthyConditions(undefined, T0);
    const later = healthyConditions({ conditions: first }, T0 + 10_000);
    for (const c of later) {
      assert.equal(c.lastTransitionTime, '2026-01-01T00:00:00Z');
      assert.equal(c.lastHeartbeatTime, '2026-01-01T00:00:10Z');
    }
    const unknown = first.map((c) => (c.type === 'Ready' ? { ...c, status: 'Unknown' } : c));
    const back = healthyConditions({ conditions: unknown }, T0 + 60_000);
    assert.equal(back.find((c) => c.type === 'Ready')?.lastTransitionTime, '2026-01-01T00:01:00Z');
  });

  it('posts only on change or after the report period', () => {
    const stored = initialNode(id, opts, T0).status;
    const cases: [string, NodeStatus | undefined, number, number | undefined, boolean][] = [
      ['never posted', stored, T0, undefined, true],
      ['heartbeat only', nodeStatus(id, opts, stored, T0 + 10_000), T0 + 10_000, T0, false],
      ['report period passed', nodeStatus(id, opts, stored, T0 + 300_000), T0 + 300_000, T0, true],
      [
        'Ready was set Unknown by the node controller',
        nodeStatus(id, opts, stored, T0 + 10_000),
        T0 + 10_000,
        T0,
        true,
      ],
    ];
    for (const [name, next, now, last, want] of cases) {
      const before = name.startsWith('Ready')
        ? {
            ...stored,
            conditions: (stored?.conditions ?? []).map((c) =>
              c.type === 'Ready' ? { ...c, status: 'Unknown' } : c,
            ),
          }
        : stored;
      assert.equal(mustPostStatus(before, next ?? {}, now, last, 300_000), want, name);
    }
  });
});
