/**
 * Every `kubectl create <generator>` of kubectl 1.33 against a real `fleetyard up`. kubectl
 * 1.32+ sends protobuf request bodies from its typed clients, so each generator is also a
 * check that the server decodes that kind's protobuf: `kubectl create quota` once failed with
 * `protobuf: no protobuf decoding for v1, Kind=ResourceQuota` (issue 14, item 3). Each served
 * generator must succeed and the object read back with the values given; the generators whose
 * kinds fleetyard does not serve yet must get the answer a client gets from upstream for an
 * unknown resource. (Every built-in resource's protobuf body: `protobuf-bodies.test.ts`.)
 */
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, it } from 'node:test';
import { API_ONLY } from './testing/cluster.js';
import {
  clusterForFile,
  createFromManifest,
  describeKubectl,
  inNamespace,
  namespaceObject,
} from './testing/kubectl-fixtures.js';

const current = clusterForFile({ args: API_ONLY });

type Json = Record<string, unknown>;

const b64 = (text: string | Buffer): string => Buffer.from(text).toString('base64');

/** The bytes of a file `--from-file` puts in `binaryData` (not valid UTF-8). */
const BINARY = Buffer.from([0, 255, 1, 2]);

// ---------------------------------------------------------------------------------------------
// Inputs

/** A self-signed certificate and its key, as PEM files for `create secret tls`. */
async function tlsPair(dir: string): Promise<{ cert: string; key: string }> {
  // @peculiar/x509 needs the reflect-metadata polyfill loaded first (see src/security/pki.ts).
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=generators.example',
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 86_400_000),
    keys,
    signingAlgorithm: alg,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const body = pkcs8.toString('base64').replace(/(.{64})/g, '$1\n');
  const key = `-----BEGIN PRIVATE KEY-----\n${body.trimEnd()}\n-----END PRIVATE KEY-----\n`;
  const cert = certificate.toString('pem');
  writeFileSync(join(dir, 'tls.crt'), cert);
  writeFileSync(join(dir, 'tls.key'), key);
  return { cert, key };
}

// ---------------------------------------------------------------------------------------------
// The generators

/**
 * A generator the server serves: `create <generator> <name> <args>`, kubectl's answer
 * (`<resource>/<name> created`, `resource` being what `get` then reads), and the values that
 * read back, by dotted path into the object.
 */
interface Served {
  readonly generator: string;
  readonly name: string;
  readonly args: readonly string[];
  readonly resource: string;
  /** A function when the values exist only once the files are written (`before`). */
  readonly want: Readonly<Record<string, unknown>> | (() => Readonly<Record<string, unknown>>);
}

/** The value at a dotted path (`spec.ports`); keys containing dots are not addressable. */
function at(object: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (v as Json | undefined)?.[key], object);
}

/** `<resource>/<name> created`, as kubectl words it (`clusterrole.rbac.authorization.k8s.io/…`). */
function createdLine(resource: string, name: string): string {
  const groups: Record<string, string> = {
    clusterrole: 'rbac.authorization.k8s.io',
    clusterrolebinding: 'rbac.authorization.k8s.io',
    role: 'rbac.authorization.k8s.io',
    rolebinding: 'rbac.authorization.k8s.io',
    deployment: 'apps',
    poddisruptionbudget: 'policy',
    cronjob: 'batch',
    job: 'batch',
    ingress: 'networking.k8s.io',
    priorityclass: 'scheduling.k8s.io',
  };
  const group = groups[resource];
  return `${resource}${group === undefined ? '' : `.${group}`}/${name} created\n`;
}

