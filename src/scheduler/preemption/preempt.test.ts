/**
 * The PostFilter decision over real filters (`preempt`): eligibility, per-node statuses and
 * upstream's `preemption: …` messages, the node chosen, and the nominated-pods view.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Node, Pod } from '../../api/model/index.js';
import { fitErrorWithPostFilter } from '../fit-error.js';
import { buildNodeInfos } from '../node-info.js';
import { feasibleNodes, schedulingContext } from '../schedule.js';
import { makeNode, makePod } from '../testing/fixtures.js';
import { Nominator } from './nominator.js';
import { type PreemptResult, preempt } from './preempt.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');

function bound(name: string, node: string, priority: number, cpu: string): Pod {
  return makePod(name, { node, cpu, spec: { priority }, phase: 'Running' });
}

function run(
  pod: Pod,
  nodes: Node[],
  pods: Pod[],
  terminating: (p: Pod) => boolean = () => false,
): { result: PreemptResult; message: string } {
  const infos = buildNodeInfos(nodes, pods);
  const { rejected } = feasibleNodes(schedulingContext(pod, infos));
  const result = preempt({
    pod,
    nodes: infos,
    rejected,
    pdbs: [],
    now: NOW,
    terminatingByPreemption: terminating,
  });
  const post = 'message' in result ? result.message : '';
  return { result, message: fitErrorWithPostFilter(infos.length, [...rejected.values()], post) };
}

const high = (o: { policy?: 'Never'; nominated?: string } = {}) => {
  const p = makePod('high', {
    cpu: '2',
    spec: { priority: 1000, ...(o.policy ? { preemptionPolicy: o.policy } : {}) },
  });
  if (o.nominated !== undefined) p.status = { phase: 'Pending', nominatedNodeName: o.nominated };
  return p;
};

describe('preempt', () => {
  it('picks the node whose victims matter least and names them', () => {
    const nodes = [makeNode('n1', { cpu: '2' }), makeNode('n2', { cpu: '2' })];
    const pods = [
      bound('a', 'n1', 500, '2'),
      bound('b', 'n2', 100, '1'),
      bound('c', 'n2', 100, '1'),
    ];
    const { result, message } = run(high(), nodes, pods);
    assert.ok('preempt' in result);
    assert.equal(result.preempt.node, 'n2');
    assert.deepEqual(result.preempt.victims.map((p) => p.metadata?.name).sort(), ['b', 'c']);
    assert.equal(message, '0/2 nodes are available: 2 Insufficient cpu.');
  });

  const failures: Array<[string, Pod, Node[], Pod[], string]> = [
    [
      'preemptionPolicy Never',
      high({ policy: 'Never' }),
      [makeNode('n1', { cpu: '2' })],
      [bound('a', 'n1', 0, '2')],
      '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.',
    ],
    [
      'no lower-priority pods, and a node preemption cannot help',
      high(),
      [
        makeNode('n1', { cpu: '2' }),
        makeNode('n2', { taints: [{ key: 'x', effect: 'NoSchedule' }] }),
      ],
      [bound('a', 'n1', 1000, '2')],
      '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {x: }. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.',
    ],
    [
      'does not fit even without every lower-priority pod',
      high(),
      [makeNode('n1', { cpu: '3' })],
      [bound('a', 'n1', 1000, '2'), bound('b', 'n1', 0, '1')],
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 Insufficient cpu.',
    ],
  ];
  for (const [name, pod, nodes, pods, want] of failures) {
    it(name, () => {
      const { result, message } = run(pod, nodes, pods);
      assert.ok('message' in result);
      assert.equal(message, want);
    });
  }

  it('waits while an earlier victim on the nominated node terminates', () => {
    const victim = bound('v', 'n1', 0, '2');
    const { result, message } = run(
      high({ nominated: 'n1' }),
      [makeNode('n1', { cpu: '2' })],
      [victim],
      (p) => p === victim || p.metadata?.name === 'v',
    );
    assert.ok('message' in result);
    assert.equal(result.clearNomination, false);
    assert.match(
      message,
      /preemption: not eligible due to a terminating pod on the nominated node\.$/,
    );
  });

  it('clears the nomination when no node has victims', () => {
    const { result } = run(high({ nominated: 'n1' }), [makeNode('n1', { cpu: '1' })], []);
    assert.ok('message' in result);
    assert.equal(result.clearNomination, true);
  });
});

describe('Nominator', () => {
  it('shows nominated pods of equal or higher priority only, and drops gone ones', () => {
    const nominator = new Nominator();
    const n1 = makeNode('n1', { cpu: '2' });
    const infos = buildNodeInfos([n1], []);
    nominator.nominate(makePod('big', { cpu: '2', spec: { priority: 100 } }), 'n1');
    const low = makePod('low', { cpu: '1', spec: { priority: 10 } });
    const peer = makePod('peer', { cpu: '1', spec: { priority: 100 } });
    const seen = (p: Pod, pending = true) =>
      nominator.withNominatedPods(p, infos, () => pending)[0]?.pods.map((x) => x.metadata?.name);
    assert.deepEqual(seen(low), ['big']);
    assert.deepEqual(seen(peer), ['big']);
    assert.deepEqual(seen(makePod('big', { spec: { priority: 100 } })), []);
    assert.deepEqual(seen(low, false), []);
    assert.equal(nominator.nominatedNode('default/big'), undefined);
  });
});
