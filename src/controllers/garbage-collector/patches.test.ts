/**
 * Tests for the GC's patch bodies, applied with the real strategic-merge and JSON-merge
 * engines: upstream `TestDeleteOwnerRefPatch` and `TestUnblockOwnerReference`, plus the
 * "orphaning removes exactly the owner's UID" property.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject, OwnerReference } from '../../api/object.js';
import { applyMergePatch } from '../../api/patch/merge-patch.js';
import { applyStrategicMergePatch } from '../../api/patch/strategic/index.js';
import { type BuiltinSchemas, loadBuiltinSchemas } from '../../api/schema/builtin/index.js';
import {
  deleteOwnerRefsMergePatch,
  deleteOwnerRefsStrategicPatch,
  removeFinalizerMergePatch,
  unblockOwnerRefsMergePatch,
  unblockOwnerRefsStrategicPatch,
  withoutOwnerRefs,
} from './patches.js';

const pod = (ownerReferences: OwnerReference[]): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { uid: '100', resourceVersion: '7', ownerReferences },
});
const r = (uid: string, extra: Partial<OwnerReference> = {}): OwnerReference => ({
  apiVersion: 'v1',
  kind: 'ReplicationController',
  name: `rc${uid}`,
  uid,
  ...extra,
});

let schemas: BuiltinSchemas;
before(async () => {
  schemas = await loadBuiltinSchemas();
});
function strategic(original: KubeObject, patch: unknown): KubeObject {
  const schema = schemas.schemaFor({ group: '', version: 'v1', kind: 'Pod' });
  return applyStrategicMergePatch(original, patch, schema, schemas.navigator) as KubeObject;
}

describe('delete-owner-ref patches', () => {
  it('TestDeleteOwnerRefPatch: removes refs 2 and 3 of [1,2,3]', () => {
    const original = pod([r('1'), r('2'), r('3')]);
    const body = deleteOwnerRefsStrategicPatch('100', ['2', '3']);
    assert.deepEqual(body, {
      metadata: {
        ownerReferences: [
          { $patch: 'delete', uid: '2' },
          { $patch: 'delete', uid: '3' },
        ],
        uid: '100',
      },
    });
    assert.deepEqual(strategic(original, body).metadata?.ownerReferences, [r('1')]);
    const merged = applyMergePatch(
      original,
      deleteOwnerRefsMergePatch(original, ['2', '3']),
    ) as KubeObject;
    assert.deepEqual(merged.metadata?.ownerReferences, [r('1')]);
    assert.equal(merged.metadata?.resourceVersion, '7');
  });

  it('removing the last ref drops the field in the merge-patch form', () => {
    const original = pod([r('1')]);
    const merged = applyMergePatch(
      original,
      deleteOwnerRefsMergePatch(original, ['1']),
    ) as KubeObject;
    assert.equal(merged.metadata?.ownerReferences, undefined);
  });

  it('TestUnblockOwnerReference: true → false, false and unset untouched', () => {
    const original = pod([
      r('1', { blockOwnerDeletion: true }),
      r('2', { blockOwnerDeletion: false }),
      r('3'),
    ]);
    const want = [
      r('1', { blockOwnerDeletion: false }),
      r('2', { blockOwnerDeletion: false }),
      r('3'),
    ];
    const uids = ['1', '2', '3'];
    assert.deepEqual(
      strategic(original, unblockOwnerRefsStrategicPatch(original, uids)).metadata?.ownerReferences,
      want,
    );
    const merged = applyMergePatch(
      original,
      unblockOwnerRefsMergePatch(original, uids),
    ) as KubeObject;
    assert.deepEqual(merged.metadata?.ownerReferences, want);
  });

  it('removeFinalizerMergePatch keeps other finalizers and nulls an empty list', () => {
    const o: KubeObject = { metadata: { resourceVersion: '9', finalizers: ['a', 'orphan', 'b'] } };
    assert.deepEqual(removeFinalizerMergePatch(o, 'orphan'), {
      metadata: { resourceVersion: '9', finalizers: ['a', 'b'] },
    });
    const only: KubeObject = { metadata: { finalizers: ['orphan'] } };
    assert.deepEqual(applyMergePatch(only, removeFinalizerMergePatch(only, 'orphan')), {
      metadata: {},
    });
  });

  it('orphaning removes exactly the owner’s UID and nothing else (property)', () => {
    const arbRefs = fc.array(
      fc
        .record({ uid: fc.constantFrom('a', 'b', 'c', 'd'), blockOwnerDeletion: fc.boolean() })
        .map((x) => r(x.uid, x)),
      { maxLength: 6 },
    );
    fc.assert(
      fc.property(arbRefs, fc.constantFrom('a', 'b', 'c', 'd'), (refs, owner) => {
        const out = withoutOwnerRefs(refs, [owner]);
        assert.deepEqual(
          out,
          refs.filter((x) => x.uid !== owner),
        );
        const unique = [...new Map(refs.map((x) => [x.uid, x])).values()];
        const viaPatch = strategic(pod(unique), deleteOwnerRefsStrategicPatch('100', [owner]));
        assert.deepEqual(
          viaPatch.metadata?.ownerReferences ?? [],
          unique.filter((x) => x.uid !== owner),
        );
      }),
      { numRuns: 50 },
    );
  });
});
