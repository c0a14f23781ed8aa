/**
 * kubectl apply across the matrix, with default flags: client-side apply (create, configured,
 * unchanged, a field dropped from the manifest disappears, a Deployment edit that drops a
 * container, an env var and a port and switches the strategy: the SMP with `$setElementOrder`,
 * `$patch: delete` and `$retainKeys`), and server-side apply (create, update, field removal,
 * the conflict with kubectl's help text, `--force-conflicts`, and the CSA→SSA migration).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  configMap,
  describeKubectl,
  getJson,
  type KubeObject,
  manifest,
} from './testing/kubectl-fixtures.js';
import {
  applyCreates,
  applyObjects,
  clean,
  deploymentWith,
  MATRIX_VERSIONS,
  matrixCluster,
  matrixNamespace,
  objectPath,
} from './testing/matrix-fixtures.js';

const { current, audit } = matrixCluster();

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** kubectl's text after a server-side apply conflict (apply.go, unchanged since 1.18). */
const CONFLICT_HELP = `Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the \`--force-conflicts\` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts
`;

interface ManagedFieldsEntry {
  manager: string;
  operation: string;
  apiVersion: string;
  fieldsType?: string;
  fieldsV1?: Record<string, unknown>;
}
type WithManagedFields = KubeObject & { metadata: { managedFields?: ManagedFieldsEntry[] } };

interface Container {
  name: string;
  image: string;
  env?: Array<{ name: string; value: string }>;
  ports?: Array<{ containerPort: number }>;
}

