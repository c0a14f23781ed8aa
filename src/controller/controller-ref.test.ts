import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { labelSelectorFromObject } from '../api/labels/selector.js';
import type { KubeObject, OwnerReference } from '../api/object.js';
import {
  adoptPatch,
  claimObjects,
  controllerRefOf,
  type GroupVersionKind,
  groupVersionString,
  isControlledBy,
  newControllerRef,
  recheckOwner,
  releasePatch,
} from './controller-ref.js';

const RS_KIND: GroupVersionKind = { group: 'apps', version: 'v1', kind: 'ReplicaSet' };
const DELETED_AT = '2026-01-01T00:00:00Z';
const SELECTOR = labelSelectorFromObject({ matchLabels: { foo: 'bar' } });

function owner(deleting = false): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: 'rs',
      namespace: 'default',
      uid: 'rs-uid',
      ...(deleting ? { deletionTimestamp: DELETED_AT } : {}),
    },
  };
}

interface PodSpec {
  name: string;
  matches?: boolean;
  ownerUid?: string;
  deleting?: boolean;
  namespace?: string;
}

function pod(p: PodSpec): KubeObject {
  const refs: OwnerReference[] = [];
  if (p.ownerUid !== undefined) {
    refs.push({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      name: 'x',
      uid: p.ownerUid,
      controller: true,
    });
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: p.name,
      namespace: p.namespace ?? 'default',
      uid: `${p.name}-uid`,
      labels: p.matches === false ? { foo: 'baz' } : { foo: 'bar' },
      ownerReferences: refs,
      ...(p.deleting ? { deletionTimestamp: DELETED_AT } : {}),
    },
  };
}

const names = (objs: readonly { metadata?: { name?: string } }[]) =>
  objs.map((o) => o.metadata?.name);

describe('controllerRefOf / isControlledBy / newControllerRef', () => {
  it('finds the first controller=true reference', () => {
    const obj: KubeObject = {
      metadata: {
        ownerReferences: [
          { apiVersion: 'v1', kind: 'A', name: 'a', uid: '1' },
          { apiVersion: 'v1', kind: 'B', name: 'b', uid: '2', controller: false },
          { apiVersion: 'v1', kind: 'C', name: 'c', uid: '3', controller: true },
        ],
      },
    };
    assert.equal(controllerRefOf(obj)?.uid, '3');
    assert.equal(isControlledBy(obj, { metadata: { uid: '3' } }), true);
    assert.equal(isControlledBy(obj, { metadata: { uid: '1' } }), false);
    assert.equal(controllerRefOf({ metadata: {} }), undefined);
  });

  it('builds a controller reference', () => {
    assert.deepEqual(newControllerRef(owner(), RS_KIND), {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      name: 'rs',
      uid: 'rs-uid',
      controller: true,
      blockOwnerDeletion: true,
    });
    assert.equal(groupVersionString({ group: '', version: 'v1', kind: 'Pod' }), 'v1');
  });
});

describe('adopt and release patches', () => {
  // Byte layout of upstream's json.Marshal of its patch structs.
  it('adopts with the ownerReference and the uid precondition', () => {
    assert.equal(
      JSON.stringify(adoptPatch(owner(), RS_KIND, 'pod-uid')),
      '{"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs",' +
        '"uid":"rs-uid","controller":true,"blockOwnerDeletion":true}],"uid":"pod-uid"}}',
    );
    assert.deepEqual(
      adoptPatch(owner(), RS_KIND, 'p', ['batch.kubernetes.io/job-tracking']).metadata,
      {
        ownerReferences: [newControllerRef(owner(), RS_KIND)],
        uid: 'p',
        finalizers: ['batch.kubernetes.io/job-tracking'],
      },
    );
  });

  it('releases with $patch delete by uid', () => {
    assert.equal(
      JSON.stringify(releasePatch('rs-uid', 'pod-uid')),
      '{"metadata":{"uid":"pod-uid","ownerReferences":[{"$patch":"delete","uid":"rs-uid"}]}}',
    );
    assert.equal(
      JSON.stringify(releasePatch(['a', 'b'], 'p', ['f'])),
      '{"metadata":{"uid":"p","ownerReferences":[{"$patch":"delete","uid":"a"},' +
        '{"$patch":"delete","uid":"b"}],"$deleteFromPrimitiveList/finalizers":["f"]}}',
    );
  });
});

