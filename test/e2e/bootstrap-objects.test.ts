/**
 * What every Kubernetes cluster has from the start, against a real `fleetyard up` driven by
 * kubectl: the `kubernetes` Service at the service range's first address (10.96.0.1,
 * 443/TCP), its Endpoints and EndpointSlice at the API server's advertised address and port
 * (kube-apiserver's bootstrap controller); a `default` ServiceAccount and the
 * `kube-root-ca.crt` ConfigMap in every namespace (kube-controller-manager's serviceaccount
 * controller and root CA publisher), whose `ca.crt` verifies the server. Each comes back when
 * deleted or edited, the endpoints controllers leave the `kubernetes` objects alone, no user
 * Service gets 10.96.0.1, and a namespace holding them can still be deleted.
 *
 * The server advertises 203.0.113.7 (`--advertise-address`, a documentation address, so the
 * test does not depend on this machine's interfaces); kubectl reaches it over loopback,
 * which the serving certificate always names.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { before, it } from 'node:test';
import { connect } from 'node:tls';
import { type Kubectl, kubectl } from './testing/kubectl.js';
import {
  clusterForFile,
  describeKubectl,
  getJson,
  type KubeList,
  type KubeObject,
  lines,
  pollUntil,
} from './testing/kubectl-fixtures.js';

const ADVERTISED = '203.0.113.7';
const VERSION = '1.33';
/** The API server's reconcile interval is 10 s; a deleted object is back within one. */
const RECONCILE_WAIT_MS = 25_000;
const BUILTIN = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
const NS = 'bootstrap-x';

const current = clusterForFile({ args: ['--advertise-address', ADVERTISED, '--nodes', '1'] });

/** A copy of the kubeconfig that reaches the server over loopback. */
function loopbackKubeconfig(path: string, port: number): string {
  const copy = `${path}.loopback`;
  const text = readFileSync(path, 'utf8');
  writeFileSync(copy, text.replace(/server: \S+/, `server: https://127.0.0.1:${port}`), {
    mode: 0o600,
  });
  return copy;
}

/** Whether a TLS client that trusts only `ca` accepts the server's certificate. */
function verifiesServer(ca: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ca }, () => {
      resolve(socket.authorized);
      socket.end();
    });
    socket.once('error', reject);
  });
}

/** A top-level field of an object (EndpointSlices and Endpoints have no spec). */
function field(obj: KubeObject | undefined, key: string): unknown {
  return (obj as unknown as Record<string, unknown> | undefined)?.[key];
}

interface Spec {
  clusterIP?: string;
  ports?: unknown[];
  selector?: unknown;
  type?: string;
}