describeKubectl('1.33', current, (s) => {
  const ns = 'generators';
  const { run, read } = inNamespace(s, ns);
  const files = mkdtempSync(join(tmpdir(), 'kubectl-generators-'));
  const tls = { cert: '', key: '' };

  before(async () => {
    await createFromManifest(s.k(), undefined, namespaceObject(ns));
    writeFileSync(join(files, 'text.txt'), 'hello');
    writeFileSync(join(files, 'bin.dat'), BINARY);
    Object.assign(tls, await tlsPair(files));
  });

  const rbac = 'rbac.authorization.k8s.io';
  const web = { matchLabels: { app: 'web' } };
  const served: readonly Served[] = [
    {
      generator: 'clusterrole',
      name: 'gen-reader',
      args: ['--verb=get,list', '--resource=pods,deployments.apps', '--resource-name=a'],
      resource: 'clusterrole',
      want: {
        rules: [
          { apiGroups: [''], resourceNames: ['a'], resources: ['pods'], verbs: ['get', 'list'] },
          {
            apiGroups: ['apps'],
            resourceNames: ['a'],
            resources: ['deployments'],
            verbs: ['get', 'list'],
          },
        ],
      },
    },
    {
      generator: 'clusterrole',
      name: 'gen-aggregate',
      args: ['--aggregation-rule=rbac.example.com/aggregate=true'],
      resource: 'clusterrole',
      want: {
        'aggregationRule.clusterRoleSelectors': [
          { matchLabels: { 'rbac.example.com/aggregate': 'true' } },
        ],
      },
    },
    {
      generator: 'clusterrole',
      name: 'gen-health',
      args: ['--verb=get', '--non-resource-url=/healthz'],
      resource: 'clusterrole',
      want: { rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }] },
    },
    {
      generator: 'clusterrolebinding',
      name: 'gen-crb',
      args: [
        '--clusterrole=gen-reader',
        '--user=alice',
        '--group=devs',
        `--serviceaccount=${ns}:robot`,
      ],
      resource: 'clusterrolebinding',
      want: {
        roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'gen-reader' },
        subjects: [
          { apiGroup: rbac, kind: 'User', name: 'alice' },
          { apiGroup: rbac, kind: 'Group', name: 'devs' },
          { kind: 'ServiceAccount', name: 'robot', namespace: ns },
        ],
      },
    },
    {
      generator: 'configmap',
      name: 'gen-cm',
      args: [
        '--from-literal=a=b',
        `--from-file=${join(files, 'text.txt')}`,
        `--from-file=${join(files, 'bin.dat')}`,
      ],
      resource: 'configmap',
      want: { data: { a: 'b', 'text.txt': 'hello' }, binaryData: { 'bin.dat': b64(BINARY) } },
    },
    {
      generator: 'deployment',
      name: 'gen-web',
      args: ['--image=nginx:1.27', '--replicas=2', '--port=80', '--', 'sleep', '10'],
      resource: 'deployment',
      want: {
        'spec.replicas': 2,
        'spec.selector': { matchLabels: { app: 'gen-web' } },
        'spec.template.spec.containers.0.name': 'nginx',
        'spec.template.spec.containers.0.image': 'nginx:1.27',
        'spec.template.spec.containers.0.command': ['sleep', '10'],
        'spec.template.spec.containers.0.ports': [{ containerPort: 80, protocol: 'TCP' }],
      },
    },
    {
      generator: 'namespace',
      name: 'gen-ns',
      args: [],
      resource: 'namespace',
      want: { 'metadata.labels': { 'kubernetes.io/metadata.name': 'gen-ns' } },
    },
    {
      generator: 'poddisruptionbudget',
      name: 'gen-pdb',
      args: ['--selector=app=web', '--min-available=1'],
      resource: 'poddisruptionbudget',
      want: { spec: { minAvailable: 1, selector: web } },
    },
    {
      generator: 'poddisruptionbudget',
      name: 'gen-pdb-max',
      args: ['--selector=app=web', '--max-unavailable=50%'],
      resource: 'poddisruptionbudget',
      want: { spec: { maxUnavailable: '50%', selector: web } },
    },
    {
      generator: 'quota',
      name: 'gen-quota',
      args: [
        '--hard=cpu=1,memory=1Gi,pods=2,count/configmaps=5',
        '--scopes=NotBestEffort,NotTerminating',
      ],
      resource: 'resourcequota',
      want: {
        spec: {
          hard: { 'count/configmaps': '5', cpu: '1', memory: '1Gi', pods: '2' },
          scopes: ['NotBestEffort', 'NotTerminating'],
        },
      },
    },
    {
      generator: 'role',
      name: 'gen-role',
      args: ['--verb=get', '--verb=watch', '--resource=pods', '--resource=configmaps'],
      resource: 'role',
      want: {
        rules: [{ apiGroups: [''], resources: ['pods', 'configmaps'], verbs: ['get', 'watch'] }],
      },
    },
    {
      generator: 'rolebinding',
      name: 'gen-rb',
      args: ['--role=gen-role', '--user=bob', `--serviceaccount=${ns}:robot`],
      resource: 'rolebinding',
      want: {
        roleRef: { apiGroup: rbac, kind: 'Role', name: 'gen-role' },
        subjects: [
          { apiGroup: rbac, kind: 'User', name: 'bob' },
          { kind: 'ServiceAccount', name: 'robot', namespace: ns },
        ],
      },
    },
    {
      generator: 'rolebinding',
      name: 'gen-rb-cluster',
      args: ['--clusterrole=gen-reader', '--group=devs'],
      resource: 'rolebinding',
      want: {
        roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'gen-reader' },
        subjects: [{ apiGroup: rbac, kind: 'Group', name: 'devs' }],
      },
    },
    {
      generator: 'secret generic',
      name: 'gen-secret',
      args: ['--from-literal=user=admin', '--from-literal=pass=s3cr3t', '--type=Opaque'],
      resource: 'secret',
      want: { type: 'Opaque', data: { pass: b64('s3cr3t'), user: b64('admin') } },
    },
    {
      generator: 'secret docker-registry',
      name: 'gen-registry',
      args: [
        '--docker-server=r.example',
        '--docker-username=u',
        '--docker-password=p',
        '--docker-email=e@x',
      ],
      resource: 'secret',
      want: {
        type: 'kubernetes.io/dockerconfigjson',
        data: {
          '.dockerconfigjson': b64(
            JSON.stringify({
              auths: {
                'r.example': { username: 'u', password: 'p', email: 'e@x', auth: b64('u:p') },
              },
            }),
          ),
        },
      },
    },
    {
      generator: 'secret tls',
      name: 'gen-tls',
      args: [`--cert=${join(files, 'tls.crt')}`, `--key=${join(files, 'tls.key')}`],
      resource: 'secret',
      want: () => ({
        type: 'kubernetes.io/tls',
        data: { 'tls.crt': b64(tls.cert), 'tls.key': b64(tls.key) },
      }),
    },
    {
      generator: 'service clusterip',
      name: 'gen-clusterip',
      args: ['--tcp=80:8080', '--tcp=443:8443'],
      resource: 'service',
      want: {
        'spec.type': 'ClusterIP',
        'spec.selector': { app: 'gen-clusterip' },
        'spec.ports': [
          { name: '80-8080', port: 80, protocol: 'TCP', targetPort: 8080 },
          { name: '443-8443', port: 443, protocol: 'TCP', targetPort: 8443 },
        ],
      },
    },
    {
      generator: 'service clusterip',
      name: 'gen-headless',
      args: ['--clusterip=None'],
      resource: 'service',
      want: { 'spec.clusterIP': 'None', 'spec.selector': { app: 'gen-headless' } },
    },
    {
      generator: 'service externalname',
      name: 'gen-external',
      args: ['--external-name=example.com'],
      resource: 'service',
      want: { 'spec.type': 'ExternalName', 'spec.externalName': 'example.com' },
    },
    {
      generator: 'service loadbalancer',
      name: 'gen-lb',
      args: ['--tcp=443:8443'],
      resource: 'service',
      want: {
        'spec.type': 'LoadBalancer',
        'spec.selector': { app: 'gen-lb' },
        'spec.ports.0.name': '443-8443',
        'spec.ports.0.port': 443,
        'spec.ports.0.targetPort': 8443,
      },
    },
    {
      generator: 'service nodeport',
      name: 'gen-nodeport',
      args: ['--tcp=80:8080', '--node-port=30080'],
      resource: 'service',
      want: {
        'spec.type': 'NodePort',
        'spec.ports': [
          { name: '80-8080', nodePort: 30080, port: 80, protocol: 'TCP', targetPort: 8080 },
        ],
      },
    },
    {
      generator: 'cronjob',
      name: 'gen-cron',
      args: ['--image=busybox', '--schedule=*/5 * * * *'],
      resource: 'cronjob',
      want: {
        'spec.schedule': '*/5 * * * *',
        'spec.concurrencyPolicy': 'Allow',
        'spec.jobTemplate.spec.template.spec.restartPolicy': 'OnFailure',
      },
    },
    {
      generator: 'job',
      name: 'gen-job',
      args: ['--image=busybox', '--', 'true'],
      resource: 'job',
      want: {
        'spec.completions': 1,
        'spec.parallelism': 1,
        'spec.backoffLimit': 6,
        'spec.template.spec.restartPolicy': 'Never',
        'spec.template.spec.containers.0.command': ['true'],
      },
    },
    {
      generator: 'ingress',
      name: 'gen-ingress',
      args: ['--rule=foo.example/bar=svc:8080'],
      resource: 'ingress',
      want: {
        'spec.rules.0.host': 'foo.example',
        'spec.rules.0.http.paths.0.path': '/bar',
        'spec.rules.0.http.paths.0.pathType': 'Exact',
        'spec.rules.0.http.paths.0.backend.service': { name: 'svc', port: { number: 8080 } },
      },
    },
    {
      generator: 'priorityclass',
      name: 'gen-priority',
      args: ['--value=1000', '--description=high'],
      resource: 'priorityclass',
      want: { value: 1000, description: 'high', preemptionPolicy: 'PreemptLowerPriority' },
    },
    {
      generator: 'serviceaccount',
      name: 'robot',
      args: [],
      resource: 'serviceaccount',
      want: { 'metadata.namespace': ns },
    },
  ];

  for (const g of served) {
    // The temp dir's name varies per run: titles name the files only.
    const shown = g.args.map((a) => a.replace(`${files}/`, '')).join(' ');
    it(`create ${g.generator} ${g.name} ${shown}`.trimEnd(), async () => {
      const r = await run('create', ...g.generator.split(' '), g.name, ...g.args);
      assert.equal(r.stderr, '');
      assert.equal(r.stdout, createdLine(g.resource, g.name));
      assert.equal(r.code, 0);
      const object = await read(g.resource, g.name);
      assert.equal(object.metadata.name, g.name);
      const want = typeof g.want === 'function' ? g.want() : g.want;
      for (const [path, value] of Object.entries(want))
        assert.deepEqual(at(object, path), value, path);
    });
  }

  // Served since issue 18: the TokenRequest API (`serviceaccounts/token`), a protobuf body.
  it('create token robot --duration=10m: a signed JWT for the ServiceAccount', async () => {
    const r = await run('create', 'token', 'robot', '--duration=10m');
    assert.equal(r.stderr, '');
    assert.equal(r.code, 0);
    const parts = r.stdout.trim().split('.');
    assert.equal(parts.length, 3, 'a compact JWS');
    const claims = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString()) as {
      sub: string;
      exp: number;
      iat: number;
    };
    assert.equal(claims.sub, `system:serviceaccount:${ns}:robot`);
    assert.equal(claims.exp - claims.iat, 600);
  });
});
