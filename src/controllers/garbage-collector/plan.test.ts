/**
 * Tests for the per-item plan: upstream `attemptToDeleteItem` decisions (classifyReferences
 * cases), foreground and orphan processing, `TestOrphanDependentsFailure`, and properties.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject } from '../../api/object.js';
import { graphOwnerLookup, type OwnerLookup, type OwnerStatus } from './classify.js';
import { OwnerGraph } from './graph.js';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from './identity.js';
import { type GcAction, planForObject } from './plan.js';
import { obj, ref, World } from './testing/fixtures.js';

/** A lookup that answers from a fixed table (default `absent`), like a fake API server. */
function fixedLookup(table: Record<string, OwnerStatus>): OwnerLookup {
  return (r) => table[r.uid] ?? 'absent';
}

/** Actions with identities reduced to UIDs, for compact expectations. */
function brief(actions: GcAction[]): unknown[] {
  return actions.map((a) => {
    switch (a.kind) {
      case 'delete':
        return ['delete', a.target.uid, a.propagation];
      case 'patchOwnerRefs':
        return ['patch', a.target.uid, a.remove];
      case 'unblockOwnerRefs':
        return ['unblock', a.target.uid, a.uids];
      case 'removeFinalizer':
        return ['removeFinalizer', a.target.uid, a.finalizer];
      case 'orphanDependents':
        return ['orphan', a.owner.uid, a.dependents.map((d) => d.uid)];
      default:
        return ['wait', a.target.uid, a.reason];
    }
  });
}