describeKubectl(VERSION, current, (s) => {
  let k: Kubectl;
  let port: number;
  const get = async (args: string[]): Promise<KubeObject | undefined> => {
    const r = await k.run(['get', ...args, '-o', 'json']);
    return r.code === 0 ? (JSON.parse(r.stdout) as KubeObject) : undefined;
  };
  const slice = () =>
    getJson<KubeList>(k, ['endpointslice', '-l', 'kubernetes.io/service-name=kubernetes']);
  const httpsPort = () => [{ name: 'https', port, protocol: 'TCP' }];

  before(() => {
    port = Number(new URL(s.cluster().url).port);
    const client = kubectl(VERSION, loopbackKubeconfig(s.cluster().kubeconfig, port));
    assert.ok(client);
    k = client;
  });

  it('serves the kubernetes Service at 10.96.0.1, 443/TCP', async () => {
    const table = lines(await k.ok(['get', 'svc', 'kubernetes']));
    assert.match(
      table[1] ?? '',
      /^kubernetes\s+ClusterIP\s+10\.96\.0\.1\s+<none>\s+443\/TCP\s+\S+$/,
    );
    const svc = await getJson(k, ['svc', 'kubernetes']);
    assert.deepEqual(svc.metadata?.labels, { component: 'apiserver', provider: 'kubernetes' });
    const spec = svc.spec as Spec;
    assert.equal(spec.type, 'ClusterIP');
    assert.equal(spec.selector, undefined);
    assert.deepEqual(spec.ports, [{ name: 'https', protocol: 'TCP', port: 443, targetPort: port }]);
  });

  it("points its EndpointSlice and Endpoints at the server's advertised address and port", async () => {
    const table = lines(
      await k.ok(['get', 'endpointslice', '-l', 'kubernetes.io/service-name=kubernetes']),
    );
    assert.match(table[1] ?? '', new RegExp(`^kubernetes\\s+IPv4\\s+${port}\\s+${ADVERTISED}\\s`));
    const list = await slice();
    assert.equal(list.items.length, 1);
    const item = list.items[0];
    assert.equal(item?.metadata?.name, 'kubernetes');
    // Written by the API server itself: no managed-by label, so no EndpointSlice controller owns it.
    assert.deepEqual(item?.metadata?.labels, { 'kubernetes.io/service-name': 'kubernetes' });
    assert.ok(!('ownerReferences' in (item?.metadata ?? {})), 'no owner');
    assert.equal(field(item, 'addressType'), 'IPv4');
    assert.deepEqual(field(item, 'endpoints'), [
      { addresses: [ADVERTISED], conditions: { ready: true } },
    ]);
    assert.deepEqual(field(item, 'ports'), httpsPort());
    const ep = await getJson(k, ['endpoints', 'kubernetes']);
    assert.deepEqual(ep.metadata?.labels, { 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    assert.deepEqual(field(ep, 'subsets'), [
      { addresses: [{ ip: ADVERTISED }], ports: httpsPort() },
    ]);
  });

  it('never gives 10.96.0.1 to a user Service', async () => {
    await k.ok(['create', 'namespace', NS]);
    await k.ok(['create', 'service', 'clusterip', 'web', '-n', NS, '--tcp=80:8080']);
    const web = await getJson(k, ['svc', 'web', '-n', NS]);
    assert.match(String((web.spec as Spec).clusterIP), /^10\.\d+\.\d+\.\d+$/);
    assert.notEqual((web.spec as Spec).clusterIP, '10.96.0.1');
    const pinned = await k.run([
      'create',
      'service',
      'clusterip',
      'pinned',
      '-n',
      NS,
      '--tcp=80',
      '--clusterip=10.96.0.1',
    ]);
    assert.equal(pinned.code, 1, pinned.stdout);
    assert.match(
      pinned.stderr,
      /Service "pinned" is invalid: spec\.clusterIPs: Invalid value: \[\]string\{"10\.96\.0\.1"\}: failed to allocate IP 10\.96\.0\.1: provided IP is already allocated/,
    );
  });

  it('gives every namespace a default ServiceAccount and kube-root-ca.crt', async () => {
    for (const ns of [...BUILTIN, NS]) {
      await pollUntil(`serviceaccount default in ${ns}`, () => get(['sa', 'default', '-n', ns]));
      await pollUntil(`kube-root-ca.crt in ${ns}`, () => get(['cm', 'kube-root-ca.crt', '-n', ns]));
    }
    const cm = await getJson(k, ['cm', 'kube-root-ca.crt', '-n', NS]);
    assert.equal(
      cm.metadata?.annotations?.['kubernetes.io/description'],
      'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.',
    );
    const data = (cm as { data?: Record<string, string> }).data ?? {};
    assert.deepEqual(Object.keys(data), ['ca.crt']);
    assert.equal(await verifiesServer(data['ca.crt'] ?? '', port), true);
  });

  it('keeps the kubernetes objects still: no controller fights over them', async () => {
    const versions = async () =>
      [
        await get(['svc', 'kubernetes']),
        await get(['endpoints', 'kubernetes']),
        (await slice()).items[0],
      ].map((o) => o?.metadata?.resourceVersion);
    const first = await versions();
    assert.ok(
      first.every((v) => v !== undefined),
      `all three exist: ${first.join(', ')}`,
    );
    // Longer than the API server's reconcile interval (10 s).
    await new Promise((r) => setTimeout(r, 11_000));
    assert.deepEqual(await versions(), first);
  });

  it('brings back what was deleted or edited', async () => {
    await k.ok(['delete', 'svc', 'kubernetes']);
    await k.ok(['delete', 'endpointslice', 'kubernetes']);
    await k.ok(['delete', 'sa', 'default', '-n', NS]);
    await k.ok(['delete', 'cm', 'kube-root-ca.crt', '-n', NS]);
    await pollUntil('the default ServiceAccount again', () => get(['sa', 'default', '-n', NS]));
    const cm = await pollUntil('kube-root-ca.crt again', () =>
      get(['cm', 'kube-root-ca.crt', '-n', NS]),
    );
    await k.ok([
      'patch',
      'cm',
      'kube-root-ca.crt',
      '-n',
      NS,
      '--type=merge',
      '-p',
      '{"data":{"ca.crt":"forged"}}',
    ]);
    const ca = (cm as { data?: Record<string, string> }).data?.['ca.crt'];
    await pollUntil('kube-root-ca.crt restored', async () => {
      const now = await get(['cm', 'kube-root-ca.crt', '-n', NS]);
      return (now as { data?: Record<string, string> } | undefined)?.data?.['ca.crt'] === ca
        ? true
        : undefined;
    });
    const svc = await pollUntil(
      'the kubernetes Service again',
      () => get(['svc', 'kubernetes']),
      RECONCILE_WAIT_MS,
    );
    assert.equal((svc.spec as Spec).clusterIP, '10.96.0.1');
    const back = await pollUntil(
      'the kubernetes EndpointSlice again',
      async () => (await slice()).items[0],
      RECONCILE_WAIT_MS,
    );
    assert.deepEqual(field(back, 'endpoints'), [
      { addresses: [ADVERTISED], conditions: { ready: true } },
    ]);
  });

  it('still deletes a namespace that holds them', async () => {
    assert.ok(await get(['sa', 'default', '-n', NS]), 'the namespace holds its ServiceAccount');
    assert.ok(await get(['cm', 'kube-root-ca.crt', '-n', NS]), 'and its root CA');
    await k.ok(['delete', 'namespace', NS, '--timeout=60s']);
    const gone = await k.run(['get', 'namespace', NS]);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /namespaces "bootstrap-x" not found/);
  });
});
