/**
 * Tests for the PVC retention policy, after upstream `stateful_set_utils_test.go`
 * (`TestClaimOwnerMatchesSetAndPod`, `TestUpdateClaimOwnerRefForSetAndPod`,
 * `TestHasUnexpectedController`, `TestHasNonControllerOwner`) and `PodClaimIsStale`: the policy
 * matrix as a table, what the garbage collector then does, and properties.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { asKind, type StatefulSet } from '../../api/model/index.js';
import type { KubeObject, OwnerReference } from '../../api/object.js';
import {
  claimIsStale,
  conflictingControllerMessage,
  planClaimRetention,
  type RetentionPolicyType,
  retentionPolicyOf,
} from './retention.js';

type P = RetentionPolicyType;
type Owner = 'set' | 'pod' | 'foreign-controller' | 'foreign-owner';

function set(whenDeleted?: P, whenScaled?: P): StatefulSet {
  const policy =
    whenDeleted === undefined && whenScaled === undefined
      ? {}
      : { persistentVolumeClaimRetentionPolicy: { whenDeleted, whenScaled } };
  return asKind(
    { metadata: { name: 'web', namespace: 'default', uid: 'set-uid' }, spec: policy },
    'StatefulSet',
  );
}

const POD: KubeObject = { metadata: { name: 'web-2', namespace: 'default', uid: 'pod-uid' } };

const REFS: Record<Owner, OwnerReference> = {
  set: {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    name: 'web',
    uid: 'set-uid',
    controller: true,
    blockOwnerDeletion: true,
  },
  pod: {
    apiVersion: 'v1',
    kind: 'Pod',
    name: 'web-2',
    uid: 'pod-uid',
    controller: true,
    blockOwnerDeletion: true,
  },
  'foreign-controller': {
    apiVersion: 'example.com/v1',
    kind: 'Backup',
    name: 'b',
    uid: 'b-uid',
    controller: true,
  },
  'foreign-owner': { apiVersion: 'v1', kind: 'ConfigMap', name: 'keep', uid: 'cm-uid' },
};

function claim(owners: readonly (Owner | OwnerReference)[], resourceVersion = '7'): KubeObject {
  return {
    metadata: {
      name: 'www-web-2',
      namespace: 'default',
      resourceVersion,
      ownerReferences: owners.map((o) => (typeof o === 'string' ? REFS[o] : o)),
    },
  };
}

function ownersAfter(c: KubeObject, condemned: boolean, s: StatefulSet): string[] {
  const plan = planClaimRetention({ set: s, pod: POD, condemned, claim: c });
  const refs = plan.ownerReferences ?? c.metadata?.ownerReferences ?? [];
  const byUid = Object.entries(REFS).map(([k, r]) => [r.uid, k] as const);
  const names = new Map(byUid);
  return refs.map((r) => names.get(r.uid) ?? r.uid).sort();
}

describe('retentionPolicyOf', () => {
  it('defaults to Retain/Retain', () => {
    assert.deepEqual(retentionPolicyOf(set()), { whenDeleted: 'Retain', whenScaled: 'Retain' });
    assert.deepEqual(retentionPolicyOf(set('Delete')), {
      whenDeleted: 'Delete',
      whenScaled: 'Retain',
    });
  });
});

/**
 * The matrix: policy × (in range, condemned) × what already owns the claim → its owners after.
 * `[whenDeleted, whenScaled, starting owners, owners (in range), owners (condemned)]`.
 */
