/**
 * End-to-end behaviour of the planner against an in-memory API (`testing.ts: World`): the
 * cascades of docs/design/garbage-collector.md §3, upstream's e2e "dependency circle" case, and a
 * convergence property over random ownership graphs, including cycles.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { graphOwnerLookup } from './classify.js';
import { FOREGROUND_FINALIZER } from './identity.js';
import { type GcAction, planForObject } from './plan.js';
import { obj, ref, World } from './testing/fixtures.js';

const block = { blockOwnerDeletion: true };

function deployment(): World {
  return new World([
    obj({ uid: 'd', kind: 'Deployment', apiVersion: 'apps/v1' }),
    obj({
      uid: 'rs',
      kind: 'ReplicaSet',
      apiVersion: 'apps/v1',
      owners: [ref('d', { kind: 'Deployment', apiVersion: 'apps/v1', controller: true, ...block })],
    }),
    obj({
      uid: 'p1',
      owners: [
        ref('rs', { kind: 'ReplicaSet', apiVersion: 'apps/v1', controller: true, ...block }),
      ],
    }),
    obj({
      uid: 'p2',
      owners: [
        ref('rs', { kind: 'ReplicaSet', apiVersion: 'apps/v1', controller: true, ...block }),
      ],
    }),
  ]);
}

describe('cascades', () => {
  it('Background: owner gone at once, then RS, then pods', () => {
    const world = deployment();
    world.userDelete('d', 'Background');
    assert.equal(world.objects.has('d'), false);
    world.settle();
    assert.deepEqual([...world.objects.keys()], []);
  });

  it('Foreground: owner stays with the finalizer until RS and pods are gone', () => {
    const world = deployment();
    world.userDelete('d', 'Foreground');
    // One round of the owner's plan only deletes the RS (foreground, since it has pods).
    world.apply(planFor(world, 'd'));
    assert.deepEqual(world.objects.get('rs')?.metadata?.finalizers, [FOREGROUND_FINALIZER]);
    assert.ok(world.objects.has('d'));
    world.settle();
    assert.deepEqual([...world.objects.keys()], []);
    const order = world.deletes.map((d) => d.uid);
    assert.equal(order[0], 'rs');
  });

  it('Orphan: RS and pods survive without the Deployment ref', () => {
    const world = deployment();
    world.userDelete('d', 'Orphan');
    world.settle();
    assert.deepEqual([...world.objects.keys()].sort(), ['p1', 'p2', 'rs']);
    assert.deepEqual(world.objects.get('rs')?.metadata?.ownerReferences, []);
    assert.equal(world.objects.get('p1')?.metadata?.ownerReferences?.[0]?.uid, 'rs');
  });

  it('a dependent with a second, live owner survives and loses only the dead ref', () => {
    const world = new World([
      obj({ uid: 'a' }),
      obj({ uid: 'b' }),
      obj({ uid: 'p', owners: [ref('a'), ref('b')] }),
    ]);
    world.userDelete('a', 'Background');
    world.settle();
    assert.deepEqual(world.objects.get('p')?.metadata?.ownerReferences, [ref('b')]);
  });
});

describe('cycles terminate', () => {
  it('upstream e2e: pod1 → pod2 → pod3 → pod1, all blocking, foreground delete of pod1', () => {
    const world = new World([
      obj({ uid: 'pod1', owners: [ref('pod3', block)] }),
      obj({ uid: 'pod2', owners: [ref('pod1', block)] }),
      obj({ uid: 'pod3', owners: [ref('pod2', block)] }),
    ]);
    world.userDelete('pod1', 'Foreground');
    world.settle();
    assert.deepEqual([...world.objects.keys()], []);
  });

  it('a self-owned object deleted in foreground goes away', () => {
    const world = new World([obj({ uid: 'self', owners: [ref('self', block)] })]);
    world.userDelete('self', 'Foreground');
    world.settle();
    assert.deepEqual([...world.objects.keys()], []);
  });

  it('a ↔ b, both already in foreground deletion (upstream deadlocks): both go', () => {
    const world = new World([
      obj({ uid: 'a', owners: [ref('b', block)] }),
      obj({ uid: 'b', owners: [ref('a', block)] }),
    ]);
    world.userDelete('a', 'Foreground');
    world.userDelete('b', 'Foreground');
    const plan = planFor(world, 'a');
    assert.deepEqual(plan[0], {
      kind: 'unblockOwnerRefs',
      target: plan[0]?.kind === 'unblockOwnerRefs' ? plan[0].target : undefined,
      uids: ['b'],
    });
    world.settle();
    assert.deepEqual([...world.objects.keys()], []);
  });

  it('an undeleted cycle is never collected (every owner is solid)', () => {
    const world = new World([
      obj({ uid: 'a', owners: [ref('b')] }),
      obj({ uid: 'b', owners: [ref('a')] }),
    ]);
    assert.equal(world.settle(), 1);
    assert.equal(world.objects.size, 2);
  });
});

describe('convergence property', () => {
  const uids = ['a', 'b', 'c', 'd', 'e', 'f'];
  const arbWorld = fc.record({
    objects: fc.uniqueArray(
      fc.record({
        uid: fc.constantFrom(...uids),
        owners: fc.uniqueArray(
          fc.record({ uid: fc.constantFrom(...uids, 'gone'), block: fc.boolean() }),
          {
            selector: (r) => r.uid,
            maxLength: 3,
          },
        ),
      }),
      { selector: (o) => o.uid, minLength: 1 },
    ),
    deletes: fc.array(
      fc.record({
        uid: fc.constantFrom(...uids),
        policy: fc.constantFrom('Background' as const, 'Foreground' as const, 'Orphan' as const),
      }),
      { maxLength: 3 },
    ),
  });

  it('settles; never deletes with a solid owner; survivors are not garbage', () => {
    fc.assert(
      fc.property(arbWorld, ({ objects, deletes }) => {
        const world = new World(
          objects.map((o) =>
            obj({
              uid: o.uid,
              owners: o.owners.map((r) => ref(r.uid, { blockOwnerDeletion: r.block })),
            }),
          ),
        );
        for (const d of deletes) world.userDelete(d.uid, d.policy);
        world.settle(100);
        assert.ok(world.deletes.every((d) => !d.solidOwnerAtDelete));
        const lookup = graphOwnerLookup(world.graph);
        for (const o of world.objects.values()) {
          assert.equal(o.metadata?.deletionTimestamp, undefined, 'no object stuck in deletion');
          const refs = o.metadata?.ownerReferences ?? [];
          // A survivor has no refs at all, or every ref is to a live owner.
          assert.ok(
            refs.every((r) => lookup(r, 'ns1') === 'exists'),
            `${o.metadata?.uid} keeps a dead ref`,
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});

function planFor(world: World, uid: string): GcAction[] {
  return planForObject(uid, world.graph, graphOwnerLookup(world.graph));
}
