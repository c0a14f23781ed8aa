/**
 * The kubelet's endpoints on simulated nodes, driven by real kubectl 1.33 against
 * `fleetyard up`: `logs` (container selection, `--tail`, `--timestamps`, `--limit-bytes`,
 * `--previous` of a crashing container, `-f` ending when the container stops), `exec` over
 * WebSocket (output, exit codes, unknown commands), `cp` both ways, `top nodes|pods` from the
 * Metrics API, `debug` adding an ephemeral container, `port-forward`'s explanation, and the
 * clear refusal an SPDY-only kubectl (1.28) gets.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, it } from 'node:test';
import { kubectl } from './testing/kubectl.js';
import {
  clusterForFile,
  createFromManifest,
  describeKubectl,
  getJson,
  inNamespace,
  type KubeObject,
  namespaceObject,
  pollUntil,
} from './testing/kubectl-fixtures.js';

const current = clusterForFile();

function simPod(
  name: string,
  annotations: Record<string, string>,
  spec: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, annotations },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'nginx:1.27',
          resources: { requests: { cpu: '250m', memory: '64Mi' } },
        },
        { name: 'side', image: 'busybox:1.36' },
      ],
      ...spec,
    },
  };
}

interface PodJson {
  spec: { nodeName?: string; ephemeralContainers?: { name: string; image: string }[] };
  status?: {
    phase?: string;
    containerStatuses?: { name: string; restartCount: number; state?: Record<string, unknown> }[];
  };
}

describeKubectl('1.33', current, (s) => {
  const ns = 'kubelet-endpoints';
  const { kc, run, create } = inNamespace(s, ns);
  const podJson = (name: string) => getJson<PodJson>(s.k(), ['-n', ns, 'pod', name]);
  const running = (name: string) =>
    pollUntil(
      `${name} running`,
      async () => (await podJson(name)).status?.phase === 'Running' || undefined,
    );

  before(async () => {
    await createFromManifest(s.k(), undefined, namespaceObject(ns));
    await create(
      simPod('web', { 'sim.fleetyard.dev/log-lines': 'hello from web\nsecond line' }),
      simPod('crash', {
        'sim.fleetyard.dev/exit-code': 'app=1',
        'sim.fleetyard.dev/exit-after': '1s',
      }),
    );
    await running('web');
  });

  it('logs: the start line and the annotation lines; container selection; tail, timestamps, limit-bytes', async () => {
    const node = (await podJson('web')).spec.nodeName;
    const start = `[fleetyard] container "app" started (image nginx:1.27, node ${node})\n`;
    assert.equal(await kc('logs', 'web', '-c', 'app'), `${start}hello from web\nsecond line\n`);
    const defaulted = await run('logs', 'web', '--since', '1h', '--tail', '2');
    assert.equal(defaulted.stdout, 'hello from web\nsecond line\n');
    assert.match(defaulted.stderr, /Defaulted container "app" out of: app, side/);
    assert.match(
      await kc('logs', 'web', '-c', 'side', '--tail', '1', '--timestamps'),
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z second line\n$/,
    );
    assert.equal(await kc('logs', 'web', '-c', 'app', '--limit-bytes', '5'), '[flee');
    const missing = await run('logs', 'web', '-c', 'nope');
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /container nope is not valid for pod web/);
  });

  it('logs --previous shows the crashed run of a restarting container', async () => {
    await pollUntil('crash restarted', async () => {
      const st = (await podJson('crash')).status?.containerStatuses?.find((c) => c.name === 'app');
      return (st?.restartCount ?? 0) >= 1 || undefined;
    });
    const previous = await kc('logs', 'crash', '-c', 'app', '--previous');
    assert.match(previous, /container "app" started/);
    assert.match(previous, /\[fleetyard\] container "app" exited with code 1 \(Error\)\n$/);
    const none = await run('logs', 'web', '-c', 'app', '--previous');
    assert.match(none.stderr, /previous terminated container "app" in pod "web" not found/);
  });

  it('logs -f follows the lines as they are written and ends when the container stops', async () => {
    await create(
      simPod(
        'job',
        {
          'sim.fleetyard.dev/exit-code': 'app=0,side=0',
          'sim.fleetyard.dev/exit-after': '3s',
          'sim.fleetyard.dev/log-lines.app': 'working\ndone',
          'sim.fleetyard.dev/log-interval': '1s',
        },
        { restartPolicy: 'Never' },
      ),
    );
    await pollUntil('job app started', async () => {
      const st = (await podJson('job')).status?.containerStatuses?.find((c) => c.name === 'app');
      return st?.state?.running !== undefined || undefined;
    });
    const followed = await s
      .k()
      .run(['-n', ns, 'logs', '-f', 'job', '-c', 'app'], { timeoutMs: 15_000 });
    assert.equal(followed.code, 0, followed.stderr);
    assert.match(
      followed.stdout,
      /started[^\n]*\nworking\ndone\n\[fleetyard\] container "app" exited with code 0 \(Completed\)\n$/,
    );
  });

  it('exec runs commands over WebSocket, with exit codes and unknown commands as a shell has them', async () => {
    assert.equal(await kc('exec', 'web', '-c', 'app', '--', 'echo', 'hi'), 'hi\n');
    assert.equal(
      await kc(
        'exec',
        'web',
        '-c',
        'app',
        '--',
        'sh',
        '-c',
        'echo $HOSTNAME; echo a > /tmp/f; cat /tmp/f',
      ),
      'web\na\n',
    );
    const failed = await run('exec', 'web', '-c', 'app', '--', 'sh', '-c', 'exit 3');
    assert.equal(failed.code, 3);
    assert.match(failed.stderr, /command terminated with exit code 3/);
    const unknown = await run('exec', 'web', '-c', 'app', '--', 'frobnicate');
    assert.equal(unknown.code, 127);
    assert.match(unknown.stderr, /sh: frobnicate: not found/);
  });

  it('cp copies a file into the container and back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fleetyard-cp-'));
    writeFileSync(join(dir, 'in.txt'), 'local content\n');
    await kc('cp', join(dir, 'in.txt'), 'web:/tmp/in.txt', '-c', 'app');
    assert.equal(
      await kc('exec', 'web', '-c', 'app', '--', 'cat', '/tmp/in.txt'),
      'local content\n',
    );
    await kc('cp', 'web:/tmp/in.txt', join(dir, 'back.txt'), '-c', 'app');
    assert.equal(readFileSync(join(dir, 'back.txt'), 'utf8'), 'local content\n');
  });

  it('top nodes and top pods read the Metrics API (usage from requests, or the annotation)', async () => {
    const pods = await kc('top', 'pods', '--no-headers');
    assert.match(pods, /^web\s+251m\s+68Mi\s*$/m);
    const usage = ['sim.fleetyard.dev/cpu-usage=500m', 'sim.fleetyard.dev/memory-usage=100Mi'];
    await kc('annotate', 'pod', 'web', ...usage);
    assert.match(await kc('top', 'pod', 'web', '--no-headers'), /^web\s+500m\s+100Mi\s*$/);
    const nodes = await kc('top', 'nodes', '--no-headers');
    assert.match(nodes, /^fleetyard-node-\d+\s+\d+m\s+\d+%\s+\d+Mi\s+\d+%/m);
    const apiService = await getApiService();
    assert.equal(
      apiService.status?.conditions?.find((c) => c.type === 'Available')?.status,
      'True',
    );
  });

  function getApiService() {
    return getJson<{ status?: { conditions?: { type: string; status: string }[] } }>(s.k(), [
      'apiservice',
      'v1beta1.metrics.k8s.io',
    ]);
  }

  it('debug adds an ephemeral container through the ephemeralcontainers subresource', async () => {
    const out = await run('debug', 'web', '--image=busybox:1.36', '--profile=general');
    assert.equal(out.code, 0, out.stderr);
    const pod = await podJson('web');
    assert.equal(pod.spec.ephemeralContainers?.[0]?.image, 'busybox:1.36');
  });

  it('port-forward explains that nothing listens in a simulated pod', async () => {
    const out = await s
      .k()
      .run(['-n', ns, 'port-forward', 'pod/web', '18080:80'], { timeoutMs: 10_000 });
    assert.notEqual(out.code, 0);
    assert.match(out.stderr, /has no network: nothing listens/);
  });

  it('an SPDY-only kubectl (1.28) is told to use WebSocket, not 404', async (t) => {
    const old = kubectl('1.28', s.cluster().kubeconfig);
    if (old === undefined) return t.skip('kubectl.1.28 is not installed');
    const out = await old.run(['-n', ns, 'exec', 'web', '-c', 'app', '--', 'echo', 'hi']);
    assert.notEqual(out.code, 0);
    assert.match(out.stderr, /over WebSocket only .*use kubectl 1\.31 or later/);
  });
});