const MATRIX: [P, P, Owner[], string[], string[]][] = [
  ['Retain', 'Retain', [], [], []],
  ['Retain', 'Retain', ['set', 'pod'], [], []],
  ['Retain', 'Retain', ['foreign-controller'], ['foreign-controller'], ['foreign-controller']],
  ['Retain', 'Retain', ['foreign-owner'], ['foreign-owner'], ['foreign-owner']],
  ['Delete', 'Retain', [], ['set'], ['set']],
  ['Delete', 'Retain', ['pod'], ['set'], ['set']],
  ['Delete', 'Retain', ['foreign-controller'], ['foreign-controller'], ['foreign-controller']],
  [
    'Delete',
    'Retain',
    ['foreign-controller', 'set'],
    ['foreign-controller'],
    ['foreign-controller'],
  ],
  ['Delete', 'Retain', ['foreign-owner'], ['foreign-owner', 'set'], ['foreign-owner', 'set']],
  ['Retain', 'Delete', [], [], ['pod']],
  ['Retain', 'Delete', ['set'], [], ['pod']],
  ['Retain', 'Delete', ['foreign-controller'], ['foreign-controller'], ['foreign-controller']],
  [
    'Retain',
    'Delete',
    ['foreign-controller', 'pod'],
    ['foreign-controller'],
    ['foreign-controller'],
  ],
  ['Retain', 'Delete', ['foreign-owner'], ['foreign-owner'], ['foreign-owner', 'pod']],
  ['Delete', 'Delete', [], ['set'], ['pod']],
  ['Delete', 'Delete', ['set'], ['set'], ['pod']],
  ['Delete', 'Delete', ['pod'], ['set'], ['pod']],
  ['Delete', 'Delete', ['foreign-controller'], ['foreign-controller'], ['foreign-controller']],
  ['Delete', 'Delete', ['foreign-owner'], ['foreign-owner', 'set'], ['foreign-owner', 'pod']],
];

describe('claim owners by policy', () => {
  for (const [wd, ws, start, inRange, condemned] of MATRIX) {
    const label = `whenDeleted=${wd} whenScaled=${ws} owned by [${start}]`;
    it(`${label}: in range → [${inRange}]`, () =>
      assert.deepEqual(ownersAfter(claim(start), false, set(wd, ws)), inRange));
    it(`${label}: condemned → [${condemned}]`, () =>
      assert.deepEqual(ownersAfter(claim(start), true, set(wd, ws)), condemned));
  }
});

/** Garbage collector outcome: the claim goes when it has owners and every one of them is gone. */
function collected(owners: readonly string[], gone: readonly string[]): boolean {
  return owners.length > 0 && owners.every((o) => gone.includes(o));
}

describe('what happens to the claim (set deleted / scaled down / neither)', () => {
  // [whenDeleted, whenScaled, foreign controller?, deleted with the set, deleted on scale-down]
  const outcomes: [P, P, boolean, boolean, boolean][] = [
    ['Retain', 'Retain', false, false, false],
    ['Delete', 'Retain', false, true, false],
    ['Retain', 'Delete', false, false, true],
    ['Delete', 'Delete', false, true, true],
    ['Retain', 'Retain', true, false, false],
    ['Delete', 'Retain', true, false, false],
    ['Retain', 'Delete', true, false, false],
    ['Delete', 'Delete', true, false, false],
  ];
  for (const [wd, ws, foreign, onSetDelete, onScaleDown] of outcomes) {
    const start: Owner[] = foreign ? ['foreign-controller'] : [];
    const name = `whenDeleted=${wd} whenScaled=${ws}${foreign ? ' (foreign controller)' : ''}`;
    it(`${name}: set deleted → ${onSetDelete ? 'deleted' : 'kept'}`, () => {
      // Deleting the set deletes its (in-range) pods too.
      const owners = ownersAfter(claim(start), false, set(wd, ws));
      assert.equal(collected(owners, ['set', 'pod']), onSetDelete);
    });
    it(`${name}: scaled down → ${onScaleDown ? 'deleted' : 'kept'}`, () => {
      const owners = ownersAfter(claim(start), true, set(wd, ws));
      assert.equal(collected(owners, ['pod']), onScaleDown);
    });
    it(`${name}: neither → kept`, () => {
      const owners = ownersAfter(claim(start), false, set(wd, ws));
      assert.equal(collected(owners, []), false);
    });
  }
});

