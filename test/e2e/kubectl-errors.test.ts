/**
 * The error lines kubectl users read, against a real `fleetyard up`: a wrong token, a missing
 * namespace, NotFound, an invalid name, AlreadyExists and an optimistic-lock Conflict. Exit codes
 * and stderr are asserted exactly; the stored state is read back.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { API_ONLY } from './testing/cluster.js';
import {
  clusterForFile,
  configMap,
  createFromManifest,
  describeKubectl,
  getJson,
  KUBECTL_VERSIONS,
  kubeconfigWithToken,
  lines,
  manifest,
  namespaceObject,
  newCacheDir,
  runWithCache,
} from './testing/kubectl-fixtures.js';

const current = clusterForFile({ args: API_ONLY });

for (const version of KUBECTL_VERSIONS) {
  describeKubectl(version, current, (s) => {
    const ns = `errors-${s.slug}`;

    before(async () => {
      await createFromManifest(s.k(), undefined, namespaceObject(ns));
    });

    it('a wrong token: You must be logged in to the server', async () => {
      const c = current();
      const bad = kubeconfigWithToken(c.kubeconfig, 'not-the-token');
      // Warm discovery cache (a token that stopped working): the request's own 401 Status.
      const cache = newCacheDir(version);
      const good = await runWithCache(s.bin, c.kubeconfig, cache, ['get', 'pods', '-n', ns]);
      assert.equal(good.code, 0, good.stderr);
      const warm = await runWithCache(s.bin, bad, cache, ['get', 'pods', '-n', ns]);
      assert.equal(warm.code, 1);
      assert.equal(warm.stdout, '');
      assert.equal(warm.stderr, 'error: You must be logged in to the server (Unauthorized)\n');
      // Cold cache: discovery fails first; client-go words the same 401 differently.
      const cold = await runWithCache(s.bin, bad, newCacheDir(version), ['get', 'pods', '-n', ns]);
      assert.equal(cold.code, 1);
      assert.equal(
        lines(cold.stderr).at(-1),
        'error: You must be logged in to the server (the server has asked for the client to provide credentials)',
      );
    });

    it('creating into a missing namespace fails with NotFound', async () => {
      const missing = `nowhere-${s.slug}`;
      const run = await s.k().run(['run', 'p', '--image=nginx', '-n', missing]);
      assert.equal(run.code, 1);
      assert.equal(run.stderr, `Error from server (NotFound): namespaces "${missing}" not found\n`);
      const create = await s.k().run(['create', '-n', missing, '-f', '-', '--validate=false'], {
        input: manifest(configMap('cfg')),
      });
      assert.equal(create.code, 1);
      assert.equal(
        create.stderr,
        `Error from server (NotFound): error when creating "STDIN": namespaces "${missing}" not found\n`,
      );
    });

    it('get pod nope: exit 1 and the NotFound line', async () => {
      const r = await s.k().run(['-n', ns, 'get', 'pod', 'nope']);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, 'Error from server (NotFound): pods "nope" not found\n');
      const d = await s.k().run(['-n', ns, 'get', 'deployment', 'nope']);
      assert.equal(d.code, 1);
      assert.equal(d.stderr, 'Error from server (NotFound): deployments.apps "nope" not found\n');
    });

    it('an invalid name: The ConfigMap "Bad_Name" is invalid: metadata.name: …', async () => {
      const r = await s.k().run(['-n', ns, 'create', '-f', '-', '--validate=false'], {
        input: manifest(configMap('Bad_Name')),
      });
      assert.equal(r.code, 1);
      assert.ok(
        r.stderr.startsWith(
          'The ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ',
        ),
        r.stderr,
      );
      assert.match(r.stderr, /RFC 1123 subdomain/);
      const stored = await s.k().run(['-n', ns, 'get', 'configmap', 'Bad_Name']);
      assert.equal(stored.code, 1);
    });

    it('a duplicate create: AlreadyExists', async () => {
      await createFromManifest(s.k(), ns, configMap('web-config', { data: { color: 'blue' } }));
      const r = await s.k().run(['-n', ns, 'create', '-f', '-', '--validate=false'], {
        input: manifest(configMap('web-config')),
      });
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        'Error from server (AlreadyExists): error when creating "STDIN": configmaps "web-config" already exists\n',
      );
      const cm = await getJson(s.k(), ['-n', ns, 'configmap', 'web-config']);
      assert.deepEqual(cm.data, { color: 'blue' }, 'the stored object is untouched');
    });

    it('replace with a stale resourceVersion: Conflict; with a fresh one it succeeds', async () => {
      await createFromManifest(s.k(), ns, configMap('replaced', { data: { v: '1' } }));
      const stale = await getJson(s.k(), ['-n', ns, 'configmap', 'replaced']);
      await s.k().ok(['-n', ns, 'label', 'configmap', 'replaced', 'touched=yes']);
      const edited = JSON.stringify({ ...stale, data: { v: '2' } });
      const r = await s
        .k()
        .run(['-n', ns, 'replace', '-f', '-', '--validate=false'], { input: edited });
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        'Error from server (Conflict): error when replacing "STDIN": Operation cannot be fulfilled on configmaps "replaced": the object has been modified; please apply your changes to the latest version and try again\n',
      );
      const after1 = await getJson(s.k(), ['-n', ns, 'configmap', 'replaced']);
      assert.deepEqual(after1.data, { v: '1' });
      const fresh = JSON.stringify({ ...after1, data: { v: '3' } });
      assert.equal(
        await s.k().ok(['-n', ns, 'replace', '-f', '-', '--validate=false'], { input: fresh }),
        'configmap/replaced replaced\n',
      );
      const after2 = await getJson(s.k(), ['-n', ns, 'configmap', 'replaced']);
      assert.deepEqual(after2.data, { v: '3' });
      assert.equal(after2.metadata.uid, stale.metadata.uid);
      assert.notEqual(after2.metadata.resourceVersion, after1.metadata.resourceVersion);
    });
  });
}