describe('claimObjects', () => {
  // Cases of upstream controller_ref_manager_test.go TestClaimPods, plus the namespace guard.
  const cases: {
    name: string;
    deleting?: boolean;
    pods: PodSpec[];
    claimed: string[];
    adopt: string[];
    release: string[];
  }[] = [
    {
      name: 'claims orphans with matching labels',
      pods: [{ name: 'pod1' }, { name: 'pod2', matches: false }],
      claimed: [],
      adopt: ['pod1'],
      release: [],
    },
    {
      name: 'keeps its matching pods and releases none while being deleted',
      deleting: true,
      pods: [
        { name: 'pod1', ownerUid: 'rs-uid' },
        { name: 'pod2', ownerUid: 'rs-uid', matches: false },
      ],
      claimed: ['pod1'],
      adopt: [],
      release: [],
    },
    {
      name: 'does not adopt orphans while being deleted',
      deleting: true,
      pods: [{ name: 'pod1' }],
      claimed: [],
      adopt: [],
      release: [],
    },
    {
      name: 'cannot claim pods owned by another controller',
      pods: [
        { name: 'pod1', ownerUid: 'other' },
        { name: 'pod2', ownerUid: 'other', matches: false },
      ],
      claimed: [],
      adopt: [],
      release: [],
    },
    {
      name: 'releases owned pods that no longer match',
      pods: [
        { name: 'pod1', ownerUid: 'rs-uid' },
        { name: 'pod2', ownerUid: 'rs-uid', matches: false },
      ],
      claimed: ['pod1'],
      adopt: [],
      release: ['pod2'],
    },
    {
      name: 'does not adopt orphans marked for deletion but keeps owned ones',
      pods: [
        { name: 'pod1', deleting: true },
        { name: 'pod2', ownerUid: 'rs-uid', deleting: true },
      ],
      claimed: ['pod2'],
      adopt: [],
      release: [],
    },
    {
      name: 'does not adopt across namespaces',
      pods: [{ name: 'pod1', namespace: 'other' }],
      claimed: [],
      adopt: [],
      release: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const plan = claimObjects(owner(c.deleting), SELECTOR, c.pods.map(pod), {
        ownerKind: RS_KIND,
      });
      assert.deepEqual(names(plan.claimed), c.claimed);
      assert.deepEqual(names(plan.adopt.map((a) => a.object)), c.adopt);
      assert.deepEqual(names(plan.release.map((r) => r.object)), c.release);
      assert.deepEqual(plan.errors, []);
    });
  }

  it('attaches the exact patches', () => {
    const plan = claimObjects(
      owner(),
      SELECTOR,
      [pod({ name: 'orphan' }), pod({ name: 'stray', ownerUid: 'rs-uid', matches: false })],
      { ownerKind: RS_KIND },
    );
    assert.deepEqual(plan.adopt[0]?.patch, adoptPatch(owner(), RS_KIND, 'orphan-uid'));
    assert.deepEqual(plan.release[0]?.patch, releasePatch('rs-uid', 'stray-uid'));
  });

  it('applies extra filters like the StatefulSet name check', () => {
    const plan = claimObjects(
      owner(),
      SELECTOR,
      [pod({ name: 'rs-0' }), pod({ name: 'foo' }), pod({ name: 'bar', ownerUid: 'rs-uid' })],
      { ownerKind: RS_KIND, filters: [(o) => /^rs-\d+$/.test(o.metadata?.name ?? '')] },
    );
    assert.deepEqual(names(plan.adopt.map((a) => a.object)), ['rs-0']);
    assert.deepEqual(names(plan.release.map((r) => r.object)), ['bar']);
  });

  it('asks canAdopt at most once and only when an orphan qualifies', () => {
    let calls = 0;
    const refuse = () => {
      calls++;
      return new Error('boom');
    };
    const none = claimObjects(owner(), SELECTOR, [pod({ name: 'p', ownerUid: 'rs-uid' })], {
      ownerKind: RS_KIND,
      canAdopt: refuse,
    });
    assert.equal(calls, 0);
    assert.deepEqual(names(none.claimed), ['p']);

    const plan = claimObjects(owner(), SELECTOR, [pod({ name: 'a' }), pod({ name: 'b' })], {
      ownerKind: RS_KIND,
      canAdopt: refuse,
    });
    assert.equal(calls, 1);
    assert.deepEqual(plan.adopt, []);
    assert.deepEqual(
      plan.errors.map((e) => e.message),
      ["can't adopt Pod default/a (a-uid): boom", "can't adopt Pod default/b (b-uid): boom"],
    );
  });

  it('never adopts controlled objects and releases only its own', () => {
    const podArb = fc.record({
      name: fc.constantFrom('p'),
      matches: fc.boolean(),
      ownerUid: fc.option(fc.constantFrom('rs-uid', 'other-uid'), { nil: undefined }),
      deleting: fc.boolean(),
      namespace: fc.constantFrom('default', 'other'),
    });
    fc.assert(
      fc.property(fc.array(podArb, { maxLength: 12 }), fc.boolean(), (specs, deleting) => {
        const pods = specs.map((s, i) => pod({ ...s, name: `p${i}` }));
        const o = owner(deleting);
        const plan = claimObjects(o, SELECTOR, pods, { ownerKind: RS_KIND });
        for (const a of plan.adopt) {
          assert.equal(controllerRefOf(a.object), undefined);
          assert.ok(!a.object.metadata?.deletionTimestamp);
          assert.ok(!deleting);
        }
        for (const r of plan.release) {
          assert.ok(isControlledBy(r.object, o));
          assert.ok(!deleting);
        }
        for (const c of plan.claimed) assert.ok(isControlledBy(c, o));
        const buckets = [
          ...plan.claimed,
          ...plan.adopt.map((a) => a.object),
          ...plan.release.map((r) => r.object),
        ];
        assert.equal(new Set(buckets).size, buckets.length, 'each object in at most one bucket');
        // Every owned, matching object is claimed, whatever the owner's state.
        const ownedMatching = pods.filter((p, i) => isControlledBy(p, o) && specs[i]?.matches);
        assert.deepEqual(plan.claimed, ownedMatching);
      }),
    );
  });
});

describe('recheckOwner', () => {
  const cases = [
    { name: 'same uid, alive', fresh: owner(), want: undefined },
    {
      name: 'read failed',
      fresh: new Error('replicasets.apps "rs" not found'),
      want: `can't recheck DeletionTimestamp: replicasets.apps "rs" not found`,
    },
    {
      name: 'uid changed',
      fresh: { metadata: { name: 'rs', uid: 'new' } },
      want: "can't recheck DeletionTimestamp: original ReplicaSet default/rs is gone: got uid new, wanted rs-uid",
    },
    {
      name: 'being deleted',
      fresh: owner(true),
      want: `default/rs has just been deleted at ${DELETED_AT}`,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(recheckOwner(owner(), c.fresh, 'ReplicaSet')?.message, c.want);
    });
  }
});
