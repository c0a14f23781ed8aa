import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startTestServer, type TestServer } from '../../apiserver/testing/test-server.js';
import { ApiClient } from '../../client/api-client.js';
import { ChaosUsageError, parseChaosArgs, runChaos } from './chaos.js';

describe('parseChaosArgs', () => {
  const ok: [string[], string, Record<string, string | null>, string | undefined][] = [
    [['node-down', 'n1'], 'nodes', { 'sim.fleetyard.dev/state': 'down' }, undefined],
    [['node-up', 'n1'], 'nodes', { 'sim.fleetyard.dev/state': 'up' }, undefined],
    [['crash', 'p', '-n', 'ns'], 'pods', { 'sim.fleetyard.dev/exit-code': '1' }, 'ns'],
    [
      ['crash', 'p', '--exit-code', '137'],
      'pods',
      { 'sim.fleetyard.dev/exit-code': '137' },
      'default',
    ],
    [['break-readiness', 'p'], 'pods', { 'sim.fleetyard.dev/ready': 'false' }, 'default'],
    [['restore-readiness', '--namespace=x', 'p'], 'pods', { 'sim.fleetyard.dev/ready': null }, 'x'],
  ];
  for (const [argv, plural, annotations, namespace] of ok) {
    test(argv.join(' '), () => {
      const c = parseChaosArgs(argv);
      if (c.storage !== undefined) assert.fail('an annotation command');
      assert.equal(c.ref.plural, plural);
      assert.equal(c.ref.namespace, namespace);
      assert.deepEqual(c.annotations, annotations);
    });
  }

  test('the kubeconfig defaults to the data dir, and --kubeconfig wins', () => {
    assert.equal(parseChaosArgs(['node-up', 'n']).kubeconfig, resolve('.fleetyard', 'kubeconfig'));
    assert.equal(
      parseChaosArgs(['node-up', 'n', '--data-dir', '/d']).kubeconfig,
      resolve('/d', 'kubeconfig'),
    );
    assert.equal(parseChaosArgs(['node-up', 'n', '--kubeconfig', '/k']).kubeconfig, '/k');
  });

  test('storage subcommands', () => {
    assert.deepEqual(parseChaosArgs(['lose-volume', 'www-web-0', '-n', 'ns']).storage, {
      action: 'lose-volume',
      namespace: 'ns',
      claim: 'www-web-0',
    });
    assert.deepEqual(parseChaosArgs(['fail-zone', 'local-b']).storage, {
      action: 'fault-list',
      key: 'failing-zones',
      value: 'local-b',
      failing: true,
    });
    assert.deepEqual(parseChaosArgs(['restore-node-storage', 'fleetyard-node-2']).storage, {
      action: 'fault-list',
      key: 'failing-nodes',
      value: 'fleetyard-node-2',
      failing: false,
    });
  });

  const bad: string[][] = [
    [],
    ['node-down'],
    ['reboot', 'n1'],
    ['node-down', 'a', 'b'],
    ['crash', 'p', '--exit-code', '-1'],
    ['crash', 'p', '--exit-code', '256'],
    ['crash', 'p', '--exit-code', 'x'],
    ['node-down', 'n', '--exit-code', '2'],
    ['node-down', 'n', '--force'],
  ];
  for (const argv of bad) {
    test(`rejects: ${argv.join(' ') || '(nothing)'}`, () => {
      assert.throws(() => parseChaosArgs(argv), ChaosUsageError);
    });
  }
});