describe('planClaimRetention', () => {
  it('writes nothing when up to date', () => {
    const plan = planClaimRetention({
      set: set('Delete', 'Retain'),
      pod: POD,
      condemned: false,
      claim: claim(['set']),
    });
    assert.equal(plan.updated, undefined);
    assert.equal(plan.conflictingController, false);
  });
  it('updates the whole list, keeping the resourceVersion as precondition', () => {
    const plan = planClaimRetention({
      set: set('Delete', 'Retain'),
      pod: POD,
      condemned: false,
      claim: claim(['foreign-owner']),
    });
    assert.deepEqual(plan.updated, {
      metadata: {
        name: 'www-web-2',
        namespace: 'default',
        resourceVersion: '7',
        ownerReferences: [REFS['foreign-owner'], REFS.set],
      },
    });
  });
  it('drops the field when no owner remains', () => {
    const plan = planClaimRetention({
      set: set(),
      pod: POD,
      condemned: true,
      claim: claim(['pod']),
    });
    assert.deepEqual(plan.updated, {
      metadata: { name: 'www-web-2', namespace: 'default', resourceVersion: '7' },
    });
  });
  it('rewrites a non-controller ref to the set as a controller ref', () => {
    const weak = { ...REFS.set, controller: false, blockOwnerDeletion: false };
    const plan = planClaimRetention({
      set: set('Delete', 'Retain'),
      pod: POD,
      condemned: false,
      claim: claim([weak]),
    });
    assert.deepEqual(plan.ownerReferences, [REFS.set]);
  });
  it('leaves a claim with a stale ref to an earlier set alone', () => {
    const stale = { ...REFS.set, uid: 'old-set-uid' };
    const plan = planClaimRetention({
      set: set('Delete', 'Delete'),
      pod: POD,
      condemned: true,
      claim: claim([stale]),
    });
    assert.equal(plan.updated, undefined);
  });
  it('flags a foreign controller for the ConflictingController event', () => {
    const plan = planClaimRetention({
      set: set('Delete', 'Retain'),
      pod: POD,
      condemned: false,
      claim: claim(['foreign-controller']),
    });
    assert.equal(plan.conflictingController, true);
    assert.equal(plan.updated, undefined);
    assert.equal(
      conflictingControllerMessage('www-web-2'),
      'PersistentVolumeClaim www-web-2 has a conflicting OwnerReference that acts as a manging controller, the retention policy is ignored for this claim',
    );
  });
  it('a foreign controller does not conflict under Retain/Retain', () => {
    const plan = planClaimRetention({
      set: set(),
      pod: POD,
      condemned: false,
      claim: claim(['foreign-controller']),
    });
    assert.equal(plan.conflictingController, false);
  });
});

describe('claimIsStale', () => {
  const earlierPod: OwnerReference = { ...REFS.pod, uid: 'earlier-pod-uid' };
  const cases: [string, StatefulSet, KubeObject, boolean][] = [
    ['Retain on scale-down: never stale', set('Delete', 'Retain'), claim([earlierPod]), false],
    ['owned by an earlier pod of that name', set('Retain', 'Delete'), claim([earlierPod]), true],
    ['owned by the set only', set('Delete', 'Delete'), claim(['set']), false],
    ['owned by nobody', set('Retain', 'Delete'), claim([]), false],
  ];
  for (const [name, s, c, want] of cases)
    it(name, () => assert.equal(claimIsStale(s, 'web-2', c), want));
});

describe('properties', () => {
  const arbPolicy = fc.constantFrom<P>('Retain', 'Delete');
  const arbOwners = fc.subarray<Owner>(['set', 'pod', 'foreign-controller', 'foreign-owner']);
  it('one write reaches a fixed point, keeps third-party refs and adds only controller refs', () => {
    fc.assert(
      fc.property(arbPolicy, arbPolicy, arbOwners, fc.boolean(), (wd, ws, start, condemned) => {
        const s = set(wd, ws);
        const before = claim(start);
        const plan = planClaimRetention({ set: s, pod: POD, condemned, claim: before });
        const after = plan.updated ?? before;
        const refs = after.metadata?.ownerReferences ?? [];
        assert.equal(
          planClaimRetention({ set: s, pod: POD, condemned, claim: after }).updated,
          undefined,
        );
        for (const third of ['foreign-controller', 'foreign-owner'] as const) {
          assert.equal(
            refs.some((r) => r.uid === REFS[third].uid),
            start.includes(third),
          );
        }
        for (const r of refs)
          if (r.uid === 'set-uid' || r.uid === 'pod-uid') assert.equal(r.controller, true);
        assert.ok(refs.filter((r) => r.controller === true).length <= 1, 'at most one controller');
      }),
    );
  });
});
