import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { defaultWorkers, resolveOptions } from './node-config.js';

describe('kubelet workers', () => {
  const cases: { nodes: number; workers?: number; want: number }[] = [
    { nodes: 1, want: 16 },
    { nodes: 2, want: 16 },
    { nodes: 3, want: 24 },
    { nodes: 12, want: 96 },
    { nodes: 32, want: 256 },
    { nodes: 50, want: 256 },
    { nodes: 250, want: 256 },
    { nodes: 50, workers: 4, want: 4 },
  ];
  for (const c of cases) {
    it(`${c.nodes} nodes${c.workers ? `, workers ${c.workers}` : ''} → ${c.want}`, () => {
      const opts = resolveOptions({
        count: c.nodes,
        ...(c.workers !== undefined ? { workers: c.workers } : {}),
      });
      assert.equal(opts.workers, c.want);
    });
  }

  it('grows with the nodes, within 16…256', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 249 }), (n) => {
        const w = defaultWorkers(n);
        assert.ok(w >= 16 && w <= 256);
        assert.ok(defaultWorkers(n + 1) >= w);
      }),
    );
  });
});
