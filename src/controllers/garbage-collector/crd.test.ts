/**
 * Custom resources the collector learns about only after it started: a CRD created mid-test is
 * picked up by the discovery rescan (shortened to 200 ms here), its objects join the graph as
 * dependents and as owners, and their ownerReferences are edited with JSON merge patches (the
 * server has no strategic merge patch for custom resources and answers 415).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject, OwnerReference } from '../../api/object.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { createGarbageCollectorController } from './controller.js';

const NS = 'default';
const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' };
const GADGETS = { group: 'gc.example.com', version: 'v1', plural: 'gadgets', namespace: NS };

const gadgetCrd: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.gc.example.com' },
  spec: {
    group: 'gc.example.com',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
    ],
  },
};

let h: Harness;
before(async () => {
  h = await startHarness();
  h.run(createGarbageCollectorController({ workers: 2, resyncPeriodMs: 200 }));
});
after(async () => {
  await h.close();
});

function ref(obj: KubeObject): OwnerReference {
  return {
    apiVersion: obj.apiVersion as string,
    kind: obj.kind as string,
    name: obj.metadata?.name as string,
    uid: obj.metadata?.uid as string,
    blockOwnerDeletion: true,
  };
}

async function configMap(name: string, owners: OwnerReference[] = []): Promise<KubeObject> {
  const metadata = { name, ...(owners.length > 0 ? { ownerReferences: owners } : {}) };
  return h.client.create(
    { ...RESOURCES.configmaps, namespace: NS },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata },
  );
}

async function gadget(name: string, owners: OwnerReference[]): Promise<KubeObject> {
  return h.client.create(GADGETS, {
    apiVersion: 'gc.example.com/v1',
    kind: 'Gadget',
    metadata: { name, ownerReferences: owners },
  });
}

describe('garbage collector and a CRD created after it started', () => {
  it('collects custom resources as dependents and as owners', async () => {
    // Let the collector finish its first discovery without the CRD.
    await new Promise((r) => setTimeout(r, 300));
    await h.client.create(CRDS, gadgetCrd);
    await eventually(async () => {
      const crd = await h.get({ ...CRDS, name: 'gadgets.gc.example.com' });
      const conditions = (crd?.status as { conditions?: { type: string; status: string }[] })
        ?.conditions;
      return conditions?.some((c) => c.type === 'Established' && c.status === 'True');
    });
    const owner = await configMap('crd-owner');
    const keeper = await configMap('crd-keeper');
    await gadget('g-only', [ref(owner)]);
    await gadget('g-both', [ref(owner), ref(keeper)]);
    const g = await gadget('g-owner', []);
    await configMap('cm-of-gadget', [ref(g)]);

    await h.client.delete({ ...RESOURCES.configmaps, namespace: NS, name: 'crd-owner' });
    await h.client.delete({ ...GADGETS, name: 'g-owner' });

    await eventually(async () => (await h.get({ ...GADGETS, name: 'g-only' })) === undefined);
    const both = await eventually(async () => {
      const b = await h.get({ ...GADGETS, name: 'g-both' });
      return b?.metadata?.ownerReferences?.length === 1 ? b : undefined;
    });
    assert.deepEqual(both.metadata?.ownerReferences, [ref(keeper)]);
    await eventually(
      async () =>
        (await h.get({ ...RESOURCES.configmaps, namespace: NS, name: 'cm-of-gadget' })) ===
        undefined,
    );
  });

  it('keeps collecting after the CRD is deleted (its informer only sees 404s)', async () => {
    await h.client.delete({ ...CRDS, name: 'gadgets.gc.example.com' });
    await eventually(
      async () => (await h.get({ ...CRDS, name: 'gadgets.gc.example.com' })) === undefined,
    );
    // Two rescans, so the collector has dropped the resource from its monitors and mapper.
    await new Promise((r) => setTimeout(r, 500));
    const owner = await configMap('after-owner');
    await configMap('after-dep', [ref(owner)]);
    await h.client.delete({ ...RESOURCES.configmaps, namespace: NS, name: 'after-owner' });
    await eventually(
      async () =>
        (await h.get({ ...RESOURCES.configmaps, namespace: NS, name: 'after-dep' })) === undefined,
    );
  });
});