describe('planForObject: dependent not being deleted (attemptToDeleteItem)', () => {
  const cases: Array<{
    name: string;
    objects: KubeObject[];
    lookup: Record<string, OwnerStatus>;
    want: unknown[];
  }> = [
    {
      name: 'no ownerReferences: nothing to do',
      objects: [obj({ uid: 'p' })],
      lookup: {},
      want: [],
    },
    {
      name: 'single absent owner (TestAttemptToDeleteItem): background delete',
      objects: [obj({ uid: 'p', owners: [ref('123', { kind: 'ReplicationController' })] })],
      lookup: { '123': 'absent' },
      want: [['delete', 'p', 'Background']],
    },
    {
      name: 'all owners solid: nothing to do',
      objects: [obj({ uid: 'p', owners: [ref('1'), ref('2')] })],
      lookup: { '1': 'exists', '2': 'exists' },
      want: [],
    },
    {
      name: 'solid + dangling: patch the dangling ref away, no delete',
      objects: [obj({ uid: 'p', owners: [ref('1'), ref('2'), ref('3')] })],
      lookup: { '1': 'exists', '2': 'absent', '3': 'absent' },
      want: [['patch', 'p', ['2', '3']]],
    },
    {
      name: 'solid + waiting: the waiting ref is patched away too (upstream)',
      objects: [obj({ uid: 'p', owners: [ref('1'), ref('2')] })],
      lookup: { '1': 'exists', '2': 'deleting-foreground' },
      want: [['patch', 'p', ['2']]],
    },
    {
      name: 'waiting owner, item without dependents: policy from its finalizers (Background)',
      objects: [obj({ uid: 'p', owners: [ref('1', { blockOwnerDeletion: true })] })],
      lookup: { '1': 'deleting-foreground' },
      want: [['delete', 'p', 'Background']],
    },
    {
      name: 'waiting owner, item with dependents: recursive foreground',
      objects: [
        obj({ uid: 'rs', owners: [ref('d', { blockOwnerDeletion: true })] }),
        obj({ uid: 'pod', owners: [ref('rs', { blockOwnerDeletion: true })] }),
      ],
      lookup: { d: 'deleting-foreground', rs: 'exists' },
      want: [['delete', 'rs', 'Foreground']],
    },
    {
      name: 'dangling + waiting, no dependents: deleted (no solid owner)',
      objects: [obj({ uid: 'p', owners: [ref('1'), ref('2')] })],
      lookup: { '1': 'absent', '2': 'deleting-foreground' },
      want: [['delete', 'p', 'Background']],
    },
    {
      name: 'existing orphan finalizer is honoured',
      objects: [obj({ uid: 'p', owners: [ref('1')], finalizers: [ORPHAN_FINALIZER] })],
      lookup: {},
      want: [['delete', 'p', 'Orphan']],
    },
    {
      name: 'existing foreground finalizer is honoured',
      objects: [obj({ uid: 'p', owners: [ref('1')], finalizers: [FOREGROUND_FINALIZER] })],
      lookup: {},
      want: [['delete', 'p', 'Foreground']],
    },
    {
      name: 'owner read failed: retry later, no delete',
      objects: [obj({ uid: 'p', owners: [ref('1'), ref('2')] })],
      lookup: { '1': 'absent', '2': 'unavailable' },
      want: [['wait', 'p', 'owner-lookup-unavailable']],
    },
    {
      name: 'cluster-scoped item with namespaced owner: never collected',
      objects: [obj({ uid: 'pv', namespace: '', owners: [ref('1')] })],
      lookup: { '1': 'invalid-scope' },
      want: [['wait', 'pv', 'namespaced-owner-of-cluster-scoped']],
    },
    {
      name: 'item being deleted without GC finalizer: left to its own finalizers',
      objects: [obj({ uid: 'p', owners: [ref('1')], deleting: true, finalizers: ['x/y'] })],
      lookup: {},
      want: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const graph = OwnerGraph.from(c.objects);
      const uid = c.objects[0]?.metadata?.uid as string;
      assert.deepEqual(brief(planForObject(uid, graph, fixedLookup(c.lookup))), c.want);
    });
  }

  it('delete carries UID and resourceVersion preconditions', () => {
    const graph = OwnerGraph.from([obj({ uid: 'p', owners: [ref('1')], resourceVersion: '42' })]);
    const [action] = planForObject('p', graph, fixedLookup({}));
    assert.deepEqual(action, {
      kind: 'delete',
      target: { uid: 'p', apiVersion: 'v1', kind: 'Pod', name: 'p', namespace: 'ns1' },
      propagation: 'Background',
      preconditionUid: 'p',
      preconditionResourceVersion: '42',
    });
  });

  it('unknown and virtual UIDs plan nothing', () => {
    const graph = OwnerGraph.from([obj({ uid: 'p', owners: [ref('ghost')] })]);
    assert.deepEqual(planForObject('nope', graph, fixedLookup({})), []);
    assert.deepEqual(planForObject('ghost', graph, fixedLookup({})), []);
  });
});

describe('planForObject: cycle breaking', () => {
  it('unblocks own refs before foreground delete when a dependent is deleting dependents', () => {
    // a → b → c → a (each ref blocking); a is in foreground deletion, b is being planned.
    const graph = OwnerGraph.from([
      obj({
        uid: 'a',
        owners: [ref('c', { blockOwnerDeletion: true })],
        deleting: true,
        finalizers: [FOREGROUND_FINALIZER],
      }),
      obj({ uid: 'b', owners: [ref('a', { blockOwnerDeletion: true })] }),
      obj({ uid: 'c', owners: [ref('b', { blockOwnerDeletion: true })] }),
    ]);
    const lookup = graphOwnerLookup(graph);
    // c: owner b exists → solid, nothing.
    assert.deepEqual(brief(planForObject('c', graph, lookup)), []);
    // a's plan covers its blocking dependent b: owner a waiting, b has dependent c (not deleting).
    assert.deepEqual(brief(planForObject('a', graph, lookup)), [
      ['delete', 'b', 'Foreground'],
      ['wait', 'a', 'blocking-dependents'],
    ]);
  });

  it('a dependent whose own dependent deletes in foreground gets unblocked', () => {
    const graph = OwnerGraph.from([
      obj({
        uid: 'b',
        owners: [ref('a', { blockOwnerDeletion: true })],
        deleting: true,
        finalizers: [FOREGROUND_FINALIZER],
      }),
      obj({ uid: 'c', owners: [ref('b', { blockOwnerDeletion: true }), ref('x')] }),
      obj({
        uid: 'a',
        owners: [ref('c', { blockOwnerDeletion: true })],
        deleting: true,
        finalizers: [FOREGROUND_FINALIZER],
      }),
    ]);
    const lookup = fixedLookup({ b: 'deleting-foreground', x: 'absent' });
    assert.deepEqual(brief(planForObject('c', graph, lookup)), [
      ['unblock', 'c', ['b']],
      ['delete', 'c', 'Foreground'],
    ]);
  });
});

