/**
 * Upstream's `numFeasibleNodesToFind` (default adaptive percentage) as a table, and the round
 * robin of `findNodesThatPassFilters`: enough feasible nodes found, the next search starting
 * where this one stopped, every node filtered when few pass.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildNodeInfos } from './node-info.js';
import { feasibleNodesToFind, type NodeRotation } from './nodes-to-find.js';
import { feasibleNodes, schedulingContext } from './schedule.js';
import { makeNode, makePod } from './testing/fixtures.js';

describe('feasibleNodesToFind', () => {
  const cases: [nodes: number, toFind: number][] = [
    [0, 0],
    [3, 3],
    [99, 99],
    [100, 100], // 50 % would be 50: never fewer than 100
    [250, 120], // 48 %
    [1000, 420], // 42 %
    [5000, 500], // 10 %
    [6000, 300], // 50 − 48 = 2 %, raised to 5 %
  ];
  for (const [nodes, toFind] of cases) {
    it(`${nodes} nodes → ${toFind}`, () => assert.equal(feasibleNodesToFind(nodes), toFind));
  }
});

describe('feasibleNodes with a rotation', () => {
  const names = (n: number, prefix = 'n') =>
    Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(4, '0')}`);

  it('stops at 420 of 1,000 fitting nodes and starts the next search after them', () => {
    const nodes = buildNodeInfos(
      names(1000).map((n) => makeNode(n)),
      [],
    );
    const ctx = schedulingContext(makePod('p', { cpu: '1' }), nodes);
    const rotation: NodeRotation = { next: 0 };
    const first = feasibleNodes(ctx, { rotation });
    assert.equal(first.feasible.length, 420);
    assert.equal(rotation.next, 420);
    const second = feasibleNodes(ctx, { rotation });
    assert.equal(second.feasible[0]?.name, nodes[420]?.name);
    // 420 + 420 = 840: the third search wraps round to the start.
    feasibleNodes(ctx, { rotation });
    assert.equal(rotation.next, 260);
  });

  it('filters every node when fewer than enough fit, and without a rotation', () => {
    const fitting = names(150, 'fit').map((n) => makeNode(n));
    const small = names(850, 'small').map((n) => makeNode(n, { cpu: '100m' }));
    const nodes = buildNodeInfos([...fitting, ...small], []);
    const ctx = schedulingContext(makePod('p', { cpu: '1' }), nodes);
    const rotation: NodeRotation = { next: 500 };
    const limited = feasibleNodes(ctx, { rotation });
    assert.equal(limited.feasible.length, 150);
    assert.equal(limited.rejected.size, 850);
    assert.equal(rotation.next, 500, 'looked at all 1,000, so back where it started');
    assert.equal(feasibleNodes(ctx).feasible.length, 150);
  });
});
