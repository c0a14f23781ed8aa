/**
 * `@kubernetes/client-node` 1.4's generic `KubernetesObjectApi` and typed APIs against the
 * real `fleetyard up --ephemeral`: CRUD, patches, deletion propagation, errors, /scale.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ApiException,
  createConfiguration,
  type KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
  ServerConfiguration,
  setHeaderOptions,
  type V1ConfigMap,
  type V1Deployment,
  type V1Status,
} from '@kubernetes/client-node';
import * as support from './testing/client-node-harness.js';
import { API_ONLY } from './testing/cluster.js';

// ---------------------------------------------------------------------------------------------

/**
 * A `KubernetesObjectApi` whose PATCH requests carry `ops` as the body. `patch()` serializes
 * its `spec` argument (an object: it also names the target) as the body, so a JSON patch (an
 * array) needs a request middleware.
 */
function jsonPatchApi(kc: KubeConfig, ops: readonly unknown[]): KubernetesObjectApi {
  const cluster = kc.getCurrentCluster();
  assert.ok(cluster);
  return new KubernetesObjectApi(
    createConfiguration({
      baseServer: new ServerConfiguration(cluster.server, {}),
      authMethods: { default: kc },
      promiseMiddleware: [
        {
          pre: async (ctx) => {
            if (ctx.getHttpMethod() === 'PATCH') ctx.setBody(JSON.stringify(ops));
            return ctx;
          },
          post: async (rsp) => rsp,
        },
      ],
    }),
  );
}

/** The Status carried by an ApiException (client-node 1.x keeps it as the raw JSON body). */
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

function deployment(namespace: string, name: string, replicas = 1): V1Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels: { suite: 'objects' } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
      },
    },
  };
}

type Header = KubernetesObject & { metadata: { name: string; namespace: string } };

function headerOf(obj: KubernetesObject): Header {
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    metadata: { name: obj.metadata?.name ?? '', namespace: obj.metadata?.namespace ?? '' },
  };
}