describe('planForObject: owner in foreground deletion (processDeletingDependentsItem)', () => {
  it('no blocking dependents: remove the finalizer', () => {
    const graph = OwnerGraph.from([
      obj({ uid: 'o', deleting: true, finalizers: [FOREGROUND_FINALIZER] }),
      obj({ uid: 'p', owners: [ref('o')] }), // non-blocking: does not hold the owner
    ]);
    assert.deepEqual(brief(planForObject('o', graph, graphOwnerLookup(graph))), [
      ['removeFinalizer', 'o', FOREGROUND_FINALIZER],
    ]);
  });

  it('blocking dependents: delete those not yet deleting, then wait for all', () => {
    const graph = OwnerGraph.from([
      obj({ uid: 'o', deleting: true, finalizers: [FOREGROUND_FINALIZER] }),
      obj({ uid: 'p1', owners: [ref('o', { blockOwnerDeletion: true })] }),
      obj({
        uid: 'p2',
        owners: [ref('o', { blockOwnerDeletion: true })],
        deleting: true,
        finalizers: ['k'],
      }),
      obj({ uid: 'p3', owners: [ref('o', { blockOwnerDeletion: true }), ref('keep')] }),
      obj({ uid: 'keep' }),
    ]);
    const plan = planForObject('o', graph, graphOwnerLookup(graph));
    assert.deepEqual(brief(plan), [
      ['delete', 'p1', 'Background'],
      ['patch', 'p3', ['o']], // p3 has a solid owner: only the waiting ref goes
      ['wait', 'o', 'blocking-dependents'],
    ]);
    const wait = plan.at(-1);
    assert.ok(wait?.kind === 'wait');
    assert.deepEqual(wait.on, ['p1', 'p2', 'p3']);
  });
});

describe('planForObject: owner with orphan finalizer', () => {
  it('orphans every dependent, then removes the finalizer', () => {
    const graph = OwnerGraph.from([
      obj({ uid: 'o', deleting: true, finalizers: [ORPHAN_FINALIZER] }),
      obj({ uid: 'p1', owners: [ref('o')] }),
      obj({ uid: 'p2', owners: [ref('o', { blockOwnerDeletion: true }), ref('x')] }),
    ]);
    assert.deepEqual(brief(planForObject('o', graph, graphOwnerLookup(graph))), [
      ['orphan', 'o', ['p1', 'p2']],
      ['removeFinalizer', 'o', ORPHAN_FINALIZER],
    ]);
  });

  it('no dependents: just remove the finalizer', () => {
    const graph = OwnerGraph.from([
      obj({ uid: 'o', deleting: true, finalizers: [ORPHAN_FINALIZER] }),
    ]);
    assert.deepEqual(brief(planForObject('o', graph, graphOwnerLookup(graph))), [
      ['removeFinalizer', 'o', ORPHAN_FINALIZER],
    ]);
  });

  it('TestOrphanDependentsFailure: a failed dependent patch keeps the finalizer', () => {
    const world = new World([
      obj({ uid: 'o', deleting: true, finalizers: [ORPHAN_FINALIZER] }),
      obj({ uid: 'pod', owners: [ref('o')] }),
    ]);
    world.fail = (a) => a.kind === 'orphanDependents'; // the PATCH answers 409
    const result = world.apply(planForObject('o', world.graph, graphOwnerLookup(world.graph)));
    assert.equal(result.failed, true);
    assert.deepEqual(world.objects.get('o')?.metadata?.finalizers, [ORPHAN_FINALIZER]);
    assert.deepEqual(world.objects.get('pod')?.metadata?.ownerReferences, [ref('o')]);
    // Retry succeeds: pod keeps running without the ref, owner goes.
    world.fail = () => false;
    world.apply(planForObject('o', world.graph, graphOwnerLookup(world.graph)));
    assert.equal(world.objects.has('o'), false);
    assert.deepEqual(world.objects.get('pod')?.metadata?.ownerReferences, []);
  });
});

