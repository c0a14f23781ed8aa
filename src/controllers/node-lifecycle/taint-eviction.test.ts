/**
 * Tests for NoExecute taint eviction planning: cases after upstream `taint_eviction_test.go`
 * (`TestCreatePod`, `TestUpdateNodeWithMultipleTaints`, `TestGetMinTolerationTime`), the
 * toleration matching rules, and the property that a forever-toleration is never evicted.
 *
 * @module
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Node, Pod } from '../../api/model/index.js';
import { taintEvictionCondition, taintEvictions } from './taint-eviction.js';
import { matchingTolerations, type Taint, type Toleration, toleratesTaint } from './taints.js';

const NOW = Date.parse('2024-06-01T12:00:00Z');
const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

function node(taints: Taint[]): Node {
  return { metadata: { name: 'node1' }, spec: { taints } };
}

function pod(
  name: string,
  tolerations: Toleration[] = [],
  opts: { node?: string; created?: number; terminating?: boolean } = {},
) {
  const p: Pod = {
    metadata: {
      name,
      namespace: 'default',
      creationTimestamp: iso(opts.created ?? NOW - 3_600_000),
      ...(opts.terminating ? { deletionTimestamp: iso(NOW) } : {}),
    },
    spec: { containers: [], nodeName: opts.node ?? 'node1', tolerations },
  };
  return p;
}

const taint = (key: string, value: string, effect = 'NoExecute', addedAgoSec?: number): Taint => ({
  key,
  value,
  effect,
  ...(addedAgoSec === undefined ? {} : { timeAdded: iso(NOW - addedAgoSec * 1000) }),
});
const tol = (key: string, value: string, seconds?: number): Toleration => ({
  key,
  operator: 'Equal',
  value,
  effect: 'NoExecute',
  ...(seconds === undefined ? {} : { tolerationSeconds: seconds }),
});

function names(plan: ReturnType<typeof taintEvictions>) {
  return {
    now: plan.evictNow.map((p) => p.metadata?.name),
    at: plan.evictAt.map((e) => [e.pod.metadata?.name, e.at]),
  };
}

describe('taintEvictions (upstream taint_eviction_test.go)', () => {
  const cases: Array<{
    name: string;
    taints: Taint[];
    pods: Pod[];
    now: string[];
    at: Array<[string, number]>;
  }> = [
    {
      name: 'no NoExecute taint → nothing',
      taints: [taint('k', 'v', 'NoSchedule')],
      pods: [pod('p')],
      now: [],
      at: [],
    },
    {
      name: 'not tolerated → delete now',
      taints: [taint('k', 'v', 'NoExecute', 0)],
      pods: [pod('p')],
      now: ['p'],
      at: [],
    },
    {
      name: 'finite toleration → delete when it runs out from timeAdded',
      taints: [taint('k', 'v', 'NoExecute', 10)],
      pods: [pod('p', [tol('k', 'v', 100)])],
      now: [],
      at: [['p', NOW + 90_000]],
    },
    {
      name: 'finite toleration already run out → delete now',
      taints: [taint('k', 'v', 'NoExecute', 200)],
      pods: [pod('p', [tol('k', 'v', 100)])],
      now: ['p'],
      at: [],
    },
    {
      name: 'infinite toleration → kept',
      taints: [taint('k', 'v', 'NoExecute', 0)],
      pods: [pod('p', [tol('k', 'v')])],
      now: [],
      at: [],
    },
    {
      name: 'toleration for another taint (invalid) → delete now',
      taints: [taint('k', 'v', 'NoExecute', 0)],
      pods: [pod('p', [tol('k2', 'v')])],
      now: ['p'],
      at: [],
    },
    {
      name: 'value mismatch with Equal → delete now',
      taints: [taint('k', 'v', 'NoExecute', 0)],
      pods: [pod('p', [tol('k', 'other')])],
      now: ['p'],
      at: [],
    },
    {
      name: 'multiple taints: the shortest toleration wins',
      taints: [taint('k1', 'v', 'NoExecute', 0), taint('k2', 'v', 'NoExecute', 0)],
      pods: [pod('p', [tol('k1', 'v', 300), tol('k2', 'v', 60)])],
      now: [],
      at: [['p', NOW + 60_000]],
    },
    {
      name: 'multiple taints: one untolerated → delete now',
      taints: [taint('k1', 'v', 'NoExecute', 0), taint('k2', 'v', 'NoExecute', 0)],
      pods: [pod('p', [tol('k1', 'v')])],
      now: ['p'],
      at: [],
    },
    {
      name: 'tolerationSeconds 0 or negative → delete now (getMinTolerationTime)',
      taints: [taint('k', 'v', 'NoExecute', 0)],
      pods: [pod('zero', [tol('k', 'v', 0)]), pod('neg', [tol('k', 'v', -5)])],
      now: ['zero', 'neg'],
      at: [],
    },
    {
      name: 'first matching toleration counts: Exists forever before a finite one → kept',
      taints: [taint('k', 'v', 'NoExecute', 0)],
      pods: [pod('p', [{ operator: 'Exists' }, tol('k', 'v', 5)])],
      now: [],
      at: [],
    },
    {
      name: 'pod bound after the taint: clock starts at binding (creation)',
      taints: [taint('k', 'v', 'NoExecute', 3600)],
      pods: [pod('p', [tol('k', 'v', 300)], { created: NOW - 100_000 })],
      now: [],
      at: [['p', NOW + 200_000]],
    },
    {
      name: 'pods on other nodes and terminating pods are skipped',
      taints: [taint('k', 'v', 'NoExecute', 0)],
      pods: [pod('other', [], { node: 'node2' }), pod('gone', [], { terminating: true })],
      now: [],
      at: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(names(taintEvictions(node(c.taints), c.pods, NOW)), {
        now: c.now,
        at: c.at,
      });
    });
  }

  it('the DisruptionTarget condition carries the upstream reason and message', () => {
    const cond = taintEvictionCondition(NOW);
    assert.equal(cond.reason, 'DeletionByTaintManager');
    assert.equal(cond.message, 'Taint manager: deleting due to NoExecute taint');
    assert.equal(cond.type, 'DisruptionTarget');
    assert.equal(cond.status, 'True');
  });
});

describe('toleratesTaint / matchingTolerations', () => {
  const t: Taint = { key: 'k', value: 'v', effect: 'NoExecute' };
  const cases: Array<[string, Toleration, boolean]> = [
    ['empty key + Exists matches everything', { operator: 'Exists' }, true],
    ['key + Exists ignores value', { key: 'k', operator: 'Exists' }, true],
    ['Equal needs same value', { key: 'k', operator: 'Equal', value: 'v' }, true],
    ['default operator is Equal', { key: 'k', value: 'x' }, false],
    ['effect mismatch', { key: 'k', operator: 'Exists', effect: 'NoSchedule' }, false],
    ['unknown operator tolerates nothing', { key: 'k', operator: 'Lt', value: 'v' }, false],
  ];
  for (const [name, tl, want] of cases) it(name, () => assert.equal(toleratesTaint(tl, t), want));

  it('matchingTolerations returns undefined when a taint is untolerated', () => {
    assert.equal(
      matchingTolerations(
        [t, { key: 'x', effect: 'NoExecute' }],
        [{ key: 'k', operator: 'Exists' }],
      ),
      undefined,
    );
  });
});

describe('taintEvictions: properties', () => {
  const arbTaint = fc.record({
    key: fc.constantFrom(
      'a',
      'b',
      'node.kubernetes.io/unreachable',
      'node.kubernetes.io/not-ready',
    ),
    value: fc.constantFrom('', 'x'),
    effect: fc.constantFrom('NoExecute', 'NoSchedule'),
    timeAdded: fc.integer({ min: -1000, max: 0 }).map((s) => iso(NOW + s * 1000)),
  });
  const arbTol = fc.record(
    {
      key: fc.constantFrom('a', 'b', 'node.kubernetes.io/unreachable'),
      operator: fc.constantFrom('Exists', 'Equal'),
      value: fc.constantFrom('', 'x'),
      effect: fc.constantFrom('NoExecute', ''),
      tolerationSeconds: fc.integer({ min: -5, max: 2000 }),
    },
    { requiredKeys: ['key'] },
  );

  it('a pod whose first matching toleration is forever for every taint is never evicted', () => {
    fc.assert(
      fc.property(
        fc.array(arbTaint, { maxLength: 5 }),
        fc.array(arbTol, { maxLength: 4 }),
        (taints, tols) => {
          const forever: Toleration = { operator: 'Exists' };
          const p = pod('p', [forever, ...tols]);
          const plan = taintEvictions(node(taints), [p], NOW);
          assert.deepEqual(plan, { evictNow: [], evictAt: [] });
        },
      ),
    );
  });

  it('scheduled evictions lie in the future; the plan partitions pods', () => {
    fc.assert(
      fc.property(
        fc.array(arbTaint, { maxLength: 5 }),
        fc.array(fc.array(arbTol, { maxLength: 4 }), { maxLength: 5 }),
        (taints, podTols) => {
          const pods = podTols.map((tl, i) => pod(`p${i}`, tl));
          const plan = taintEvictions(node(taints), pods, NOW);
          for (const e of plan.evictAt) assert.ok(e.at > NOW);
          const all = [...plan.evictNow, ...plan.evictAt.map((e) => e.pod)];
          assert.equal(new Set(all).size, all.length);
          // Only pods with an untolerated or expiring NoExecute taint appear.
          const exec = taints.filter((t) => t.effect === 'NoExecute');
          for (const p of plan.evictNow) {
            const used = matchingTolerations(
              exec,
              (p.spec as { tolerations: Toleration[] }).tolerations,
            );
            assert.ok(used === undefined || used.some((u) => u.tolerationSeconds != null));
          }
        },
      ),
    );
  });
});
