/**
 * The kinds a default v1.33 API server serves besides the workloads, through kubectl 1.33 on
 * `fleetyard up` (API server only): `kubectl create ingress` (a protobuf body) with the
 * DefaultIngressClass admission and upstream's columns; `kubectl get cs` (computed,
 * read-only); a pod bound through `POST …/bindings`; a CSR approved and denied with `kubectl
 * certificate` (a protobuf PUT to `/approval`); the local APIServices, the APF bootstrap
 * objects (a deleted mandatory one comes back), the default ServiceCIDR and the IPAddress of
 * the `kubernetes` Service.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, it } from 'node:test';
import { API_ONLY, REPO_ROOT } from './testing/cluster.js';
import {
  clusterForFile,
  createFromManifest,
  describeKubectl,
  getJson,
  inNamespace,
  lines,
  namespaceObject,
  pollUntil,
} from './testing/kubectl-fixtures.js';

const current = clusterForFile({ args: API_ONLY });
const CSR_PEM = readFileSync(join(REPO_ROOT, 'src/api/kinds/testdata/csr-p256.pem'));
/** The API server's bootstrap pass runs every 10 s; a deleted object is back within one. */
const RECONCILE_WAIT_MS = 25_000;

/** The cells of each row of a kubectl table (columns split on runs of 3+ spaces). */
const rows = (text: string): string[][] =>
  lines(text)
    .slice(1)
    .map((l) => l.trim().split(/ {3,}/));

describeKubectl('1.33', current, (s) => {
  const ns = 'cluster-api';
  const { kc, run, read } = inNamespace(s, ns);
  before(async () => {
    await createFromManifest(s.k(), '', namespaceObject(ns));
  });

  it('creates Ingresses with the default class and prints upstream columns', async () => {
    await createFromManifest(s.k(), '', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: {
        name: 'nginx',
        annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' },
      },
      spec: { controller: 'k8s.io/ingress-nginx' },
    });
    await kc('create', 'ingress', 'web', '--rule=foo.example/bar=svc1:8080,tls=cert');
    const ing = await read('ingress', 'web');
    assert.equal((ing.spec as { ingressClassName?: string }).ingressClassName, 'nginx');
    const out = await kc('get', 'ingress');
    assert.deepEqual(lines(out)[0]?.split(/\s+/), [
      'NAME',
      'CLASS',
      'HOSTS',
      'ADDRESS',
      'PORTS',
      'AGE',
    ]);
    assert.deepEqual(rows(out)[0]?.slice(0, 4), ['web', 'nginx', 'foo.example', '80, 443']);
    const bad = await run('create', 'ingress', 'bad', '--rule=/x=svc:70000');
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /must be between 1 and 65535, inclusive/);
  });

  it('answers kubectl get cs with three healthy components and refuses writes', async () => {
    const r = await s.k().run(['get', 'cs']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /v1 ComponentStatus is deprecated in v1\.19\+/);
    assert.deepEqual(rows(r.stdout), [
      ['controller-manager', 'Healthy', 'ok'],
      ['etcd-0', 'Healthy', 'ok'],
      ['scheduler', 'Healthy', 'ok'],
    ]);
    const del = await s.k().run(['delete', 'cs', 'scheduler']);
    assert.match(del.stderr, /MethodNotAllowed|not supported|405/i);
  });

  it('binds a pod through POST …/bindings', async () => {
    await kc('run', 'bound', '--image=nginx', '--restart=Never');
    const binding = {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'bound' },
      target: { kind: 'Node', name: 'node-x' },
    };
    const r = await s.k().run(['create', '--raw', `/api/v1/namespaces/${ns}/bindings`, '-f', '-'], {
      input: JSON.stringify(binding),
    });
    assert.equal(r.code, 0, r.stderr);
    const pod = await read('pod', 'bound');
    assert.equal((pod.spec as { nodeName?: string }).nodeName, 'node-x');
  });

  it('approves and denies CertificateSigningRequests with kubectl certificate', async () => {
    for (const name of ['jane', 'joe']) {
      await createFromManifest(s.k(), '', {
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name },
        spec: {
          request: CSR_PEM.toString('base64'),
          signerName: 'example.com/signer',
          expirationSeconds: 3600,
          usages: ['client auth'],
        },
      });
    }
    const pending = rows(await s.k().ok(['get', 'csr']));
    assert.deepEqual(
      pending.map((r) => [r[0], r[2], r[3], r[4], r[5]]),
      [
        ['jane', 'example.com/signer', 'kubernetes-admin', '60m', 'Pending'],
        ['joe', 'example.com/signer', 'kubernetes-admin', '60m', 'Pending'],
      ],
    );
    await s.k().ok(['certificate', 'approve', 'jane']);
    await s.k().ok(['certificate', 'deny', 'joe']);
    const done = rows(await s.k().ok(['get', 'csr']));
    assert.deepEqual(
      done.map((r) => [r[0], r.at(-1)]),
      [
        ['jane', 'Approved'],
        ['joe', 'Denied'],
      ],
    );
    // kubectl refuses to approve a denied request itself; the server refuses it too.
    const refused = await s.k().run(['certificate', 'approve', 'joe', '--force']);
    assert.match(refused.stderr, /is already Denied/);
    const joe = await getJson(s.k(), ['csr', 'joe']);
    const status = joe.status as { conditions: object[] };
    status.conditions.push({ type: 'Approved', status: 'True', reason: 'Sneaky' });
    const path = '/apis/certificates.k8s.io/v1/certificatesigningrequests/joe/approval';
    const put = await s
      .k()
      .run(['replace', '--raw', path, '-f', '-'], { input: JSON.stringify(joe) });
    assert.notEqual(put.code, 0);
    assert.match(put.stderr, /Approved and Denied conditions are mutually exclusive/);
  });

  it('serves the local APIServices, the APF bootstrap objects and the service range', async () => {
    const services = rows(await s.k().ok(['get', 'apiservices']));
    for (const name of ['v1.', 'v1.apps', 'v1.certificates.k8s.io', 'v1.networking.k8s.io']) {
      assert.deepEqual(
        services.find((r) => r[0] === name)?.slice(0, 3),
        [name, 'Local', 'True'],
        name,
      );
    }
    const schemas = rows(await s.k().ok(['get', 'flowschemas']));
    assert.deepEqual(schemas.find((r) => r[0] === 'exempt')?.slice(0, 4), [
      'exempt',
      'exempt',
      '1',
      '<none>',
    ]);
    assert.equal(schemas.find((r) => r[0] === 'catch-all')?.at(-1), 'False');
    const levels = rows(await s.k().ok(['get', 'prioritylevelconfigurations']));
    assert.deepEqual(levels.find((r) => r[0] === 'global-default')?.slice(0, 6), [
      'global-default',
      'Limited',
      '20',
      '128',
      '6',
      '50',
    ]);
    assert.deepEqual(rows(await s.k().ok(['get', 'servicecidrs']))[0]?.slice(0, 2), [
      'kubernetes',
      '10.96.0.0/12',
    ]);
    const ips = rows(await s.k().ok(['get', 'ipaddresses']));
    assert.deepEqual(
      ips.find((r) => r[0] === '10.96.0.1'),
      ['10.96.0.1', 'services/default/kubernetes'],
    );
    await s.k().ok(['delete', 'flowschema', 'catch-all']);
    await pollUntil(
      'the mandatory catch-all FlowSchema back',
      async () =>
        (await s.k().run(['get', 'flowschema', 'catch-all'])).code === 0 ? true : undefined,
      RECONCILE_WAIT_MS,
    );
  });
});
