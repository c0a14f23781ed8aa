/**
 * The garbage collector against the real API server (`startHarness`): the three propagation
 * policies, partial ownership, UID mismatches, an ownership cycle in foreground, and the
 * invalid-namespace warning. ConfigMaps play owners and dependents: any kind works.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject, OwnerReference } from '../../api/object.js';
import type { ObjectRef } from '../../client/resource-path.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { createGarbageCollectorController } from './controller.js';

const NS = 'default';
let h: Harness;

before(async () => {
  h = await startHarness();
  h.run(createGarbageCollectorController({ workers: 4 }));
});
after(async () => {
  await h.close();
});

function cmRef(name: string, namespace = NS): ObjectRef {
  return { ...RESOURCES.configmaps, namespace, name };
}

async function cm(
  name: string,
  owners: OwnerReference[] = [],
  extra: { namespace?: string; finalizers?: string[] } = {},
): Promise<KubeObject> {
  const namespace = extra.namespace ?? NS;
  return h.client.create(
    { ...RESOURCES.configmaps, namespace },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name,
        ...(owners.length > 0 ? { ownerReferences: owners } : {}),
        ...(extra.finalizers ? { finalizers: extra.finalizers } : {}),
      },
    },
  );
}

function ownedBy(owner: KubeObject, block = false): OwnerReference {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    name: owner.metadata?.name as string,
    uid: owner.metadata?.uid as string,
    ...(block ? { blockOwnerDeletion: true } : {}),
  };
}

async function gone(name: string, namespace = NS): Promise<boolean> {
  return (await h.get(cmRef(name, namespace))) === undefined;
}

describe('garbage collector', () => {
  it('Background: the owner goes at once, then its dependents', async () => {
    const owner = await cm('bg-owner');
    await cm('bg-dep-1', [ownedBy(owner)]);
    await cm('bg-dep-2', [ownedBy(owner, true)]);
    await h.client.delete(cmRef('bg-owner'), { propagationPolicy: 'Background' });
    await eventually(async () => (await gone('bg-dep-1')) && (await gone('bg-dep-2')));
  });

  it('Orphan: dependents stay without the ref, the owner goes', async () => {
    const owner = await cm('or-owner');
    const other = await cm('or-other');
    await cm('or-dep', [ownedBy(owner, true), ownedBy(other)]);
    await h.client.delete(cmRef('or-owner'), { propagationPolicy: 'Orphan' });
    await eventually(() => gone('or-owner'));
    const dep = await h.get(cmRef('or-dep'));
    assert.deepEqual(
      dep?.metadata?.ownerReferences?.map((r) => r.name),
      ['or-other'],
    );
  });

  it('Foreground: the owner waits with its finalizer until blocking dependents are gone', async () => {
    const owner = await cm('fg-owner');
    // A finalizer of its own keeps the blocking dependent around after the GC deletes it.
    await cm('fg-held', [ownedBy(owner, true)], { finalizers: ['example.com/hold'] });
    await cm('fg-free', [ownedBy(owner)]);
    await h.client.delete(cmRef('fg-owner'), { propagationPolicy: 'Foreground' });
    await eventually(async () => {
      const held = await h.get(cmRef('fg-held'));
      return held?.metadata?.deletionTimestamp !== undefined && (await gone('fg-free'));
    });
    const waiting = await h.get(cmRef('fg-owner'));
    assert.ok(waiting?.metadata?.deletionTimestamp, 'owner is marked');
    assert.deepEqual(waiting?.metadata?.finalizers, ['foregroundDeletion']);
    await h.client.patch(cmRef('fg-held'), { metadata: { finalizers: null } }, 'merge');
    await eventually(async () => (await gone('fg-held')) && (await gone('fg-owner')));
  });

  it('a dependent with two owners loses only the dangling reference', async () => {
    const a = await cm('two-a');
    const b = await cm('two-b');
    await cm('two-dep', [ownedBy(a, true), ownedBy(b)]);
    await h.client.delete(cmRef('two-a'));
    const dep = await eventually(async () => {
      const d = await h.get(cmRef('two-dep'));
      return d?.metadata?.ownerReferences?.length === 1 ? d : undefined;
    });
    assert.deepEqual(dep.metadata?.ownerReferences, [ownedBy(b)]);
    assert.equal(dep.metadata?.deletionTimestamp, undefined);
  });

  it('a ref whose UID does not match the live owner dangles; the live owner stays', async () => {
    await cm('uid-owner');
    const stale: OwnerReference = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'uid-owner',
      uid: 'not-the-uid',
    };
    await cm('uid-dep', [stale]);
    await cm('never-dep', [{ ...stale, name: 'never-existed', uid: 'virtual-uid' }]);
    await eventually(async () => (await gone('uid-dep')) && (await gone('never-dep')));
    assert.ok(await h.get(cmRef('uid-owner')));
  });

  it('never deletes a dependent whose owner exists', async () => {
    const owner = await cm('live-owner');
    await cm('live-dep', [ownedBy(owner, true)]);
    // A later cascade in the same cluster proves the collector ran past this pair.
    const other = await cm('live-other');
    await cm('live-other-dep', [ownedBy(other)]);
    await h.client.delete(cmRef('live-other'));
    await eventually(() => gone('live-other-dep'));
    assert.ok(await h.get(cmRef('live-dep')));
    assert.ok(await h.get(cmRef('live-owner')));
  });

  it('a cycle A→B→A deleted in foreground completes', async () => {
    const a = await cm('cyc-a');
    const b = await cm('cyc-b', [ownedBy(a, true)]);
    await h.client.patch(
      cmRef('cyc-a'),
      { metadata: { ownerReferences: [ownedBy(b, true)] } },
      'merge',
    );
    await h.client.delete(cmRef('cyc-a'), { propagationPolicy: 'Foreground' });
    await eventually(async () => (await gone('cyc-a')) && (await gone('cyc-b')));
  });

  it('warns about a namespaced owner referenced from another namespace and collects the dependent', async () => {
    const owner = await cm('ns-owner');
    await cm('ns-dep', [ownedBy(owner)], { namespace: 'kube-public' });
    const event = await eventually(() =>
      h.events.events.find((e) => e.reason === 'OwnerRefInvalidNamespace'),
    );
    assert.equal(event.type, 'Warning');
    assert.equal(event.object.metadata?.name, 'ns-dep');
    assert.equal(
      event.message,
      `ownerRef [v1/ConfigMap, namespace: kube-public, name: ns-owner, uid: ${owner.metadata?.uid}] does not exist in namespace "kube-public"`,
    );
    // Seen from kube-public the owner is absent, so its only owner dangles.
    await eventually(() => gone('ns-dep', 'kube-public'));
    assert.ok(await h.get(cmRef('ns-owner')));
  });
});
