import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { change, node, obj, pv } from './fixtures.js';
import { buildStorage, formatBytes, quantityBytes } from './storage.js';
import { ObjectStore } from './store.js';

describe('quantityBytes', () => {
  const cases: [string, number][] = [
    ['10Gi', 10 * 2 ** 30],
    ['1.5Ti', 1.5 * 2 ** 40],
    ['500M', 5e8],
    ['1e3', 1000],
    ['100', 100],
    ['nonsense', 0],
  ];
  for (const [q, b] of cases) it(`${q} → ${b}`, () => assert.equal(quantityBytes(q), b));
});

describe('formatBytes', () => {
  const cases: [number, string][] = [
    [0, '0 B'],
    [1536, '1.5 KiB'],
    [10 * 2 ** 30, '10 GiB'],
    [200 * 2 ** 30, '200 GiB'],
  ];
  for (const [b, t] of cases) it(`${b} → ${t}`, () => assert.equal(formatBytes(b), t));
});

describe('buildStorage', () => {
  it('sums capacity per zone (node-local volumes in their node’s zone) and lists Lost claims first', () => {
    const s = new ObjectStore();
    s.apply(change('ADDED', '', 'nodes', node('n1', { zone: 'a' })));
    s.apply(change('ADDED', '', 'nodes', node('n2', { zone: 'b' })));
    s.apply(change('ADDED', '', 'persistentvolumes', pv('v1', { zone: 'a', size: '10Gi' })));
    s.apply(
      change(
        'ADDED',
        '',
        'persistentvolumes',
        pv('v2', { zone: 'a', zoneKey: 'topology.ebs.csi.aws.com/zone', size: '5Gi' }),
      ),
    );
    s.apply(change('ADDED', '', 'persistentvolumes', pv('v3', { node: 'n2', size: '1Gi' })));
    const claim = (name: string, phase: string) =>
      obj(
        'PersistentVolumeClaim',
        name,
        { namespace: 'ns' },
        { volumeName: `pv-${name}` },
        { phase },
      );
    s.apply(change('ADDED', '', 'persistentvolumeclaims', claim('a-bound', 'Bound')));
    s.apply(change('ADDED', '', 'persistentvolumeclaims', claim('z-lost', 'Lost')));
    s.apply(change('ADDED', '', 'persistentvolumeclaims', claim('m-pending', 'Pending')));
    const m = buildStorage(s);
    assert.deepEqual(
      m.zones.map((z) => [z.zone, z.bytes / 2 ** 30, z.volumes]),
      [
        ['a', 15, 2],
        ['b', 1, 1],
      ],
    );
    assert.deepEqual(
      m.claims.map((c) => `${c.key}:${c.phase}`),
      ['ns/z-lost:Lost', 'ns/m-pending:Pending', 'ns/a-bound:Bound'],
    );
    assert.deepEqual(
      m.pvs.map((v) => v.pinnedTo),
      ['zone a', 'zone a', 'node n2'],
    );
  });
});
