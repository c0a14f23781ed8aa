/**
 * `kubectl get` across the matrix: the server-side Table columns of configmaps, services,
 * deployments and pods (default and `-o wide`), `-A` with its NAMESPACE column, `-l`,
 * `--show-labels`, `-o yaml|json|jsonpath|custom-columns`, and `-w` rows arriving as objects
 * are created. There are no controllers, so a pod's status is written through `/status`.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import {
  type BackgroundKubectl,
  configMap,
  describeKubectl,
  type KubeList,
  lines,
  manifest,
  pod,
  service,
  startBackground,
} from './testing/kubectl-fixtures.js';
import {
  AGE,
  clean,
  deploymentWith,
  MATRIX_VERSIONS,
  matrixCluster,
  matrixNamespace,
  parseTable,
  rowNamed,
} from './testing/matrix-fixtures.js';

const watchers: BackgroundKubectl[] = [];
// Registered before the cluster's hooks: watchers end before the server stops.
after(async () => {
  await Promise.all(watchers.map((w) => w.stop()));
});
const { current, audit } = matrixCluster();

const RUNNING_STATUS = {
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True' }],
    containerStatuses: [
      {
        name: 'main',
        ready: true,
        restartCount: 2,
        image: 'nginx:1.27',
        imageID: '',
        started: true,
        state: { running: { startedAt: '2026-01-01T00:00:00Z' } },
      },
    ],
  },
};

for (const version of MATRIX_VERSIONS) {
  describeKubectl(version, current, (s) => {
    const n = matrixNamespace(s, audit, 'get');
    const { ns, kc, pipe } = n;

    before(async () => {
      const objects = manifest(
        configMap('alpha', { labels: { app: 'shop', tier: 'web' }, data: { a: '1', b: '2' } }),
        configMap('beta', { labels: { app: 'blog' }, data: { a: '1' } }),
        service('front', { labels: { app: 'shop' } }),
        deploymentWith('shop', [{ name: 'web', image: 'nginx:1.27' }], { replicas: 3 }),
        pod('runner'),
      );
      clean(await pipe(objects, 'create', '-f', '-'), 'create fixtures');
      await kc(
        'patch',
        'pod',
        'runner',
        '--subresource=status',
        '--type=merge',
        '-p',
        JSON.stringify(RUNNING_STATUS),
      );
    });

    it('configmaps: NAME DATA AGE, and the header line as kubectl pads it', async () => {
      const out = await kc('get', 'configmaps', '-l', 'app');
      const t = parseTable(out);
      assert.deepEqual(t.header, ['NAME', 'DATA', 'AGE']);
      assert.deepEqual(rowNamed(t, 'alpha')?.slice(0, 2), ['alpha', '2']);
      assert.deepEqual(rowNamed(t, 'beta')?.slice(0, 2), ['beta', '1']);
      assert.match(rowNamed(t, 'alpha')?.[2] ?? '', AGE);
      // Names are at most 5 wide, so the tab writer pads NAME to 5 + 3 spaces.
      assert.match(lines(out)[0] ?? '', /^NAME {4}DATA {3}AGE$/);
    });

    it('services: NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE; wide adds SELECTOR', async () => {
      const t = parseTable(await kc('get', 'services', 'front'));
      assert.deepEqual(t.header, ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']);
      const row = t.rows[0] ?? [];
      assert.equal(row[0], 'front');
      assert.equal(row[1], 'ClusterIP');
      assert.match(row[2] ?? '', /^\d+\.\d+\.\d+\.\d+$/);
      assert.deepEqual(row.slice(3, 5), ['<none>', '80/TCP']);
      assert.match(row[5] ?? '', AGE);

      const wide = parseTable(await kc('get', 'services', 'front', '-o', 'wide'));
      assert.deepEqual(wide.header, [
        'NAME',
        'TYPE',
        'CLUSTER-IP',
        'EXTERNAL-IP',
        'PORT(S)',
        'AGE',
        'SELECTOR',
      ]);
      assert.equal(wide.rows[0]?.[6], 'app=front');
    });

    it('deployments: NAME READY UP-TO-DATE AVAILABLE AGE; wide adds CONTAINERS IMAGES SELECTOR', async () => {
      const t = parseTable(await kc('get', 'deployments'));
      assert.deepEqual(t.header, ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
      // No controller: nothing is ready, updated or available.
      assert.deepEqual(rowNamed(t, 'shop')?.slice(0, 4), ['shop', '0/3', '0', '0']);

      const wide = parseTable(await kc('get', 'deployment', 'shop', '-o', 'wide'));
      assert.deepEqual(wide.header.slice(5), ['CONTAINERS', 'IMAGES', 'SELECTOR']);
      assert.deepEqual(wide.rows[0]?.slice(5), ['web', 'nginx:1.27', 'app=shop']);
    });

    it('pods: READY, STATUS and RESTARTS come from the status written through /status', async () => {
      const t = parseTable(await kc('get', 'pod', 'runner'));
      assert.deepEqual(t.header, ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
      assert.deepEqual(t.rows[0]?.slice(0, 4), ['runner', '1/1', 'Running', '2']);
    });

    it('-A adds NAMESPACE; -l filters; --show-labels adds LABELS', async () => {
      const all = parseTable(await s.k().ok(['get', 'configmaps', '-A', '-l', 'app=shop']));
      assert.deepEqual(all.header, ['NAMESPACE', 'NAME', 'DATA', 'AGE']);
      const mine = all.rows.filter((r) => r[0] === ns);
      assert.deepEqual(
        mine.map((r) => r.slice(0, 3)),
        [[ns, 'alpha', '2']],
      );

      const labelled = parseTable(await kc('get', 'configmaps', '-l', 'app', '--show-labels'));
      assert.deepEqual(labelled.header, ['NAME', 'DATA', 'AGE', 'LABELS']);
      assert.equal(rowNamed(labelled, 'alpha')?.[3], 'app=shop,tier=web');
      assert.equal(rowNamed(labelled, 'beta')?.[3], 'app=blog');
    });

    it('-o yaml, -o json, -o jsonpath and -o custom-columns', async () => {
      const yaml = parseYaml(await kc('get', 'configmap', 'alpha', '-o', 'yaml')) as {
        kind: string;
        data: Record<string, string>;
      };
      assert.equal(yaml.kind, 'ConfigMap');
      assert.deepEqual(yaml.data, { a: '1', b: '2' });

      const list = JSON.parse(await kc('get', 'configmaps', '-l', 'app', '-o', 'json')) as KubeList;
      assert.equal(list.kind, 'List');
      assert.deepEqual(list.items.map((i) => i.metadata.name).sort(), ['alpha', 'beta']);

      assert.equal(
        await kc('get', 'configmaps', '-l', 'app', '-o', 'jsonpath={.items[*].metadata.name}'),
        'alpha beta',
      );

      const cols = await kc(
        'get',
        'configmaps',
        '-l',
        'app',
        '-o',
        'custom-columns=NAME:.metadata.name,APP:.metadata.labels.app,A:.data.a',
      );
      assert.deepEqual(parseTable(cols), {
        header: ['NAME', 'APP', 'A'],
        rows: [
          ['alpha', 'shop', '1'],
          ['beta', 'blog', '1'],
        ],
      });
    });

    it('get -w prints the table, then a row per new object', async () => {
      const w = startBackground(s.bin, current().kubeconfig, [
        '-n',
        ns,
        'get',
        'configmaps',
        '-l',
        'watch=me',
        '-w',
      ]);
      watchers.push(w);
      const watched = (name: string, data: Record<string, string>) =>
        pipe(manifest(configMap(name, { labels: { watch: 'me' }, data })), 'create', '-f', '-');
      clean(await watched('seen-1', { k: 'v' }), 'create seen-1');
      await w.waitForLines('the first row', (l) => l.some((x) => x.startsWith('seen-1 ')));
      clean(await watched('seen-2', { k: 'v', j: 'w' }), 'create seen-2');
      await w.waitForLines('the second row', (l) => l.some((x) => x.startsWith('seen-2 ')));
      const got = w.lines();
      assert.deepEqual(parseTable(got[0] ?? '').header, ['NAME', 'DATA', 'AGE']);
      const rows = got.slice(1).map((l) => parseTable(`H\n${l}`).rows[0] ?? []);
      assert.deepEqual(
        rows.map((r) => r.slice(0, 2)),
        [
          ['seen-1', '1'],
          ['seen-2', '2'],
        ],
      );
      await w.stop();
      assert.equal(w.stderr(), '');
    });
  });
}
