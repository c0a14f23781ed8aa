/**
 * kubectl against a real `fleetyard up`: discovery, version, namespaces, creating from
 * manifests, and every `get` output format and selector. One cluster for the file; one
 * `describe` (and its own namespaces) per kubectl version.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { API_ONLY } from './testing/cluster.js';
import {
  clusterForFile,
  configMap,
  createFromManifest,
  deployment,
  describeKubectl,
  getJson,
  KUBECTL_VERSIONS,
  type KubeList,
  type KubeObject,
  lines,
  namespaceObject,
  pod,
  secret,
  service,
} from './testing/kubectl-fixtures.js';

const current = clusterForFile({ args: API_ONLY });

for (const version of KUBECTL_VERSIONS) {
  describeKubectl(version, current, (s) => {
    const ns = `basics-${s.slug}`;
    const other = `basics-${s.slug}-b`;

    before(async () => {
      await createFromManifest(s.k(), undefined, namespaceObject(ns), namespaceObject(other));
    });

    it('api-resources lists pods, deployments and statefulsets with their short names', async () => {
      const out = lines(await s.k().ok(['api-resources']));
      assert.match(out[0] ?? '', /^NAME\s+SHORTNAMES\s+APIVERSION\s+NAMESPACED\s+KIND$/);
      const row = (re: RegExp): void =>
        assert.ok(
          out.some((l) => re.test(l)),
          `no api-resources row matching ${re}:\n${out.join('\n')}`,
        );
      row(/^pods\s+po\s+v1\s+true\s+Pod$/);
      row(/^namespaces\s+ns\s+v1\s+false\s+Namespace$/);
      row(/^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/);
      row(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/);
      row(/^statefulsets\s+sts\s+apps\/v1\s+true\s+StatefulSet$/);
      const apps = lines(await s.k().ok(['api-resources', '--api-group=apps', '-o', 'name']));
      for (const name of ['deployments.apps', 'statefulsets.apps', 'replicasets.apps']) {
        assert.ok(apps.includes(name), `${name} missing from ${apps.join(', ')}`);
      }
      const clusterScoped = lines(
        await s.k().ok(['api-resources', '--namespaced=false', '-o', 'name']),
      );
      assert.ok(clusterScoped.includes('namespaces'), clusterScoped.join(', '));
      assert.ok(!clusterScoped.includes('pods'), clusterScoped.join(', '));
    });

    it('api-versions lists the core and apps group versions', async () => {
      const out = lines(await s.k().ok(['api-versions']));
      assert.ok(out.includes('v1'), out.join(', '));
      assert.ok(out.includes('apps/v1'), out.join(', '));
      assert.deepEqual([...out].sort(), out, 'api-versions prints sorted lines');
    });

    it('version shows the server version', async () => {
      const info = JSON.parse(await s.k().ok(['version', '-o', 'json'])) as {
        clientVersion: { gitVersion: string };
        serverVersion?: { major: string; minor: string; gitVersion: string };
      };
      assert.ok(info.clientVersion.gitVersion.startsWith(`v${version}.`));
      assert.ok(info.serverVersion, 'no serverVersion in `kubectl version -o json`');
      assert.equal(info.serverVersion.major, '1');
      assert.match(info.serverVersion.gitVersion, /^v1\.\d+\.\d+/);
      const human = lines(await s.k().ok(['version']));
      const server = human.find((l) => l.startsWith('Server Version: '));
      assert.ok(server, human.join('\n'));
      assert.ok(server.includes(info.serverVersion.gitVersion), server);
    });

    it('create namespace, get ns', async () => {
      const name = `made-${s.slug}`;
      assert.equal(await s.k().ok(['create', 'namespace', name]), `namespace/${name} created\n`);
      assert.ok(lines(await s.k().ok(['get', 'ns', '-o', 'name'])).includes(`namespace/${name}`));
      const table = lines(await s.k().ok(['get', 'ns']));
      assert.match(table[0] ?? '', /^NAME\s/);
      assert.ok(
        table.some((l) => l.split(/\s+/)[0] === name),
        table.join('\n'),
      );
      const stored = await getJson(s.k(), ['namespace', name]);
      assert.equal(stored.kind, 'Namespace');
      assert.equal(stored.status?.phase, 'Active');
      assert.equal(stored.metadata.labels?.['kubernetes.io/metadata.name'], name);
    });

    it('delete namespace --wait: the namespace is emptied, then it disappears', async () => {
      const name = `doomed-${s.slug}`;
      await createFromManifest(s.k(), undefined, namespaceObject(name));
      await createFromManifest(s.k(), name, configMap('cfg'), deployment('web'), secret('pw'));
      assert.equal(
        await s.k().ok(['delete', 'namespace', name, '--wait', '--timeout=20s']),
        `namespace "${name}" deleted\n`,
      );
      const gone = await s.k().run(['get', 'namespace', name]);
      assert.equal(gone.code, 1);
      assert.equal(gone.stderr, `Error from server (NotFound): namespaces "${name}" not found\n`);
      const leftovers = await s
        .k()
        .run(['get', 'configmaps,deployments,secrets', '-n', name, '-o', 'name']);
      assert.equal(leftovers.code, 0, leftovers.stderr);
      assert.equal(leftovers.stdout, '');
    });

    it('create -f - from a YAML stream: ConfigMap, Deployment, Service, Secret', async () => {
      const out = await createFromManifest(
        s.k(),
        ns,
        configMap('web-config', { labels: { app: 'web' }, data: { color: 'blue' } }),
        deployment('web', { replicas: 3 }),
        service('web', { labels: { app: 'web' } }),
        secret('web-secret', { labels: { app: 'web' }, stringData: { password: 'hunter2' } }),
        configMap('db-config', { labels: { app: 'db' } }),
        configMap('canary-config', { labels: { app: 'web', canary: 'true' } }),
        pod('web-pod', { labels: { app: 'web' } }),
        configMap('plain-config'),
      );
      assert.deepEqual(lines(out), [
        'configmap/web-config created',
        'deployment.apps/web created',
        'service/web created',
        'secret/web-secret created',
        'configmap/db-config created',
        'configmap/canary-config created',
        'pod/web-pod created',
        'configmap/plain-config created',
      ]);
      const cm = await getJson(s.k(), ['-n', ns, 'configmap', 'web-config']);
      assert.equal(cm.apiVersion, 'v1');
      assert.equal(cm.kind, 'ConfigMap');
      assert.equal(cm.metadata.namespace, ns);
      assert.deepEqual(cm.data, { color: 'blue' });
      assert.equal(typeof cm.metadata.resourceVersion, 'string');
      assert.match(cm.metadata.uid ?? '', /^[0-9a-f-]{36}$/);
      assert.match(cm.metadata.creationTimestamp ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const deploy = await getJson(s.k(), ['-n', ns, 'deployment', 'web']);
      assert.equal(deploy.apiVersion, 'apps/v1');
      assert.equal(deploy.metadata.generation, 1);
      assert.equal(deploy.spec?.replicas, 3);
      assert.deepEqual(deploy.spec?.selector, { matchLabels: { app: 'web' } });
      const sec = await getJson(s.k(), ['-n', ns, 'secret', 'web-secret']);
      assert.deepEqual(sec.data, { password: Buffer.from('hunter2').toString('base64') });
      assert.equal(sec.stringData, undefined, 'stringData is folded into data');
      const svc = await getJson(s.k(), ['-n', ns, 'service', 'web']);
      assert.equal((svc.spec?.ports as { port: number }[] | undefined)?.[0]?.port, 80);
    });

    it('create configmap --from-literal', async () => {
      const out = await s
        .k()
        .ok([
          '-n',
          ns,
          'create',
          'configmap',
          'literal',
          '--from-literal=a=1',
          '--from-literal=b=two',
        ]);
      assert.equal(out, 'configmap/literal created\n');
      const cm = await getJson(s.k(), ['-n', ns, 'configmap', 'literal']);
      assert.deepEqual(cm.data, { a: '1', b: 'two' });
    });

    it('get -o json, -o yaml, -o name, -o jsonpath', async () => {
      const list = await getJson<KubeList>(s.k(), ['-n', ns, 'configmaps', '-l', 'app']);
      assert.equal(list.kind, 'List');
      const names = ['canary-config', 'db-config', 'web-config'];
      assert.deepEqual(
        list.items.map((i) => i.metadata.name),
        names,
      );
      assert.ok(list.items.every((i) => i.kind === 'ConfigMap' && i.apiVersion === 'v1'));
      const yaml = parseYaml(
        await s.k().ok(['-n', ns, 'get', 'configmaps', '-l', 'app', '-o', 'yaml']),
      ) as KubeList;
      assert.deepEqual(
        yaml.items.map((i) => i.metadata.name),
        names,
      );
      assert.deepEqual(yaml.items, list.items);
      const one = parseYaml(
        await s.k().ok(['-n', ns, 'get', 'configmap', 'web-config', '-o', 'yaml']),
      ) as KubeObject;
      assert.equal(one.kind, 'ConfigMap');
      assert.deepEqual(one.data, { color: 'blue' });
      assert.equal(
        await s.k().ok(['-n', ns, 'get', 'configmaps', '-l', 'app', '-o', 'name']),
        names.map((n) => `configmap/${n}\n`).join(''),
      );
      assert.equal(
        await s
          .k()
          .ok([
            '-n',
            ns,
            'get',
            'configmaps',
            '-l',
            'app',
            '-o',
            'jsonpath={.items[*].metadata.name}',
          ]),
        names.join(' '),
      );
      assert.equal(
        await s.k().ok(['-n', ns, 'get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}']),
        '3',
      );
      const table = lines(await s.k().ok(['-n', ns, 'get', 'configmaps', '-l', 'app']));
      assert.match(table[0] ?? '', /^NAME\s/);
      assert.deepEqual(
        table.slice(1).map((l) => l.split(/\s+/)[0]),
        names,
      );
    });

    it('get -l with equality and set-based selectors', async () => {
      const get = (selector: string, kinds = 'configmaps'): Promise<string> =>
        s.k().ok(['-n', ns, 'get', kinds, '-l', selector, '-o', 'name']);
      assert.equal(await get('app=web'), 'configmap/canary-config\nconfigmap/web-config\n');
      assert.equal(
        await get('app in (web,db),!canary'),
        'configmap/db-config\nconfigmap/web-config\n',
      );
      // `!=` also matches objects without the key.
      const notWeb = lines(await get('app!=web'));
      assert.ok(
        notWeb.includes('configmap/db-config') && notWeb.includes('configmap/plain-config'),
        notWeb.join(', '),
      );
      assert.ok(
        !notWeb.includes('configmap/web-config') && !notWeb.includes('configmap/canary-config'),
      );
      assert.equal(await get('app notin (web),app'), 'configmap/db-config\n');
      assert.deepEqual(lines(await get('app=web,!canary', 'configmaps,secrets,services,pods')), [
        'configmap/web-config',
        'secret/web-secret',
        'service/web',
        'pod/web-pod',
      ]);
      const none = await s.k().run(['-n', ns, 'get', 'configmaps', '-l', 'app=nothing']);
      assert.equal(none.code, 0);
      assert.equal(none.stdout, '');
      assert.equal(none.stderr, `No resources found in ${ns} namespace.\n`);
    });

    it('get --field-selector metadata.name and status.phase', async () => {
      assert.equal(
        await s
          .k()
          .ok([
            '-n',
            ns,
            'get',
            'configmaps',
            '--field-selector',
            'metadata.name=db-config',
            '-o',
            'name',
          ]),
        'configmap/db-config\n',
      );
      assert.equal(
        await s
          .k()
          .ok([
            '-n',
            ns,
            'get',
            'configmaps',
            '--field-selector',
            'metadata.name!=db-config',
            '-l',
            'app',
            '-o',
            'name',
          ]),
        'configmap/canary-config\nconfigmap/web-config\n',
      );
      assert.equal(
        await s
          .k()
          .ok(['-n', ns, 'get', 'pods', '--field-selector', 'status.phase=Pending', '-o', 'name']),
        'pod/web-pod\n',
      );
      const running = await s
        .k()
        .run(['-n', ns, 'get', 'pods', '--field-selector', 'status.phase=Running', '-o', 'name']);
      assert.equal(running.code, 0);
      assert.equal(running.stdout, '');
      const p = await getJson(s.k(), ['-n', ns, 'pod', 'web-pod']);
      assert.equal(p.status?.phase, 'Pending');
      assert.equal(p.spec?.nodeName, undefined);
    });

    it('get -A lists every namespace', async () => {
      await createFromManifest(s.k(), other, configMap('web-config', { labels: { app: 'web' } }));
      const path = '{range .items[*]}{.metadata.namespace}/{.metadata.name}{"\\n"}{end}';
      const all = lines(
        await s.k().ok(['get', 'configmaps', '-A', '-l', 'app=web', '-o', `jsonpath=${path}`]),
      );
      for (const want of [`${ns}/web-config`, `${ns}/canary-config`, `${other}/web-config`]) {
        assert.ok(all.includes(want), `${want} missing from ${all.join(', ')}`);
      }
      const table = lines(await s.k().ok(['get', 'configmaps', '-A', '-l', 'app=web']));
      assert.match(table[0] ?? '', /^NAMESPACE\s+NAME\s/);
      const rows = table.slice(1).map((l) => l.split(/\s+/).slice(0, 2).join('/'));
      assert.ok(rows.includes(`${other}/web-config`), table.join('\n'));
      assert.ok(rows.includes(`${ns}/web-config`), table.join('\n'));
    });
  });
}