describe('client-node KubernetesObjectApi and typed APIs', () => {
  const ns = 'objects';
  let h: support.Harness | undefined;
  before(async () => {
    h = await support.startHarness(API_ONLY);
    await support.createNamespace(h, ns);
  });
  after(() => support.stopHarness(h));

  it('does generic CRUD on a ConfigMap', async () => {
    const { objects, kc } = h!;
    const created = await objects.create<V1ConfigMap>({
      ...support.configMap(ns, 'generic', { a: '1', b: '2' }),
      metadata: { name: 'generic', namespace: ns, labels: { suite: 'objects' } },
    });
    assert.equal(created.kind, 'ConfigMap');
    assert.ok(created.metadata?.uid);
    assert.match(created.metadata?.resourceVersion ?? '', /^[1-9][0-9]*$/);
    const rv0 = Number(created.metadata?.resourceVersion);

    const read = await objects.read<V1ConfigMap>(headerOf(created));
    assert.deepEqual(read.data, { a: '1', b: '2' });
    assert.equal(read.metadata?.uid, created.metadata?.uid);
    assert.equal(read.metadata?.resourceVersion, created.metadata?.resourceVersion);

    const listed = await objects.list<V1ConfigMap>(
      'v1',
      'ConfigMap',
      ns,
      undefined,
      undefined,
      undefined,
      undefined,
      'suite=objects',
    );
    assert.deepEqual(
      listed.items.map((i) => i.metadata?.name),
      ['generic'],
    );
    assert.ok(Number(listed.metadata?.resourceVersion) >= rv0);

    const replaced = await objects.replace<V1ConfigMap>({ ...read, data: { a: '10' } });
    assert.deepEqual(replaced.data, { a: '10' });
    const rv1 = Number(replaced.metadata?.resourceVersion);
    assert.ok(rv1 > rv0);
    // A replace carrying the old resourceVersion is a conflict.
    const conflict = await expectApiError(objects.replace({ ...read, data: { a: 'stale' } }), 409);
    assert.equal(conflict.reason, 'Conflict');

    const merged = await objects.patch<V1ConfigMap>(
      { ...headerOf(created), data: { c: '3' } },
      undefined,
      undefined,
      undefined,
      undefined,
      PatchStrategy.MergePatch,
    );
    assert.deepEqual(merged.data, { a: '10', c: '3' });
    const rv2 = Number(merged.metadata?.resourceVersion);
    assert.ok(rv2 > rv1);

    const jsonPatched = await jsonPatchApi(kc, [
      { op: 'test', path: '/data/a', value: '10' },
      { op: 'remove', path: '/data/a' },
      { op: 'add', path: '/data/d', value: '4' },
    ]).patch<V1ConfigMap>(
      headerOf(created),
      undefined,
      undefined,
      undefined,
      undefined,
      PatchStrategy.JsonPatch,
    );
    assert.deepEqual(jsonPatched.data, { c: '3', d: '4' });
    assert.ok(Number(jsonPatched.metadata?.resourceVersion) > rv2);
    // A failing `test` op changes nothing.
    await expectApiError(
      jsonPatchApi(kc, [{ op: 'test', path: '/data/c', value: 'nope' }]).patch(
        headerOf(created),
        undefined,
        undefined,
        undefined,
        undefined,
        PatchStrategy.JsonPatch,
      ),
      422,
    );
    assert.deepEqual((await objects.read<V1ConfigMap>(headerOf(created))).data, { c: '3', d: '4' });

    await objects.delete(headerOf(created));
    const gone = await expectApiError(objects.read(headerOf(created)), 404);
    assert.equal(gone.reason, 'NotFound');
  });

  it('does generic CRUD on an apps/v1 Deployment', async () => {
    const { objects, kc } = h!;
    const created = await objects.create(deployment(ns, 'web', 1));
    assert.equal(created.kind, 'Deployment');
    assert.equal(created.apiVersion, 'apps/v1');
    assert.equal(created.metadata?.generation, 1);

    const read = await objects.read<V1Deployment>(headerOf(created));
    assert.equal(read.spec?.replicas, 1);
    assert.equal(read.spec?.template.spec?.containers[0]?.image, 'nginx:1.27');

    const listed = await objects.list<V1Deployment>('apps/v1', 'Deployment', ns);
    assert.deepEqual(
      listed.items.map((i) => i.metadata?.name),
      ['web'],
    );

    const replaced = await objects.replace<V1Deployment>({
      ...read,
      spec: { ...read.spec!, replicas: 2 },
    });
    assert.equal(replaced.spec?.replicas, 2);
    assert.equal(replaced.metadata?.generation, 2);

    const mergePatch = (metadata: Record<string, unknown>): Promise<V1Deployment> =>
      objects.patch<V1Deployment>(
        { ...headerOf(created), metadata: { ...headerOf(created).metadata, ...metadata } },
        undefined,
        undefined,
        undefined,
        undefined,
        PatchStrategy.MergePatch,
      );
    const relabelled = await mergePatch({ labels: { tier: 'front' } });
    assert.deepEqual(relabelled.metadata?.labels, { suite: 'objects', tier: 'front' });
    assert.equal(relabelled.metadata?.generation, 2, 'a label change keeps the generation');
    // As upstream's deployment strategy: annotations are copied to ReplicaSets, so they count.
    const merged = await mergePatch({ annotations: { note: 'merged' } });
    assert.equal(merged.metadata?.annotations?.note, 'merged');
    assert.equal(merged.metadata?.generation, 3, 'an annotation change bumps a Deployment');
    assert.equal(merged.spec?.replicas, 2);

    const jsonPatched = await jsonPatchApi(kc, [
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.28' },
    ]).patch<V1Deployment>(
      headerOf(created),
      undefined,
      undefined,
      undefined,
      undefined,
      PatchStrategy.JsonPatch,
    );
    assert.equal(jsonPatched.spec?.template.spec?.containers[0]?.image, 'nginx:1.28');
    assert.equal(jsonPatched.metadata?.generation, 4);
    assert.ok(
      Number(jsonPatched.metadata?.resourceVersion) > Number(merged.metadata?.resourceVersion),
    );

    await objects.delete(headerOf(created));
    await expectApiError(objects.read(headerOf(created)), 404);
  });

  for (const kind of ['ConfigMap', 'Deployment'] as const) {
    for (const policy of ['Foreground', 'Orphan', 'Background'] as const) {
      it(`deletes a ${kind} with propagationPolicy=${policy} (a query parameter)`, async () => {
        const { objects } = h!;
        const name = `del-${kind.toLowerCase()}-${policy.toLowerCase()}`;
        const spec: KubernetesObject =
          kind === 'ConfigMap' ? support.configMap(ns, name, { x: '1' }) : deployment(ns, name);
        const created = await objects.create(spec);
        await objects.delete(headerOf(created), undefined, undefined, undefined, undefined, policy);

        if (policy === 'Background') {
          await expectApiError(objects.read(headerOf(created)), 404);
          return;
        }
        // No garbage collector yet: the object stays, marked for deletion, with the finalizer.
        const finalizer = policy === 'Foreground' ? 'foregroundDeletion' : 'orphan';
        const marked = await objects.read(headerOf(created));
        assert.equal(marked.metadata?.uid, created.metadata?.uid);
        assert.ok(marked.metadata?.deletionTimestamp, 'deletionTimestamp is set');
        assert.deepEqual(marked.metadata?.finalizers, [finalizer]);
        assert.ok(
          Number(marked.metadata?.resourceVersion) > Number(created.metadata?.resourceVersion),
        );

        // Emptying the finalizers (what the GC would do) removes it.
        await objects.replace({ ...marked, metadata: { ...marked.metadata, finalizers: [] } });
        await expectApiError(objects.read(headerOf(created)), 404);
      });
    }
  }

  it('surfaces a missing object as ApiException 404 with the Status body (typed CoreV1Api)', async () => {
    const status = await expectApiError(
      h!.core.readNamespacedConfigMap({ name: 'nope', namespace: ns }),
      404,
    );
    assert.equal(status.kind, 'Status');
    assert.equal(status.apiVersion, 'v1');
    assert.equal(status.status, 'Failure');
    assert.equal(status.reason, 'NotFound');
    assert.equal(status.code, 404);
    assert.equal(status.message, 'configmaps "nope" not found');
    assert.deepEqual(status.details, { name: 'nope', kind: 'configmaps' });
  });

  it('patches through typed APIs (JSON patch by default, merge patch via setHeaderOptions)', async () => {
    const { core, apps } = h!;
    await core.createNamespacedConfigMap({
      namespace: ns,
      body: support.configMap(ns, 'typed', { a: '1' }),
    });
    const jsonPatched = await core.patchNamespacedConfigMap({
      name: 'typed',
      namespace: ns,
      body: [{ op: 'add', path: '/data/b', value: '2' }],
    });
    assert.deepEqual(jsonPatched.data, { a: '1', b: '2' });

    const created = await apps.createNamespacedDeployment({
      namespace: ns,
      body: deployment(ns, 'scaled', 1),
    });
    const scale = await apps.patchNamespacedDeploymentScale(
      { name: 'scaled', namespace: ns, body: { spec: { replicas: 5 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    assert.equal(scale.kind, 'Scale');
    assert.equal(scale.apiVersion, 'autoscaling/v1');
    assert.equal(scale.metadata?.name, 'scaled');
    assert.equal(scale.spec?.replicas, 5);

    const deploymentAfter = await apps.readNamespacedDeployment({ name: 'scaled', namespace: ns });
    assert.equal(deploymentAfter.spec?.replicas, 5);
    assert.equal(deploymentAfter.metadata?.generation, (created.metadata?.generation ?? 0) + 1);
    assert.equal(deploymentAfter.metadata?.resourceVersion, scale.metadata?.resourceVersion);

    const readScale = await apps.readNamespacedDeploymentScale({ name: 'scaled', namespace: ns });
    assert.equal(readScale.spec?.replicas, 5);
    assert.equal(readScale.status?.selector, 'app=scaled');
  });
});
