/**
 * The imperative writes across the matrix, with default flags: `create -f` of several kinds,
 * `edit` through an `EDITOR` script, `replace -f`, `patch` (default strategic, merge, json),
 * `label`/`annotate --overwrite`, and server-side dry runs of `create` and `apply` that store
 * nothing.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  configMap,
  describeKubectl,
  lines,
  manifest,
  secret,
  service,
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
  readsMissing,
  sedEditor,
  withEditor,
} from './testing/matrix-fixtures.js';

const { current, audit } = matrixCluster();

interface Container {
  name: string;
  image: string;
}
const containersOf = (o: { spec?: Record<string, unknown> }): Container[] =>
  (o.spec as { template: { spec: { containers: Container[] } } }).template.spec.containers;

for (const version of MATRIX_VERSIONS) {
  describeKubectl(version, current, (s) => {
    const n = matrixNamespace(s, audit, 'mutate');
    const { ns, kc, run, pipe, read } = n;
    const pair = deploymentWith('pair', [
      { name: 'web', image: 'nginx:1.27' },
      { name: 'sidecar', image: 'busybox:1.36' },
    ]);

    before(async () => {
      clean(await pipe(manifest(pair), 'create', '-f', '-'), 'create pair');
    });

    it('create -f of a ConfigMap, a Secret and a Service prints one line each', async () => {
      const r = await pipe(
        manifest(
          configMap('settings', { data: { mode: 'fast' } }),
          secret('creds'),
          service('front'),
        ),
        'create',
        '-f',
        '-',
      );
      assert.deepEqual(lines(clean(r, 'create -f')), [
        'configmap/settings created',
        'secret/creds created',
        'service/front created',
      ]);
      const stored = await read<{ data: Record<string, string> }>('secret', 'creds');
      assert.equal(Buffer.from(stored.data.password ?? '', 'base64').toString(), 's3cr3t');
      const svc = await read('service', 'front');
      assert.match(String(svc.spec?.clusterIP), /^\d+\.\d+\.\d+\.\d+$/);
    });

    it('edit through EDITOR rewrites a field: edited, and the change is stored', async () => {
      await kc('create', 'configmap', 'editable', '--from-literal=mode=slow');
      const editor = sedEditor('s/mode: slow/mode: turbo/');
      const r = await withEditor(editor, () => run('edit', 'configmap', 'editable'));
      assert.equal(clean(r, 'edit'), 'configmap/editable edited\n');
      assert.deepEqual((await read('configmap', 'editable')).data, { mode: 'turbo' });

      // An editor that changes nothing: kubectl says so and sends no write.
      const idle = await withEditor(sedEditor('s/no-such-text//'), () =>
        run('edit', 'configmap', 'editable'),
      );
      assert.equal(idle.code, 0, idle.stderr);
      assert.equal(idle.stderr, 'Edit cancelled, no changes made.\n');
    });

    it('edit of a Deployment container image sends an SMP that keeps the other container', async () => {
      const r = await withEditor(sedEditor('s/image: nginx:1.27/image: nginx:1.29/'), () =>
        run('edit', 'deployment', 'pair'),
      );
      assert.equal(clean(r, 'edit deployment'), 'deployment.apps/pair edited\n');
      assert.deepEqual(
        containersOf(await read('deployment', 'pair')).map((c) => [c.name, c.image]),
        [
          ['web', 'nginx:1.29'],
          ['sidecar', 'busybox:1.36'],
        ],
      );
    });

    it('replace -f swaps the whole object: replaced, old keys gone', async () => {
      await kc('create', 'configmap', 'swapped', '--from-literal=old=1');
      const r = await pipe(
        manifest(configMap('swapped', { data: { new: '2' } })),
        'replace',
        '-f',
        '-',
      );
      assert.equal(clean(r, 'replace'), 'configmap/swapped replaced\n');
      assert.deepEqual((await read('configmap', 'swapped')).data, { new: '2' });
    });

    it('patch without --type is strategic: a container list merges by name', async () => {
      const patch = {
        spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'busybox:1.37' }] } } },
      };
      assert.equal(
        await kc('patch', 'deployment', 'pair', '-p', JSON.stringify(patch)),
        'deployment.apps/pair patched\n',
      );
      const images = containersOf(await read('deployment', 'pair')).map((c) => [c.name, c.image]);
      assert.deepEqual(images, [
        ['web', 'nginx:1.29'],
        ['sidecar', 'busybox:1.37'],
      ]);

      const del = {
        spec: { template: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } } },
      };
      assert.equal(
        await kc('patch', 'deployment', 'pair', '-p', JSON.stringify(del)),
        'deployment.apps/pair patched\n',
      );
      assert.deepEqual(
        containersOf(await read('deployment', 'pair')).map((c) => c.name),
        ['web'],
      );
    });

    it('patch --type=merge replaces the list; --type=json edits by index', async () => {
      const merge = {
        spec: { template: { spec: { containers: [{ name: 'solo', image: 'redis:7' }] } } },
      };
      assert.equal(
        await kc('patch', 'deployment', 'pair', '--type=merge', '-p', JSON.stringify(merge)),
        'deployment.apps/pair patched\n',
      );
      assert.deepEqual(
        containersOf(await read('deployment', 'pair')).map((c) => [c.name, c.image]),
        [['solo', 'redis:7']],
      );
      const ops = [
        { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'redis:8' },
      ];
      assert.equal(
        await kc('patch', 'deployment', 'pair', '--type=json', '-p', JSON.stringify(ops)),
        'deployment.apps/pair patched\n',
      );
      assert.equal(containersOf(await read('deployment', 'pair'))[0]?.image, 'redis:8');
    });

    it('label and annotate --overwrite change existing keys', async () => {
      await kc('create', 'configmap', 'tagged', '--from-literal=k=v');
      await kc('label', 'configmap', 'tagged', 'tier=front');
      assert.equal(
        await kc('label', 'configmap', 'tagged', 'tier=back', '--overwrite'),
        'configmap/tagged labeled\n',
      );
      // kubectl 1.27 prints the verb without the d.
      const annotated = `configmap/tagged ${version === '1.27' ? 'annotate' : 'annotated'}\n`;
      await kc('annotate', 'configmap', 'tagged', 'note=first');
      assert.equal(
        await kc('annotate', 'configmap', 'tagged', 'note=second', '--overwrite'),
        annotated,
      );
      const live = await read('configmap', 'tagged');
      assert.equal(live.metadata.labels?.tier, 'back');
      assert.equal(live.metadata.annotations?.note, 'second');
    });

    it('create --dry-run=server and apply --dry-run=server store nothing', async () => {
      const path = objectPath(ns, 'configmaps', 'ghost');
      audit.expect(applyCreates(path), readsMissing(path));
      const ghost = manifest(configMap('ghost', { data: { k: 'v' } }));
      assert.equal(
        clean(await pipe(ghost, 'create', '-f', '-', '--dry-run=server'), 'create dry run'),
        'configmap/ghost created (server dry run)\n',
      );
      assert.equal(
        clean(await pipe(ghost, 'apply', '-f', '-', '--dry-run=server'), 'apply dry run'),
        'configmap/ghost created (server dry run)\n',
      );
      const missing = await run('get', 'configmap', 'ghost');
      assert.equal(missing.code, 1);
      assert.equal(missing.stderr, 'Error from server (NotFound): configmaps "ghost" not found\n');

      // On an existing object: configured, but the stored object keeps its version.
      audit.expect(applyCreates(objectPath(ns, 'configmaps', 'solid')));
      await applyObjects(n, [configMap('solid', { data: { k: 'v' } })]);
      const before1 = await read('configmap', 'solid');
      const changed = manifest(configMap('solid', { data: { k: 'changed' } }));
      assert.equal(
        clean(await pipe(changed, 'apply', '-f', '-', '--dry-run=server'), 'apply dry run'),
        'configmap/solid configured (server dry run)\n',
      );
      const after1 = await read('configmap', 'solid');
      assert.equal(after1.metadata.resourceVersion, before1.metadata.resourceVersion);
      assert.deepEqual(after1.data, { k: 'v' });
    });
  });
}
