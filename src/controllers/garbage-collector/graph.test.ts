/**
 * Tests for the owner graph: virtual owners, incremental updates, queue hints, and the
 * owners/dependents index invariant under random event sequences.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { OwnerGraph } from './graph.js';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from './identity.js';
import { obj, ref } from './testing/fixtures.js';

/** Every ref of an observed node is mirrored in its owner's dependents, and nothing else is. */
function assertIndexConsistent(graph: OwnerGraph): void {
  for (const node of graph.nodes()) {
    for (const r of node.owners) {
      assert.ok(
        graph.get(r.uid)?.dependents.has(node.identity.uid),
        `${r.uid} lists ${node.identity.uid}`,
      );
    }
    for (const d of node.dependents) {
      const dep = graph.get(d);
      assert.ok(dep?.observed && dep.owners.some((r) => r.uid === node.identity.uid));
    }
    if (!node.observed) assert.ok(node.dependents.size > 0, `virtual ${node.identity.uid} pruned`);
  }
}

describe('OwnerGraph', () => {
  it('creates a virtual owner from the ref, then replaces it when observed', () => {
    const graph = new OwnerGraph();
    const changes = graph.upsert(
      obj({ uid: 'p', owners: [ref('rs', { kind: 'ReplicaSet', apiVersion: 'apps/v1' })] }),
    );
    assert.deepEqual(changes.attemptToDelete, ['p']); // unverified owner: classify the dependent
    const virtual = graph.get('rs');
    assert.equal(virtual?.observed, false);
    assert.deepEqual(virtual?.identity, {
      uid: 'rs',
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      name: 'rs',
      namespace: 'ns1',
    });
    const seen = graph.upsert(obj({ uid: 'rs', kind: 'ReplicaSet', apiVersion: 'apps/v1' }));
    assert.deepEqual(seen.attemptToDelete, []);
    assert.equal(graph.get('rs')?.observed, true);
    assert.deepEqual([...(graph.get('rs')?.dependents ?? [])], ['p']);
  });

  it('observing a virtual owner under another kind re-queues the dependents that named it', () => {
    const graph = new OwnerGraph();
    graph.upsert(
      obj({ uid: 'p', owners: [ref('x', { kind: 'ReplicaSet', apiVersion: 'apps/v1' })] }),
    );
    const changes = graph.upsert(obj({ uid: 'x', kind: 'ConfigMap' }));
    assert.deepEqual(changes.attemptToDelete, ['p']);
  });

  it('a dependent added to an owner in another namespace is queued', () => {
    const graph = OwnerGraph.from([obj({ uid: 'o', namespace: 'ns2' })]);
    const changes = graph.upsert(obj({ uid: 'p', namespace: 'ns1', owners: [ref('o')] }));
    assert.deepEqual(changes.attemptToDelete, ['p']);
  });

  it('owner refs changes move the dependent between owners and prune virtual nodes', () => {
    const graph = OwnerGraph.from([
      obj({ uid: 'a' }),
      obj({ uid: 'p', owners: [ref('a'), ref('ghost')] }),
    ]);
    graph.upsert(obj({ uid: 'p', owners: [ref('b')] }));
    assert.equal(graph.get('ghost'), undefined);
    assert.deepEqual([...(graph.get('a')?.dependents ?? [])], []);
    assert.deepEqual([...(graph.get('b')?.dependents ?? [])], ['p']);
    assertIndexConsistent(graph);
  });

  it('dropping or unblocking a blocking ref queues the owner (addUnblockedOwnersToDeleteQueue)', () => {
    const graph = OwnerGraph.from([
      obj({ uid: 'o1' }),
      obj({ uid: 'o2' }),
      obj({
        uid: 'p',
        owners: [ref('o1', { blockOwnerDeletion: true }), ref('o2', { blockOwnerDeletion: true })],
      }),
    ]);
    const changes = graph.upsert(
      obj({ uid: 'p', owners: [ref('o2', { blockOwnerDeletion: false })] }),
    );
    assert.deepEqual(changes.attemptToDelete, ['o1', 'o2']);
  });

  it('deletion starting with orphan / foreground finalizers queues the right worker once', () => {
    const graph = OwnerGraph.from([obj({ uid: 'o' }), obj({ uid: 'p', owners: [ref('o')] })]);
    const orphan = obj({ uid: 'o', deleting: true, finalizers: [ORPHAN_FINALIZER] });
    assert.deepEqual(graph.upsert(orphan), { attemptToDelete: [], attemptToOrphan: ['o'] });
    assert.deepEqual(graph.upsert(orphan), { attemptToDelete: [], attemptToOrphan: [] });
    const g2 = OwnerGraph.from([obj({ uid: 'o' }), obj({ uid: 'p', owners: [ref('o')] })]);
    const fg = obj({ uid: 'o', deleting: true, finalizers: [FOREGROUND_FINALIZER] });
    assert.deepEqual(g2.upsert(fg), { attemptToDelete: ['o', 'p'], attemptToOrphan: [] });
  });

  it('remove queues dependents and foreground owners, and keeps a virtual node for dependents', () => {
    const graph = OwnerGraph.from([
      obj({ uid: 'o', deleting: true, finalizers: [FOREGROUND_FINALIZER] }),
      obj({ uid: 'rs', owners: [ref('o', { blockOwnerDeletion: true })] }),
      obj({ uid: 'pod', owners: [ref('rs')] }),
    ]);
    assert.deepEqual(graph.remove('rs').attemptToDelete, ['o', 'pod']);
    assert.equal(graph.get('rs')?.observed, false);
    assert.deepEqual([...(graph.get('o')?.dependents ?? [])], []);
    assertIndexConsistent(graph);
    graph.remove('pod');
    assert.equal(graph.get('rs'), undefined);
    assert.deepEqual(graph.remove('nope'), { attemptToDelete: [], attemptToOrphan: [] });
  });

  it('rejects objects without a UID', () => {
    assert.throws(() => new OwnerGraph().upsert({ metadata: { name: 'x' } }), /no metadata.uid/);
  });

  it('keeps the index consistent under random upsert/remove sequences', () => {
    const uids = ['a', 'b', 'c', 'd'];
    const event = fc.oneof(
      fc.record({
        op: fc.constant('upsert' as const),
        uid: fc.constantFrom(...uids),
        owners: fc.array(fc.constantFrom(...uids), { maxLength: 3 }),
      }),
      fc.record({ op: fc.constant('remove' as const), uid: fc.constantFrom(...uids) }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        const graph = new OwnerGraph();
        for (const e of events) {
          if (e.op === 'remove') graph.remove(e.uid);
          else graph.upsert(obj({ uid: e.uid, owners: [...new Set(e.owners)].map((u) => ref(u)) }));
          assertIndexConsistent(graph);
        }
      }),
    );
  });
});