describe('planForObject properties', () => {
  const statuses: OwnerStatus[] = [
    'exists',
    'deleting-foreground',
    'absent',
    'invalid-scope',
    'unavailable',
  ];
  const uids = ['a', 'b', 'c', 'd', 'e'];
  const arbObjects = fc.uniqueArray(
    fc.record({
      uid: fc.constantFrom(...uids),
      owners: fc.uniqueArray(fc.record({ uid: fc.constantFrom(...uids), block: fc.boolean() }), {
        selector: (r) => r.uid,
        maxLength: 3,
      }),
      deleting: fc.boolean(),
      finalizer: fc.constantFrom(undefined, ORPHAN_FINALIZER, FOREGROUND_FINALIZER, 'other'),
    }),
    { selector: (o) => o.uid, minLength: 1 },
  );
  const arbLookup = fc.dictionary(fc.constantFrom(...uids), fc.constantFrom(...statuses));

  type Specs = typeof arbObjects extends fc.Arbitrary<infer T> ? T : never;
  function build(specs: Specs): OwnerGraph {
    return OwnerGraph.from(
      specs.map((s) =>
        obj({
          uid: s.uid,
          owners: s.owners.map((o) => ref(o.uid, { blockOwnerDeletion: o.block })),
          deleting: s.deleting && s.finalizer !== undefined,
          ...(s.finalizer === undefined ? {} : { finalizers: [s.finalizer] }),
        }),
      ),
    );
  }

  it('never deletes an object that still has a solid owner', () => {
    fc.assert(
      fc.property(arbObjects, arbLookup, (specs, table) => {
        const graph = build(specs);
        const lookup = fixedLookup(table);
        for (const node of graph.nodes()) {
          for (const a of planForObject(node.identity.uid, graph, lookup)) {
            if (a.kind !== 'delete') continue;
            const target = graph.get(a.target.uid);
            assert.ok(target);
            assert.ok(
              !target.owners.some((r) => lookup(r, target.identity.namespace) === 'exists'),
            );
            assert.ok(!target.beingDeleted, 'objects being deleted are left alone');
          }
        }
      }),
    );
  });

  it('orphaning targets exactly the owner’s dependents, then removes only `orphan`', () => {
    fc.assert(
      fc.property(arbObjects, (specs) => {
        const graph = build(specs);
        for (const node of graph.nodes()) {
          const plan = planForObject(node.identity.uid, graph, graphOwnerLookup(graph));
          const orphan = plan.find((a) => a.kind === 'orphanDependents');
          if (orphan === undefined) continue;
          const expected = graph
            .nodes()
            .filter((n) => n.owners.some((r) => r.uid === node.identity.uid));
          assert.deepEqual(
            orphan.dependents.map((d) => d.uid),
            expected.map((n) => n.identity.uid),
          );
          assert.deepEqual(brief(plan.slice(1)), [
            ['removeFinalizer', node.identity.uid, ORPHAN_FINALIZER],
          ]);
        }
      }),
    );
  });
});
