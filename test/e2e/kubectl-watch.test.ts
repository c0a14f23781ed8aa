/**
 * `kubectl get -w` against a real `fleetyard up`: events arrive as objects are created,
 * changed and deleted; a label selector turns label changes into ADDED/DELETED; and a watch
 * without timeoutSeconds is ended by the server after --min-request-timeout..2× seconds, which
 * kubectl treats as a normal end (exit 0).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { API_ONLY } from './testing/cluster.js';
import {
  type BackgroundKubectl,
  clusterForFile,
  configMap,
  createFromManifest,
  describeKubectl,
  inNamespace,
  KUBECTL_VERSIONS,
  namespaceObject,
  startBackground,
} from './testing/kubectl-fixtures.js';

/**
 * Watches without timeoutSeconds end after MIN..2×MIN seconds. The selector watch must outlive
 * two tests' nine kubectl runs: 3 s was too short once on a loaded 2-core machine (CI), 6 s
 * leaves room while the expiry test still waits only 6–12 s per version.
 */
const MIN_REQUEST_TIMEOUT_S = 6;

const running: BackgroundKubectl[] = [];
// Registered before the cluster's hooks, so the watchers are stopped before the server.
after(async () => {
  await Promise.all(running.map((w) => w.stop()));
});
const current = clusterForFile({
  args: [...API_ONLY, '--min-request-timeout', String(MIN_REQUEST_TIMEOUT_S)],
});

const EVENTS = ['--output-watch-events', '-o', 'jsonpath={.type} {.object.metadata.name}{"\\n"}'];

for (const version of KUBECTL_VERSIONS) {
  describeKubectl(version, current, (s) => {
    const ns = `watch-${s.slug}`;
    const { kc } = inNamespace(s, ns);
    const watch = (...args: string[]): BackgroundKubectl => {
      const w = startBackground(s.bin, current().kubeconfig, ['-n', ns, 'get', ...args]);
      running.push(w);
      return w;
    };
    // Started in `before` and left alone, so the server ends it while the other tests run.
    let expiring: BackgroundKubectl | undefined;
    let expiringStarted = 0;

    before(async () => {
      await createFromManifest(s.k(), undefined, namespaceObject(ns));
      await createFromManifest(s.k(), ns, configMap('seed', { labels: { app: 'watched' } }));
      expiringStarted = Date.now();
      expiring = watch('configmaps', '-w', '-l', 'app=watched', ...EVENTS);
      await expiring.waitForLines('the initial ADDED seed', (l) => l.includes('ADDED seed'));
    });

    it('get -w -o name prints each create, change and delete, until stopped', async () => {
      const w = watch('configmaps', '-w', '-o', 'name');
      await w.waitForLines('the initial list', (l) => l.includes('configmap/seed'));
      assert.deepEqual(w.lines(), ['configmap/seed']);

      assert.equal(
        await createFromManifest(s.k(), ns, configMap('named', { data: { v: '1' } })),
        'configmap/named created\n',
      );
      await kc('label', 'configmap', 'named', 'step=two');
      await kc('delete', 'configmap', 'named');
      await w.waitForLines('three events for configmap/named', (l) => l.length >= 4);
      assert.deepEqual(w.lines(), [
        'configmap/seed',
        'configmap/named',
        'configmap/named',
        'configmap/named',
      ]);

      const code = await w.stop();
      assert.notEqual(code, 0, 'kubectl was stopped by a signal, not by the server');
      assert.equal(w.stderr(), '');
    });

    it('get -w --output-watch-events shows ADDED, MODIFIED and DELETED', async () => {
      const w = watch('configmaps', '-w', ...EVENTS);
      // The initial list is printed as ADDED events; once seed is there, the watch is running.
      await w.waitForLines('the initial ADDED seed', (l) => l.includes('ADDED seed'));
      await createFromManifest(s.k(), ns, configMap('evented'));
      await kc('annotate', 'configmap', 'evented', 'seen=yes');
      await kc('delete', 'configmap', 'evented');
      const want = ['ADDED seed', 'ADDED evented', 'MODIFIED evented', 'DELETED evented'];
      await w.waitForLines('ADDED, MODIFIED, DELETED', (l) => l.length >= want.length);
      assert.deepEqual(w.lines(), want);
      await w.stop();
    });

    it('get -w -l: label changes into and out of the selector are ADDED and DELETED', async () => {
      const w = expiring;
      assert.ok(w, 'the selector watch was started');
      await createFromManifest(
        s.k(),
        ns,
        configMap('sel-a', { labels: { app: 'watched' } }),
        configMap('sel-b', { labels: { app: 'ignored' } }),
      );
      await kc('label', 'configmap', 'sel-b', 'app=watched', '--overwrite');
      await kc('label', 'configmap', 'sel-a', 'app=elsewhere', '--overwrite');
      await kc('label', 'configmap', 'sel-b', 'note=kept');
      await kc('delete', 'configmap', 'sel-b');
      const want = [
        'ADDED seed',
        'ADDED sel-a',
        'ADDED sel-b',
        'DELETED sel-a',
        'MODIFIED sel-b',
        'DELETED sel-b',
      ];
      await w.waitForLines('the selector transitions', (l) => l.length >= want.length);
      assert.deepEqual(w.lines(), want);
    });

    it('the server ends a watch without timeoutSeconds; kubectl exits 0', async () => {
      const w = expiring;
      assert.ok(w, 'the selector watch was started');
      const code = await w.exited;
      const elapsedS = (Date.now() - expiringStarted) / 1000;
      assert.equal(code, 0, `kubectl get -w exited ${code}; stderr: ${w.stderr()}`);
      assert.ok(
        elapsedS >= MIN_REQUEST_TIMEOUT_S - 0.5,
        `the watch ended after ${elapsedS.toFixed(1)} s, before --min-request-timeout ${MIN_REQUEST_TIMEOUT_S}`,
      );
      assert.ok(
        elapsedS <= 2 * MIN_REQUEST_TIMEOUT_S + 5,
        `the watch lasted ${elapsedS.toFixed(1)} s`,
      );
      assert.equal(w.stderr(), '');
    });
  });
}
