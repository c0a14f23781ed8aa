/**
 * `@kubernetes/client-node` 1.4 against the real `fleetyard up --ephemeral`: server-side apply
 * through `KubernetesObjectApi.patch` (create, update, managedFields per field manager, the
 * 409 conflict with upstream's message, `force`), a strategic merge patch (its default patch
 * type) merging a Deployment's containers by name, and custom resources: a CRD created with
 * `ApiextensionsV1Api`, CRUD through `CustomObjectsApi`, a 422 with upstream's message, and an
 * informer on the custom resource path.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ApiException,
  ApiextensionsV1Api,
  CustomObjectsApi,
  type KubernetesObject,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
  type V1CustomResourceDefinition,
  type V1Deployment,
  type V1ManagedFieldsEntry,
  type V1Status,
} from '@kubernetes/client-node';
import * as support from './testing/client-node-harness.js';
import { API_ONLY } from './testing/cluster.js';

/** The Status carried by an ApiException (client-node 1.x keeps the raw JSON body). */
async function expectApiError(promise: Promise<unknown>, code: number): Promise<V1Status> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof ApiException, `not an ApiException: ${String(e)}`);
    assert.equal(e.code, code, String(e.body));
    assert.equal(typeof e.body, 'string');
    return JSON.parse(e.body as string) as V1Status;
  }
  assert.fail(`expected HTTP ${code}`);
}

/** manager → fieldsV1 of its Apply entry, and every entry's operation and apiVersion. */
function managers(entries: readonly V1ManagedFieldsEntry[] | undefined): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const e of entries ?? []) {
    assert.equal(e.operation, 'Apply');
    assert.equal(e.fieldsType, 'FieldsV1');
    assert.ok(e.time instanceof Date, 'managedFields time is a timestamp');
    out.set(e.manager ?? '', e.fieldsV1);
  }
  return out;
}

const GROUP = 'fleet.example.com';
const PLURAL = 'gadgets';

/**
 * A CRD with a schema (enum, minimum, default) the 422 and the defaults come from; client-node's
 * model spells `enum` and `default` as `_enum` and `_default` and renames them on the wire.
 */
function gadgetCrd(): V1CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${PLURAL}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural: PLURAL, singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  required: ['size'],
                  properties: {
                    size: { type: 'string', _enum: ['small', 'large'] },
                    replicas: { type: 'integer', minimum: 0, _default: 1 },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

interface Gadget extends KubernetesObject {
  spec: { size: string; replicas?: number };
}

function gadget(namespace: string, name: string, spec: Record<string, unknown>): Gadget {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: 'Gadget',
    metadata: { name, namespace },
    spec: spec as Gadget['spec'],
  };
}