describe('runChaos against an API server', () => {
  let api: TestServer;
  let client: ApiClient;
  before(async () => {
    api = await startTestServer();
    client = new ApiClient({ server: api.url });
    await client.create(
      { group: '', version: 'v1', plural: 'nodes' },
      { metadata: { name: 'fleetyard-node-1', annotations: { keep: 'me' } } },
    );
    await client.create(
      { group: '', version: 'v1', plural: 'pods', namespace: 'default' },
      {
        metadata: { name: 'web', annotations: { 'sim.fleetyard.dev/ready': 'false' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      },
    );
  });
  after(async () => {
    client.close();
    await api.close();
  });

  async function run(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runChaos(argv, {
      client,
      stdout: (s) => out.push(s),
      stderr: (s) => err.push(s),
    });
    return { code, out: out.join(''), err: err.join('') };
  }

  const annotationsOf = async (plural: string, name: string, namespace?: string) =>
    (await client.get({ group: '', version: 'v1', plural, name, namespace })).metadata?.annotations;

  test('node-down annotates the Node and keeps its other annotations', async () => {
    assert.deepEqual(await run('node-down', 'fleetyard-node-1'), {
      code: 0,
      out: 'node/fleetyard-node-1 annotated\n',
      err: '',
    });
    assert.deepEqual(await annotationsOf('nodes', 'fleetyard-node-1'), {
      keep: 'me',
      'sim.fleetyard.dev/state': 'down',
    });
    await run('node-up', 'fleetyard-node-1');
    assert.equal(
      (await annotationsOf('nodes', 'fleetyard-node-1'))?.['sim.fleetyard.dev/state'],
      'up',
    );
  });

  test('pod annotations are set and removed', async () => {
    assert.equal((await run('crash', 'web', '--exit-code', '3')).out, 'pod/web annotated\n');
    assert.equal((await run('restore-readiness', 'web')).code, 0);
    assert.deepEqual(await annotationsOf('pods', 'web', 'default'), {
      'sim.fleetyard.dev/exit-code': '3',
    });
  });

  test('a missing object prints the server error and exits 1', async () => {
    const r = await run('crash', 'nope', '-n', 'default');
    assert.equal(r.code, 1);
    assert.equal(r.out, '');
    assert.match(r.err, /^Error from server \(NotFound\): pods "nope" not found\n$/);
  });

  test('fail-zone and restore-zone edit the faults ConfigMap, creating it once', async () => {
    // kube-system exists from the start, as on `fleetyard up`.
    assert.equal((await run('fail-zone', 'local-b')).out, 'configmap/fleetyard-storage created\n');
    assert.equal(
      (await run('fail-zone', 'local-a')).out,
      'configmap/fleetyard-storage configured\n',
    );
    assert.equal(
      (await run('fail-zone', 'local-a')).out,
      'configmap/fleetyard-storage unchanged\n',
    );
    const data = async () =>
      (
        await client.get({
          group: '',
          version: 'v1',
          plural: 'configmaps',
          namespace: 'kube-system',
          name: 'fleetyard-storage',
        })
      ).data;
    assert.deepEqual(await data(), { 'failing-zones': 'local-a,local-b' });
    await run('restore-zone', 'local-b');
    assert.deepEqual(await data(), { 'failing-zones': 'local-a' });
  });

  test('lose-volume deletes the bound PV despite its finalizer; an unbound claim is refused', async () => {
    await client.create(
      { group: '', version: 'v1', plural: 'persistentvolumes' },
      {
        metadata: { name: 'pv-1', finalizers: ['kubernetes.io/pv-protection'] },
        spec: {
          capacity: { storage: '1Gi' },
          accessModes: ['ReadWriteOnce'],
          hostPath: { path: '/tmp/x' },
        },
      },
    );
    const claim = (name: string, volumeName?: string) => ({
      metadata: { name },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '1Gi' } },
        ...(volumeName ? { volumeName } : {}),
      },
    });
    const pvcs = {
      group: '',
      version: 'v1',
      plural: 'persistentvolumeclaims',
      namespace: 'default',
    };
    await client.create(pvcs, claim('bound', 'pv-1'));
    await client.create(pvcs, claim('unbound'));
    const lost = await run('lose-volume', 'bound');
    assert.deepEqual(lost, {
      code: 0,
      out: 'persistentvolume/pv-1 deleted (claim default/bound lost its volume)\n',
      err: '',
    });
    await assert.rejects(
      client.get({ group: '', version: 'v1', plural: 'persistentvolumes', name: 'pv-1' }),
    );
    const refused = await run('lose-volume', 'unbound');
    assert.equal(refused.code, 1);
    assert.match(refused.err, /persistentvolumeclaim "unbound" is not bound to a volume/);
  });

  test('a usage error exits 2 with the usage', async () => {
    const r = await run('explode', 'x');
    assert.equal(r.code, 2);
    assert.match(r.err, /unknown subcommand "explode"/);
    assert.match(r.err, /Usage: fleetyard chaos/);
    const help = await run('--help');
    assert.deepEqual([help.code, help.out.startsWith('Usage: fleetyard chaos')], [0, true]);
  });
});
