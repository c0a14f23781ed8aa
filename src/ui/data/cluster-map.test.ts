import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { buildClusterMap, nodeState, pvPin } from './cluster-map.js';
import { change, node, obj, pod, pv } from './fixtures.js';
import { ObjectStore } from './store.js';

function storeOf(...objects: [string, string, ReturnType<typeof obj>][]): ObjectStore {
  const s = new ObjectStore();
  for (const [group, resource, o] of objects) s.apply(change('ADDED', group, resource, o));
  return s;
}

describe('nodeState', () => {
  const cases: [string, Parameters<typeof node>[1], string][] = [
    ['ready', {}, 'Ready'],
    ['cordoned', { unschedulable: true }, 'Cordoned'],
    ['not ready beats cordoned', { ready: false, unschedulable: true }, 'NotReady'],
    [
      'down beats not ready and cordoned',
      { down: true, ready: false, unschedulable: true },
      'Down',
    ],
    ['down while still Ready', { down: true }, 'Down'],
  ];
  for (const [name, opts, want] of cases)
    it(name, () => assert.equal(nodeState(node('n', opts)), want));
});

describe('pvPin', () => {
  const cases: [string, Parameters<typeof pv>[1], unknown][] = [
    ['zone key', { zone: 'a' }, { zone: 'a' }],
    ['legacy EBS zone key', { zone: 'b', zoneKey: 'topology.ebs.csi.aws.com/zone' }, { zone: 'b' }],
    ['hostname (simulated hostpath driver)', { node: 'n1' }, { node: 'n1' }],
    [
      'the real hostpath driver key',
      { node: 'n2', nodeKey: 'topology.hostpath.csi/node' },
      { node: 'n2' },
    ],
    ['no affinity', {}, undefined],
  ];
  for (const [name, opts, want] of cases)
    it(name, () => assert.deepEqual(pvPin(pv('v', opts)), want));
});

describe('buildClusterMap', () => {
  it('places nodes in zones, pods on nodes and disks in their zone or node', () => {
    const s = storeOf(
      ['', 'nodes', node('n1', { zone: 'a' })],
      ['', 'nodes', node('n2', { zone: 'b', down: true })],
      ['', 'nodes', node('bare')],
      ['', 'pods', pod('ns', 'p1', { node: 'n1' })],
      ['', 'pods', pod('ns', 'p2', { node: 'n2', ready: false })],
      ['', 'pods', pod('ns', 'pending')],
      ['', 'persistentvolumes', pv('vz', { zone: 'a', claim: 'ns/data-0' })],
      ['', 'persistentvolumes', pv('vn', { node: 'n2', claim: 'ns/data-1' })],
    );
    const m = buildClusterMap(s);
    assert.deepEqual(
      m.zones.map((z) => [
        z.zone,
        z.nodes.map((n) => `${n.name}:${n.state}:${n.pods.map((p) => p.key).join(',')}`),
        z.pvs.map((v) => v.name),
      ]),
      [
        ['a', ['n1:Ready:ns/p1'], ['vz']],
        ['b', ['n2:Down:ns/p2'], []],
        ['', ['bare:Ready:'], []],
      ],
    );
    assert.deepEqual(
      m.zones[1]?.nodes[0]?.pvs.map((v) => `${v.name} ${v.claim}`),
      ['vn ns/data-1'],
    );
    assert.deepEqual(
      m.unplaced.map((p) => p.key),
      ['ns/pending'],
    );
  });

  it('lists a failing zone even when it has no nodes, and marks it', () => {
    const s = storeOf([
      '',
      'configmaps',
      obj('ConfigMap', 'fleetyard-storage', { namespace: 'kube-system' }),
    ]);
    s.apply(
      change('MODIFIED', '', 'configmaps', {
        ...obj('ConfigMap', 'fleetyard-storage', { namespace: 'kube-system' }),
        data: { 'failing-zones': 'x,y' },
      }),
    );
    assert.deepEqual(
      buildClusterMap(s).zones.map((z) => [z.zone, z.failing]),
      [
        ['x', true],
        ['y', true],
      ],
    );
  });

  it('reuses the boxes of nodes whose node and pods did not change', () => {
    const s = storeOf(
      ['', 'nodes', node('n1', { zone: 'a' })],
      ['', 'nodes', node('n2', { zone: 'a' })],
      ['', 'pods', pod('ns', 'p1', { node: 'n1' })],
    );
    const first = buildClusterMap(s);
    s.apply(change('MODIFIED', '', 'pods', pod('ns', 'p1', { node: 'n1', ready: false })));
    const second = buildClusterMap(s, first);
    const [n1a, n2a] = first.zones[0]?.nodes ?? [];
    const [n1b, n2b] = second.zones[0]?.nodes ?? [];
    assert.notEqual(n1b, n1a);
    assert.equal(n2b, n2a);
    assert.equal(n1b?.pods[0]?.ready, false);
  });

  it('puts every pod exactly once: on its node, or unplaced', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }), { maxLength: 60 }),
        (placement) => {
          const s = new ObjectStore();
          for (let i = 0; i < 4; i++)
            s.apply(change('ADDED', '', 'nodes', node(`n${i}`, { zone: `z${i % 2}` })));
          placement.forEach((n, i) => {
            s.apply(
              change(
                'ADDED',
                '',
                'pods',
                pod('ns', `p${i}`, n === undefined ? {} : { node: `n${n}` }),
              ),
            );
          });
          const m = buildClusterMap(s);
          const placed = m.zones.flatMap((z) => z.nodes.flatMap((n) => n.pods.map((p) => p.key)));
          const all = [...placed, ...m.unplaced.map((p) => p.key)].sort();
          assert.deepEqual(all, placement.map((_, i) => `ns/p${i}`).sort());
          assert.equal(m.unplaced.length, placement.filter((n) => n === undefined || n > 3).length);
        },
      ),
    );
  });
});