describe('client-node server-side apply, strategic merge patch and custom resources', () => {
  const ns = 'apply';
  let h: support.Harness | undefined;
  before(async () => {
    h = await support.startHarness(API_ONLY);
    await support.createNamespace(h, ns);
  });
  after(() => support.stopHarness(h));

  it('server-side apply: create, update, managedFields, a conflict, then force', async () => {
    const { objects } = h!;
    const apply = (data: Record<string, string>, manager: string, force?: boolean) =>
      objects.patch<V1ConfigMap>(
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa', namespace: ns }, data },
        undefined,
        undefined,
        manager,
        force,
        PatchStrategy.ServerSideApply,
      );

    const created = await apply({ color: 'blue', owner: 'alice', size: 'm' }, 'alice');
    assert.ok(created.metadata?.uid, 'apply of an absent object creates it');
    assert.deepEqual(created.data, { color: 'blue', owner: 'alice', size: 'm' });
    assert.equal(created.metadata?.managedFields?.[0]?.apiVersion, 'v1');
    assert.deepEqual(
      managers(created.metadata?.managedFields),
      new Map([['alice', { 'f:data': { 'f:color': {}, 'f:owner': {}, 'f:size': {} } }]]),
    );

    // Applying without `size` removes it: alice was its only manager.
    const updated = await apply({ color: 'blue', owner: 'alice' }, 'alice');
    assert.deepEqual(updated.data, { color: 'blue', owner: 'alice' });
    assert.equal(updated.metadata?.uid, created.metadata?.uid);
    assert.ok(
      Number(updated.metadata?.resourceVersion) > Number(created.metadata?.resourceVersion),
    );
    assert.deepEqual(
      managers(updated.metadata?.managedFields),
      new Map([['alice', { 'f:data': { 'f:color': {}, 'f:owner': {} } }]]),
    );

    // Re-applying the same configuration changes nothing.
    const same = await apply({ color: 'blue', owner: 'alice' }, 'alice');
    assert.equal(same.metadata?.resourceVersion, updated.metadata?.resourceVersion);

    const conflict = await expectApiError(apply({ color: 'red' }, 'bob'), 409);
    assert.equal(conflict.reason, 'Conflict');
    assert.equal(
      conflict.message,
      'Apply failed with 1 conflict: conflict with "alice": .data.color',
    );
    assert.deepEqual(conflict.details?.causes, [
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.color' },
    ]);
    const unchanged = await objects.read<V1ConfigMap>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'ssa', namespace: ns },
    });
    assert.equal(unchanged.data?.color, 'blue');

    const forced = await apply({ color: 'red' }, 'bob', true);
    assert.deepEqual(forced.data, { color: 'red', owner: 'alice' });
    assert.deepEqual(
      managers(forced.metadata?.managedFields),
      new Map([
        ['alice', { 'f:data': { 'f:owner': {} } }],
        ['bob', { 'f:data': { 'f:color': {} } }],
      ]),
    );
  });

  it('strategic merge patch (the default of KubernetesObjectApi.patch) merges containers by name', async () => {
    const { objects } = h!;
    const header = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'smp', namespace: ns },
    };
    await objects.create<V1Deployment>({
      ...header,
      spec: {
        selector: { matchLabels: { app: 'smp' } },
        template: {
          metadata: { labels: { app: 'smp' } },
          spec: {
            containers: [
              { name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }] },
              { name: 'sidecar', image: 'busybox:1.36' },
            ],
          },
        },
      },
    });
    const containers = (d: V1Deployment) =>
      (d.spec?.template.spec?.containers ?? []).map((c) => [c.name, c.image]);
    const patch = (list: unknown[]) =>
      objects.patch<V1Deployment>({
        ...header,
        spec: { template: { spec: { containers: list } } },
      } as V1Deployment);

    const merged = await patch([{ name: 'sidecar', image: 'busybox:1.37' }]);
    assert.deepEqual(containers(merged), [
      ['web', 'nginx:1.27'],
      ['sidecar', 'busybox:1.37'],
    ]);
    assert.equal(merged.spec?.template.spec?.containers[0]?.ports?.[0]?.containerPort, 80);
    assert.equal(merged.metadata?.generation, 2);

    const added = await patch([{ name: 'metrics', image: 'prom/statsd-exporter:v0.26.0' }]);
    // Without a $setElementOrder directive upstream puts an item the server lacks first
    // (strategicpatch mergeSortedSlice: a patch item wins unless both are in the live order).
    assert.deepEqual(containers(added), [
      ['metrics', 'prom/statsd-exporter:v0.26.0'],
      ['web', 'nginx:1.27'],
      ['sidecar', 'busybox:1.37'],
    ]);
    // Nested lists merge by their own key (ports by containerPort). client-node serializes the
    // body through its models, so directives such as `$patch: delete` never reach the server.
    const ports = await patch([{ name: 'web', ports: [{ containerPort: 443, name: 'https' }] }]);
    assert.deepEqual(containers(ports), containers(added));
    assert.deepEqual(
      ports.spec?.template.spec?.containers[1]?.ports?.map((p) => [p.containerPort, p.name]),
      [
        [443, 'https'],
        [80, undefined],
      ],
    );
  });

  it('custom resources: CRD, CRUD through CustomObjectsApi, a 422, and an informer', async () => {
    const { kc } = h!;
    const ext = kc.makeApiClient(ApiextensionsV1Api);
    const custom = kc.makeApiClient(CustomObjectsApi);
    const crdName = `${PLURAL}.${GROUP}`;
    await ext.createCustomResourceDefinition({ body: gadgetCrd() });
    await support.waitFor('the CRD to be Established', async () => {
      const crd = await ext.readCustomResourceDefinition({ name: crdName });
      return (
        crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ??
        false
      );
    });

    const where = { group: GROUP, version: 'v1', namespace: ns, plural: PLURAL };
    const seen: Array<[string, string, string]> = [];
    const informer = makeInformer<Gadget>(kc, `/apis/${GROUP}/v1/namespaces/${ns}/${PLURAL}`, () =>
      custom.listNamespacedCustomObject(where),
    );
    for (const verb of ['add', 'update', 'delete'] as const) {
      informer.on(verb, (g: Gadget) => {
        seen.push([verb, g.metadata?.name ?? '', g.spec.size]);
      });
    }
    const errors: unknown[] = [];
    informer.on('error', (e: unknown) => errors.push(e));
    await informer.start();
    try {
      const created = (await custom.createNamespacedCustomObject({
        ...where,
        body: gadget(ns, 'g1', { size: 'small' }),
      })) as Gadget;
      assert.deepEqual(created.spec, { size: 'small', replicas: 1 }, 'the schema default');
      assert.ok(created.metadata?.uid);

      const read = (await custom.getNamespacedCustomObject({ ...where, name: 'g1' })) as Gadget;
      assert.equal(read.metadata?.resourceVersion, created.metadata?.resourceVersion);
      const list = (await custom.listNamespacedCustomObject(where)) as {
        kind: string;
        items: Gadget[];
      };
      assert.equal(list.kind, 'GadgetList');
      assert.deepEqual(
        list.items.map((g) => g.metadata?.name),
        ['g1'],
      );

      const patched = (await custom.patchNamespacedCustomObject(
        { ...where, name: 'g1', body: { spec: { size: 'large' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      )) as Gadget;
      assert.deepEqual(patched.spec, { size: 'large', replicas: 1 });
      assert.ok(
        Number(patched.metadata?.resourceVersion) > Number(created.metadata?.resourceVersion),
      );

      const invalid = await expectApiError(
        custom.createNamespacedCustomObject({
          ...where,
          body: gadget(ns, 'bad', { size: 'huge' }),
        }),
        422,
      );
      assert.equal(invalid.reason, 'Invalid');
      assert.equal(
        invalid.message,
        `Gadget.${GROUP} "bad" is invalid: spec.size: Unsupported value: "huge": supported values: "small", "large"`,
      );
      assert.deepEqual(invalid.details, {
        name: 'bad',
        group: GROUP,
        kind: 'Gadget',
        causes: [
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: "huge": supported values: "small", "large"',
            field: 'spec.size',
          },
        ],
      });

      await custom.deleteNamespacedCustomObject({ ...where, name: 'g1' });
      await expectApiError(custom.getNamespacedCustomObject({ ...where, name: 'g1' }), 404);
      await support.waitFor('the informer to see the delete', () => seen.length >= 3, {
        detail: () => JSON.stringify(seen),
      });
      assert.deepEqual(seen, [
        ['add', 'g1', 'small'],
        ['update', 'g1', 'large'],
        ['delete', 'g1', 'large'],
      ]);
      assert.equal(informer.list(ns).length, 0);
      assert.deepEqual(errors, []);
    } finally {
      await informer.stop();
    }
    await ext.deleteCustomResourceDefinition({ name: crdName });
  });
});
