/**
 * Tests for reference classification and the graph-backed owner lookup (identity = UID plus
 * kind/name/group; namespace rules).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyReferences, graphOwnerLookup, type OwnerStatus } from './classify.js';
import { OwnerGraph } from './graph.js';
import { FOREGROUND_FINALIZER } from './identity.js';
import { obj, ref } from './testing/fixtures.js';

describe('classifyReferences', () => {
  it('sorts refs into solid, dangling and waiting in order', () => {
    const table: Record<string, OwnerStatus> = {
      1: 'exists',
      2: 'absent',
      3: 'deleting-foreground',
      4: 'exists',
    };
    const got = classifyReferences(
      [ref('1'), ref('2'), ref('3'), ref('4')],
      'ns1',
      (r) => table[r.uid] ?? 'absent',
    );
    assert.ok(got.ok);
    assert.deepEqual(
      got.solid.map((r) => r.uid),
      ['1', '4'],
    );
    assert.deepEqual(
      got.dangling.map((r) => r.uid),
      ['2'],
    );
    assert.deepEqual(
      got.waitingForDependentsDeletion.map((r) => r.uid),
      ['3'],
    );
  });

  it('stops at the first ref that cannot be classified', () => {
    const got = classifyReferences([ref('1'), ref('2')], '', (r) =>
      r.uid === '2' ? 'invalid-scope' : 'exists',
    );
    assert.deepEqual(got, { ok: false, status: 'invalid-scope', ref: ref('2') });
  });
});

describe('graphOwnerLookup', () => {
  const graph = OwnerGraph.from([
    obj({ uid: 'rs', kind: 'ReplicaSet', apiVersion: 'apps/v1', name: 'web' }),
    obj({ uid: 'node', kind: 'Node', namespace: '', name: 'n1' }),
    obj({ uid: 'fg', deleting: true, finalizers: [FOREGROUND_FINALIZER] }),
    obj({ uid: 'other-ns', namespace: 'ns2' }),
    obj({ uid: 'dep', owners: [ref('virtual')] }),
  ]);
  const lookup = graphOwnerLookup(graph);
  const rsRef = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs' };
  const cases: Array<{ name: string; r: typeof rsRef; ns: string; want: OwnerStatus }> = [
    { name: 'matching ref', r: rsRef, ns: 'ns1', want: 'exists' },
    {
      name: 'other version of the same group',
      r: { ...rsRef, apiVersion: 'apps/v1beta2' },
      ns: 'ns1',
      want: 'exists',
    },
    {
      name: 'uid known under another kind',
      r: { ...rsRef, kind: 'Deployment' },
      ns: 'ns1',
      want: 'absent',
    },
    {
      name: 'uid known under another group',
      r: { ...rsRef, apiVersion: 'extensions/v1beta1' },
      ns: 'ns1',
      want: 'absent',
    },
    {
      name: 'uid known under another name',
      r: { ...rsRef, name: 'api' },
      ns: 'ns1',
      want: 'absent',
    },
    { name: 'unknown uid', r: { ...rsRef, uid: 'zzz' }, ns: 'ns1', want: 'absent' },
    { name: 'virtual (unobserved) owner', r: ref('virtual'), ns: 'ns1', want: 'absent' },
    {
      name: 'namespaced owner in another namespace',
      r: ref('other-ns'),
      ns: 'ns1',
      want: 'absent',
    },
    {
      name: 'namespaced owner of a cluster-scoped dependent',
      r: rsRef,
      ns: '',
      want: 'invalid-scope',
    },
    {
      name: 'cluster-scoped owner of a namespaced dependent',
      r: { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'node' },
      ns: 'ns1',
      want: 'exists',
    },
    { name: 'owner deleting in foreground', r: ref('fg'), ns: 'ns1', want: 'deleting-foreground' },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(lookup(c.r, c.ns), c.want));
  }
});
