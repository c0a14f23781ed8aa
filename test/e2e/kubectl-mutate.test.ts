/**
 * kubectl commands that change existing objects: label, annotate, scale (PATCH /scale and the
 * Content-Type-less PUT of `--current-replicas`), patch --type=merge|json, and the
 * `metadata.generation` rules. State is checked by reading objects back.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { API_ONLY } from './testing/cluster.js';
import {
  clusterForFile,
  configMap,
  createFromManifest,
  deployment,
  describeKubectl,
  inNamespace,
  KUBECTL_VERSIONS,
  namespaceObject,
} from './testing/kubectl-fixtures.js';

const current = clusterForFile({ args: API_ONLY });

for (const version of KUBECTL_VERSIONS) {
  describeKubectl(version, current, (s) => {
    const ns = `mutate-${s.slug}`;
    const { kc, run, read } = inNamespace(s, ns);

    before(async () => {
      await createFromManifest(s.k(), undefined, namespaceObject(ns));
      await createFromManifest(
        s.k(),
        ns,
        configMap('tagged', { labels: { app: 'web' } }),
        deployment('web', { replicas: 1 }),
      );
    });

    it('label: add, refuse to change without --overwrite, --overwrite, remove with key-', async () => {
      assert.equal(
        await kc('label', 'configmap', 'tagged', 'tier=frontend'),
        'configmap/tagged labeled\n',
      );
      assert.deepEqual((await read('configmap', 'tagged')).metadata.labels, {
        app: 'web',
        tier: 'frontend',
      });

      const clash = await run('label', 'configmap', 'tagged', 'tier=backend');
      assert.equal(clash.code, 1);
      assert.equal(
        clash.stderr,
        "error: 'tier' already has a value (frontend), and --overwrite is false\n",
      );
      assert.equal((await read('configmap', 'tagged')).metadata.labels?.tier, 'frontend');

      assert.equal(
        await kc('label', 'configmap', 'tagged', 'tier=backend', '--overwrite'),
        'configmap/tagged labeled\n',
      );
      assert.equal((await read('configmap', 'tagged')).metadata.labels?.tier, 'backend');
      assert.equal(
        await kc('get', 'configmaps', '-l', 'tier=backend', '-o', 'name'),
        'configmap/tagged\n',
      );

      assert.equal(
        await kc('label', 'configmap', 'tagged', 'tier-'),
        'configmap/tagged unlabeled\n',
      );
      assert.deepEqual((await read('configmap', 'tagged')).metadata.labels, { app: 'web' });
    });

    it('annotate: add, refuse to change without --overwrite, --overwrite, remove with key-', async () => {
      // kubectl 1.27 prints the verb without the d ("annotate"); later versions say "annotated".
      const annotated = `configmap/tagged ${version === '1.27' ? 'annotate' : 'annotated'}\n`;
      assert.equal(
        await kc('annotate', 'configmap', 'tagged', 'note=hello', 'owner=team-a'),
        annotated,
      );
      assert.deepEqual((await read('configmap', 'tagged')).metadata.annotations, {
        note: 'hello',
        owner: 'team-a',
      });

      const clash = await run('annotate', 'configmap', 'tagged', 'note=bye');
      assert.equal(clash.code, 1);
      assert.equal(
        clash.stderr,
        "error: --overwrite is false but found the following declared annotation(s): 'note' already has a value (hello)\n",
      );
      assert.equal((await read('configmap', 'tagged')).metadata.annotations?.note, 'hello');

      assert.equal(
        await kc('annotate', 'configmap', 'tagged', 'note=bye', '--overwrite'),
        annotated,
      );
      assert.equal((await read('configmap', 'tagged')).metadata.annotations?.note, 'bye');

      assert.equal(await kc('annotate', 'configmap', 'tagged', 'note-'), annotated);
      assert.deepEqual((await read('configmap', 'tagged')).metadata.annotations, {
        owner: 'team-a',
      });
    });

    it('scale --replicas=5, then --current-replicas=5 --replicas=2', async () => {
      const before1 = await read('deployment', 'web');
      assert.equal(
        await kc('scale', 'deployment', 'web', '--replicas=5'),
        'deployment.apps/web scaled\n',
      );
      assert.equal(await kc('get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}'), '5');
      const after5 = await read('deployment', 'web');
      assert.equal(after5.metadata.generation, (before1.metadata.generation ?? 0) + 1);

      // GET /scale, then PUT /scale with the Scale's resourceVersion and no Content-Type.
      assert.equal(
        await kc('scale', 'deployment', 'web', '--current-replicas=5', '--replicas=2'),
        'deployment.apps/web scaled\n',
      );
      const after2 = await read('deployment', 'web');
      assert.equal(after2.spec?.replicas, 2);
      assert.equal(after2.metadata.generation, (after5.metadata.generation ?? 0) + 1);
      assert.equal(after2.metadata.uid, before1.metadata.uid);
    });

    it('scale with a wrong --current-replicas fails and changes nothing', async () => {
      const r = await run('scale', 'deployment', 'web', '--current-replicas=5', '--replicas=3');
      assert.equal(r.code, 1);
      assert.equal(r.stderr, 'error: Expected replicas to be 5, was 2\n');
      assert.equal((await read('deployment', 'web')).spec?.replicas, 2);
    });

    it('PUT /scale with a stale resourceVersion: Conflict', async () => {
      const path = `/apis/apps/v1/namespaces/${ns}/deployments/web/scale`;
      const scale = JSON.parse(await s.k().ok(['get', '--raw', path])) as {
        kind: string;
        apiVersion: string;
        metadata: { resourceVersion: string };
        spec: { replicas: number };
        status: { selector: string };
      };
      assert.equal(scale.kind, 'Scale');
      assert.equal(scale.apiVersion, 'autoscaling/v1');
      assert.equal(scale.spec.replicas, 2);
      assert.equal(scale.status.selector, 'app=web');
      await kc('label', 'deployment', 'web', 'bumped=yes');
      const stale = JSON.stringify({ ...scale, spec: { replicas: 9 } });
      const r = await s
        .k()
        .run(['replace', '--raw', path, '-f', '-', '--validate=false'], { input: stale });
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        'Error from server (Conflict): Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again\n',
      );
      assert.equal((await read('deployment', 'web')).spec?.replicas, 2);
    });

    it('patch --type=merge on the spec bumps generation; a label change does not', async () => {
      const start = await read('deployment', 'web');
      const gen = start.metadata.generation ?? 0;
      assert.equal(
        await kc(
          'patch',
          'deployment',
          'web',
          '--type=merge',
          '-p',
          '{"spec":{"minReadySeconds":7}}',
        ),
        'deployment.apps/web patched\n',
      );
      const patched = await read('deployment', 'web');
      assert.equal(patched.spec?.minReadySeconds, 7);
      assert.equal(patched.metadata.generation, gen + 1);

      assert.equal(
        await kc(
          'patch',
          'deployment',
          'web',
          '--type=merge',
          '-p',
          '{"spec":{"minReadySeconds":7}}',
        ),
        'deployment.apps/web patched (no change)\n',
      );
      assert.equal((await read('deployment', 'web')).metadata.generation, gen + 1);

      await kc('label', 'deployment', 'web', 'team=blue');
      const labeled = await read('deployment', 'web');
      assert.equal(labeled.metadata.labels?.team, 'blue');
      assert.equal(labeled.metadata.generation, gen + 1, 'a metadata-only change keeps generation');
      assert.notEqual(labeled.metadata.resourceVersion, patched.metadata.resourceVersion);

      // Upstream's deployment strategy also bumps generation on annotation changes (they are
      // copied to ReplicaSets); labels never do.
      await kc(
        'patch',
        'deployment',
        'web',
        '--type=merge',
        '-p',
        '{"metadata":{"annotations":{"a":"b"}}}',
      );
      assert.equal((await read('deployment', 'web')).metadata.generation, gen + 2);
    });

    it('patch --type=json applies every op; a failing test op rejects the whole patch', async () => {
      const ops = [
        { op: 'replace', path: '/spec/replicas', value: 4 },
        { op: 'add', path: '/metadata/labels/patched', value: 'yes' },
        { op: 'remove', path: '/metadata/labels/team' },
      ];
      assert.equal(
        await kc('patch', 'deployment', 'web', '--type=json', '-p', JSON.stringify(ops)),
        'deployment.apps/web patched\n',
      );
      const patched = await read('deployment', 'web');
      assert.equal(patched.spec?.replicas, 4);
      assert.equal(patched.metadata.labels?.patched, 'yes');
      assert.equal(patched.metadata.labels?.team, undefined);

      const failing = [
        { op: 'test', path: '/spec/replicas', value: 9 },
        { op: 'replace', path: '/spec/replicas', value: 7 },
      ];
      const r = await run(
        'patch',
        'deployment',
        'web',
        '--type=json',
        '-p',
        JSON.stringify(failing),
      );
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        'The request is invalid: the server rejected our request due to an error in our request\n',
      );
      const unchanged = await read('deployment', 'web');
      assert.equal(unchanged.spec?.replicas, 4);
      assert.equal(unchanged.metadata.resourceVersion, patched.metadata.resourceVersion);

      const passing = [
        { op: 'test', path: '/spec/replicas', value: 4 },
        { op: 'replace', path: '/spec/replicas', value: 6 },
      ];
      await kc('patch', 'deployment', 'web', '--type=json', '-p', JSON.stringify(passing));
      assert.equal((await read('deployment', 'web')).spec?.replicas, 6);
    });
  });
}
