import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Pod } from '../api/model/index.js';
import { buildNodeInfos } from './node-info.js';
import { scheduleOnNodeInfos } from './schedule.js';
import { SchedulerCache } from './scheduler-cache.js';
import { makeNode, makePod } from './testing/fixtures.js';

/** Drops zero amounts: a resource requested and then released reads as 0, not absent. */
function nonZero(m: ReadonlyMap<string, bigint> | undefined): Map<string, bigint> {
  return new Map([...(m ?? [])].filter(([, v]) => v !== 0n));
}

function requestedCpu(cache: SchedulerCache, node: string): bigint {
  return cache.nodeInfo(node)?.requested.get('cpu') ?? 0n;
}

type Op =
  | { kind: 'bind' | 'assume'; pod: number; node: number; cpu: number }
  | { kind: 'delete' | 'forget' | 'finish'; pod: number };

/** What the cache should hold: the bound and assumed pods, each with its node. */
interface Model {
  readonly pods: Map<string, Pod>;
  readonly assumed: Set<string>;
}

function applyOp(cache: SchedulerCache, model: Model, o: Op): void {
  const name = `p${o.pod}`;
  const key = `default/${name}`;
  switch (o.kind) {
    case 'bind': {
      const pod = makePod(name, { node: `n${o.node}`, cpu: `${o.cpu}m` });
      cache.setPod(pod);
      model.pods.set(name, pod);
      model.assumed.delete(name);
      return;
    }
    case 'assume':
      if (model.pods.has(name)) return;
      cache.assumePod(makePod(name, { cpu: `${o.cpu}m` }), `n${o.node}`);
      model.pods.set(name, makePod(name, { node: `n${o.node}`, cpu: `${o.cpu}m` }));
      model.assumed.add(name);
      return;
    case 'delete':
      cache.removePod(makePod(name));
      model.pods.delete(name);
      model.assumed.delete(name);
      return;
    case 'forget':
      cache.forgetPod(key);
      if (model.assumed.delete(name)) model.pods.delete(name);
      return;
    case 'finish':
      cache.finishBinding(key);
  }
}

describe('SchedulerCache', () => {
  it('counts an assumed pod against its node until the binding is forgotten', () => {
    const cache = new SchedulerCache();
    cache.setNode(makeNode('n1', { cpu: '1' }));
    const pod = makePod('a', { cpu: '600m' });
    assert.equal(cache.assumePod(pod, 'n1'), true);
    assert.equal(requestedCpu(cache, 'n1'), 600n);
    assert.equal(cache.isAssumed('default/a'), true);
    assert.equal(cache.assumePod(pod, 'n1'), false, 'an assumed pod is not assumed twice');
    cache.forgetPod('default/a');
    assert.equal(requestedCpu(cache, 'n1'), 0n);
    assert.equal(cache.nodeOf('default/a'), undefined);
  });

  it('replaces an assumed pod with the bound version the informer delivers', () => {
    const cache = new SchedulerCache();
    cache.setNode(makeNode('n1'));
    cache.assumePod(makePod('a', { cpu: '500m' }), 'n1');
    cache.finishBinding('default/a');
    cache.setPod(makePod('a', { cpu: '500m', node: 'n1' }));
    assert.equal(cache.isAssumed('default/a'), false);
    assert.equal(requestedCpu(cache, 'n1'), 500n, 'counted once');
    assert.equal(cache.nodeInfo('n1')?.pods.length, 1);
    cache.forgetPod('default/a');
    assert.equal(requestedCpu(cache, 'n1'), 500n, 'a confirmed pod is not forgotten');
  });

  it('frees terminal and deleted pods', () => {
    const cache = new SchedulerCache();
    cache.setNode(makeNode('n1'));
    cache.setPod(makePod('a', { cpu: '1', node: 'n1' }));
    cache.setPod(makePod('b', { cpu: '1', node: 'n1' }));
    cache.setPod(makePod('a', { cpu: '1', node: 'n1', phase: 'Succeeded' }));
    cache.removePod(makePod('b'));
    assert.equal(requestedCpu(cache, 'n1'), 0n);
    assert.equal(cache.nodeInfo('n1')?.pods.length, 0);
  });

  it('keeps pods of an unknown node and counts them once the node appears', () => {
    const cache = new SchedulerCache();
    cache.setPod(makePod('a', { cpu: '1', node: 'late' }));
    assert.equal(cache.nodeInfos().length, 0);
    cache.setNode(makeNode('late'));
    assert.equal(cache.nodeInfos().length, 1);
    assert.equal(requestedCpu(cache, 'late'), 1000n);
    cache.removeNode('late');
    assert.equal(cache.nodeInfos().length, 0);
  });

  it('lists pods with affinity apart', () => {
    const cache = new SchedulerCache();
    cache.setNode(makeNode('n1'));
    const anti = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: { app: 'x' } }, topologyKey: 'kubernetes.io/hostname' },
        ],
      },
    };
    cache.setPod(makePod('plain', { node: 'n1' }));
    cache.setPod(makePod('anti', { node: 'n1', spec: { affinity: anti } }));
    const info = cache.nodeInfo('n1');
    assert.deepEqual(
      info?.podsWithAffinity?.map((p) => p.metadata?.name),
      ['anti'],
    );
    assert.deepEqual(
      info?.podsWithRequiredAntiAffinity?.map((p) => p.metadata?.name),
      ['anti'],
    );
  });

  it('matches a full rebuild after any sequence of changes', () => {
    const placed = {
      pod: fc.integer({ min: 0, max: 6 }),
      node: fc.integer({ min: 0, max: 2 }),
      cpu: fc.integer({ min: 0, max: 900 }),
    };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constantFrom('bind' as const, 'assume' as const), ...placed }),
      fc.record({
        kind: fc.constantFrom('delete' as const, 'forget' as const, 'finish' as const),
        pod: fc.integer({ min: 0, max: 6 }),
      }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const cache = new SchedulerCache();
        const nodes = [0, 1, 2].map((i) => makeNode(`n${i}`, { cpu: '2' }));
        for (const n of nodes) cache.setNode(n);
        const model: Model = { pods: new Map(), assumed: new Set() };
        for (const o of ops) applyOp(cache, model, o);
        for (const want of buildNodeInfos(nodes, [...model.pods.values()])) {
          const got = cache.nodeInfo(want.name);
          assert.deepEqual(nonZero(got?.requested), nonZero(want.requested));
          assert.deepEqual(nonZero(got?.nonZeroRequested), nonZero(want.nonZeroRequested));
          assert.deepEqual(
            got?.pods.map((p) => p.metadata?.name).sort(),
            want.pods.map((p) => p.metadata?.name).sort(),
          );
        }
      }),
    );
  });

  it('never lets assumed pods overcommit a node in a burst', () => {
    const cache = new SchedulerCache();
    for (const n of ['n1', 'n2', 'n3']) cache.setNode(makeNode(n, { cpu: '1' }));
    let placed = 0;
    for (let i = 0; i < 50; i++) {
      const pod = makePod(`p${i}`, { cpu: '300m' });
      const result = scheduleOnNodeInfos(pod, cache.nodeInfos());
      if ('node' in result) {
        cache.assumePod(pod, result.node);
        placed++;
      }
    }
    assert.equal(placed, 9, '3 pods of 300m fit into each 1-cpu node');
    for (const n of ['n1', 'n2', 'n3']) assert.ok(requestedCpu(cache, n) <= 1000n);
  });
});