for (const version of MATRIX_VERSIONS) {
  describeKubectl(version, current, (s) => {
    const n = matrixNamespace(s, audit, 'apply');
    const { ns, read, pipe } = n;
    /** kubectl hides managedFields unless asked (`--show-managed-fields`, kubectl 1.21+). */
    const readManaged = (kind: string, name: string) =>
      getJson<WithManagedFields>(s.k(), ['-n', ns, kind, name, '--show-managed-fields']);
    const ssa = async (objects: KubeObject[], ...flags: string[]) =>
      pipe(manifest(...objects), 'apply', '--server-side', '-f', '-', ...flags);

    it('apply creates, then configured, then unchanged; a dropped key disappears', async () => {
      audit.expect(applyCreates(objectPath(ns, 'configmaps', 'app-config')));
      const v1 = configMap('app-config', {
        labels: { app: 'web', tier: 'front' },
        data: { a: '1', b: '2' },
      });
      assert.equal(await applyObjects(n, [v1]), 'configmap/app-config created\n');
      const created = await read('configmap', 'app-config');
      assert.deepEqual(created.data, { a: '1', b: '2' });
      assert.deepEqual(JSON.parse(created.metadata.annotations?.[LAST_APPLIED] ?? '{}').data, {
        a: '1',
        b: '2',
      });

      const v2 = configMap('app-config', { labels: { app: 'web' }, data: { a: '10' } });
      assert.equal(await applyObjects(n, [v2]), 'configmap/app-config configured\n');
      const updated = await read('configmap', 'app-config');
      assert.deepEqual(updated.data, { a: '10' }, 'b was dropped from the manifest');
      assert.deepEqual(updated.metadata.labels, { app: 'web' }, 'tier was dropped');
      assert.equal(updated.metadata.uid, created.metadata.uid);

      assert.equal(await applyObjects(n, [v2]), 'configmap/app-config unchanged\n');
      const again = await read('configmap', 'app-config');
      assert.equal(again.metadata.resourceVersion, updated.metadata.resourceVersion);
    });

    it('apply of a trimmed Deployment: SMP drops a container, an env var and a port', async () => {
      audit.expect(applyCreates(objectPath(ns, 'deployments', 'shop', 'apps')));
      const full = deploymentWith('shop', [
        {
          name: 'web',
          image: 'nginx:1.27',
          env: [
            { name: 'MODE', value: 'prod' },
            { name: 'DEBUG', value: 'false' },
          ],
          ports: [{ containerPort: 80 }, { containerPort: 81 }],
        },
        { name: 'sidecar', image: 'busybox:1.36' },
      ]);
      assert.equal(await applyObjects(n, [full]), 'deployment.apps/shop created\n');
      const before = await read('deployment', 'shop');
      assert.equal((before.spec?.strategy as { type?: string } | undefined)?.type, 'RollingUpdate');

      const trimmed = deploymentWith(
        'shop',
        [
          {
            name: 'web',
            image: 'nginx:1.28',
            env: [{ name: 'MODE', value: 'prod' }],
            ports: [{ containerPort: 80 }],
          },
        ],
        { strategy: { type: 'Recreate' } },
      );
      assert.equal(await applyObjects(n, [trimmed]), 'deployment.apps/shop configured\n');
      const after = await read('deployment', 'shop');
      const spec = after.spec as {
        strategy: Record<string, unknown>;
        template: { spec: { containers: Container[] } };
      };
      // $retainKeys drops the defaulted rollingUpdate block (Recreate with it is invalid).
      assert.deepEqual(spec.strategy, { type: 'Recreate' });
      const containers = spec.template.spec.containers;
      assert.deepEqual(
        containers.map((c) => c.name),
        ['web'],
      );
      assert.equal(containers[0]?.image, 'nginx:1.28');
      assert.deepEqual(containers[0]?.env, [{ name: 'MODE', value: 'prod' }]);
      assert.deepEqual(
        containers[0]?.ports?.map((p) => p.containerPort),
        [80],
      );
      assert.equal(after.metadata.generation, (before.metadata.generation ?? 0) + 1);
    });

    it('apply --server-side: create, update, and a dropped key is removed', async () => {
      const v1 = configMap('ssa-config', { data: { key: 'one', more: 'x' } });
      assert.equal(
        clean(await ssa([v1]), 'ssa create'),
        'configmap/ssa-config serverside-applied\n',
      );
      const created = await readManaged('configmap', 'ssa-config');
      assert.deepEqual(created.data, { key: 'one', more: 'x' });
      const managers = created.metadata.managedFields ?? [];
      assert.deepEqual(
        managers.map((m) => [m.manager, m.operation, m.apiVersion, m.fieldsType]),
        [['kubectl', 'Apply', 'v1', 'FieldsV1']],
      );
      assert.deepEqual(managers[0]?.fieldsV1?.['f:data'], { 'f:key': {}, 'f:more': {} });
      assert.equal(created.metadata.annotations?.[LAST_APPLIED], undefined);

      const v2 = configMap('ssa-config', { data: { key: 'two' } });
      assert.equal(
        clean(await ssa([v2]), 'ssa update'),
        'configmap/ssa-config serverside-applied\n',
      );
      const updated = await read('configmap', 'ssa-config');
      assert.deepEqual(updated.data, { key: 'two' }, 'more was owned by kubectl only');
      assert.equal(updated.metadata.uid, created.metadata.uid);
    });

    it('apply --server-side of a Deployment drops the container it no longer lists', async () => {
      const two = deploymentWith('ssa-web', [
        { name: 'web', image: 'nginx:1.27' },
        { name: 'sidecar', image: 'busybox:1.36' },
      ]);
      assert.equal(clean(await ssa([two]), 'ssa'), 'deployment.apps/ssa-web serverside-applied\n');
      const one = deploymentWith('ssa-web', [{ name: 'web', image: 'nginx:1.27' }], {
        replicas: 2,
      });
      assert.equal(clean(await ssa([one]), 'ssa'), 'deployment.apps/ssa-web serverside-applied\n');
      const live = await read('deployment', 'ssa-web');
      const spec = live.spec as {
        replicas: number;
        template: { spec: { containers: Container[] } };
      };
      assert.equal(spec.replicas, 2);
      assert.deepEqual(
        spec.template.spec.containers.map((c) => c.name),
        ['web'],
      );
    });

    it('apply --server-side over a client-side apply: conflict, help text, --force-conflicts', async () => {
      audit.expect(applyCreates(objectPath(ns, 'configmaps', 'shared')), {
        method: 'PATCH',
        path: objectPath(ns, 'configmaps', 'shared'),
        code: 409,
        why: 'the apply conflicts with kubectl-client-side-apply',
        required: true,
      });
      await applyObjects(n, [configMap('shared', { data: { key: 'value' } })]);
      const before = await read('configmap', 'shared');

      // Another manager: kubectl's own `--server-side` (manager "kubectl") takes over the
      // fields the last-applied annotation lists without a conflict, as upstream's
      // lastAppliedManager does, so the conflict needs a different field manager.
      const changed = [configMap('shared', { data: { key: 'other' } })];
      const conflict = await ssa(changed, '--field-manager=other-tool');
      assert.equal(conflict.code, 1);
      assert.equal(conflict.stdout, '');
      assert.equal(
        conflict.stderr,
        `error: Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .data.key\n${CONFLICT_HELP}`,
      );
      const untouched = await read('configmap', 'shared');
      assert.equal(untouched.metadata.resourceVersion, before.metadata.resourceVersion);

      assert.equal(
        clean(await ssa(changed, '--field-manager=other-tool', '--force-conflicts'), 'forced'),
        'configmap/shared serverside-applied\n',
      );
      const forced = await readManaged('configmap', 'shared');
      assert.deepEqual(forced.data, { key: 'other' });
      const owners = (forced.metadata.managedFields ?? []).filter(
        (m) => (m.fieldsV1?.['f:data'] as Record<string, unknown> | undefined)?.['f:key'],
      );
      assert.deepEqual(
        owners.map((m) => [m.manager, m.operation]),
        [['other-tool', 'Apply']],
        'the forced apply took .data.key over',
      );
    });

    it('kubectl apply, then apply --server-side: the managers migrate and the data stays', async () => {
      audit.expect(applyCreates(objectPath(ns, 'configmaps', 'migrating')));
      const config = configMap('migrating', {
        labels: { app: 'm' },
        data: { key: 'v', extra: 'x' },
      });
      await applyObjects(n, [config]);
      const csa = await readManaged('configmap', 'migrating');
      assert.deepEqual(
        (csa.metadata.managedFields ?? []).map((m) => [m.manager, m.operation]),
        [['kubectl-client-side-apply', 'Update']],
      );

      // Same manifest: no conflict (same values), then kubectl's own migration requests: an
      // apply as kubectl-last-applied and a JSON patch of managedFields; stderr stays empty.
      assert.equal(
        clean(await ssa([config]), 'migrating ssa'),
        'configmap/migrating serverside-applied\n',
      );
      const migrated = await readManaged('configmap', 'migrating');
      assert.deepEqual(migrated.data, { key: 'v', extra: 'x' });
      assert.deepEqual(migrated.metadata.labels, { app: 'm' });
      assert.ok(migrated.metadata.annotations?.[LAST_APPLIED], 'last-applied is kept');
      const managers = (migrated.metadata.managedFields ?? []).map((m) => m.manager);
      assert.ok(managers.includes('kubectl'), `managers: ${managers.join(', ')}`);
      assert.ok(
        !managers.includes('kubectl-client-side-apply'),
        `managers: ${managers.join(', ')}`,
      );

      // Now kubectl owns every field through Apply, so dropping one removes it.
      const trimmed = configMap('migrating', { labels: { app: 'm' }, data: { key: 'v' } });
      assert.equal(clean(await ssa([trimmed]), 'ssa'), 'configmap/migrating serverside-applied\n');
      assert.deepEqual((await read('configmap', 'migrating')).data, { key: 'v' });
    });
  });
}
