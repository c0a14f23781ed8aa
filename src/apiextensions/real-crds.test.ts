/**
 * Real projects' CustomResourceDefinitions through the HTTP API (fixtures in
 * `testing/real-crds/`, sources in their headers): each is accepted and established, the
 * projects' own examples are accepted, and objects their rules reject fail with the rule's
 * message in upstream's 422 shape. Covers gateway-api's CEL (`self.all`, `exists_one`, `has`,
 * RE2 `matches` with `(?i)`, `size`, transition rules), cert-manager's enums, and Strimzi's
 * scale subresource.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'yaml';
import { startTestServer, type TestServer } from '../apiserver/testing/test-server.js';
import { apiExtensions } from './index.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const GW_V1 = '/apis/gateway.networking.k8s.io/v1';
const GATEWAYS = `${GW_V1}/namespaces/default/gateways`;
const CERTS = '/apis/cert-manager.io/v1/namespaces/default/certificates';
const POOLS = '/apis/kafka.strimzi.io/v1beta2/namespaces/default/kafkanodepools';
const MERGE = 'application/merge-patch+json';

const FIXTURES = [
  'gateway-api-gatewayclasses.yaml',
  'gateway-api-gateways.yaml',
  'cert-manager-certificates.yaml',
  'strimzi-kafkanodepools.yaml',
];

function fixture(file: string): Record<string, unknown> {
  const text = readFileSync(new URL(`./testing/real-crds/${file}`, import.meta.url), 'utf8');
  // `merge` keeps YAML aliases the fixtures use to share a schema between versions.
  return parse(text, { merge: true }) as Record<string, unknown>;
}

async function established(t: TestServer, name: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const r = await t.request('GET', `${CRDS}/${name}`);
    const conditions =
      (r.body.status as { conditions?: { type: string; status: string }[] })?.conditions ?? [];
    if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) return;
    await sleep(10);
  }
  throw new Error(`${name} was not established`);
}

function gateway(name: string, spec: Record<string, unknown>) {
  return { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name }, spec };
}

const http = { name: 'http', protocol: 'HTTP', port: 80 };
const invalid = (kind: string, name: string, detail: string) =>
  `${kind} "${name}" is invalid: ${detail}`;

describe('real CustomResourceDefinitions', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ extensions: apiExtensions() });
  });
  after(async () => {
    await t.close();
  });

  it('accepts and establishes every fixture, as a 1.33 kube-apiserver does', async () => {
    for (const file of FIXTURES) {
      const crd = fixture(file);
      const r = await t.request('POST', CRDS, { body: crd });
      assert.equal(r.status, 201, `${file}: ${r.text}`);
      await established(t, (crd.metadata as { name: string }).name);
    }
  });

  it('accepts the gateway-api examples, defaulting listeners, refs and status', async () => {
    const gc = await t.request('POST', `${GW_V1}/gatewayclasses`, {
      body: {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'GatewayClass',
        metadata: { name: 'example' },
        spec: { controllerName: 'example.net/gateway-controller' },
      },
    });
    assert.equal(gc.status, 201, gc.text);
    const conditions = (gc.body.status as { conditions: { reason: string }[] }).conditions;
    assert.deepEqual(
      conditions.map((c) => c.reason),
      ['Pending'],
    );
    // examples/standard/simple-gateway + a TLS listener and addresses of both kinds.
    const r = await t.request('POST', GATEWAYS, {
      body: gateway('example-gateway', {
        gatewayClassName: 'example',
        listeners: [
          http,
          {
            name: 'https',
            protocol: 'HTTPS',
            port: 443,
            hostname: '*.example.com',
            tls: { certificateRefs: [{ name: 'example-com-cert' }] },
          },
          { name: 'tls', protocol: 'TLS', port: 8443, tls: { mode: 'Passthrough' } },
        ],
        addresses: [{ value: '192.0.2.10' }, { type: 'Hostname', value: 'gw.example.com' }],
        infrastructure: { labels: { 'example.com/team': 'edge' }, annotations: { note: 'x' } },
      }),
    });
    assert.equal(r.status, 201, r.text);
    const spec = r.body.spec as { listeners: Record<string, unknown>[] };
    assert.deepEqual(spec.listeners[0]?.allowedRoutes, { namespaces: { from: 'Same' } });
    assert.deepEqual(spec.listeners[1]?.tls, {
      certificateRefs: [{ name: 'example-com-cert', group: '', kind: 'Secret' }],
      mode: 'Terminate',
    });
    const status = r.body.status as { conditions: { type: string }[] };
    assert.deepEqual(
      status.conditions.map((c) => c.type),
      ['Accepted', 'Programmed'],
    );
  });

  it('rejects Gateways with the messages of gateway-api rules', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [
        'tls-on-http',
        { listeners: [{ ...http, tls: { certificateRefs: [{ name: 'c' }] } }] },
        `spec.listeners: Invalid value: "array": tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']`,
      ],
      [
        'https-passthrough',
        { listeners: [{ name: 'a', protocol: 'https', port: 443, tls: { mode: 'Passthrough' } }] },
        'spec.listeners: Invalid value: "array": tls mode must be Terminate for protocol HTTPS',
      ],
      [
        'tls-no-tls',
        { listeners: [{ name: 'a', protocol: 'TLS', port: 443 }] },
        'spec.listeners: Invalid value: "array": tls mode must be set for protocol TLS',
      ],
      [
        'tcp-hostname',
        { listeners: [{ name: 'a', protocol: 'TCP', port: 9000, hostname: 'a.example.com' }] },
        `spec.listeners: Invalid value: "array": hostname must not be specified for protocols ['TCP', 'UDP']`,
      ],
      [
        'same-port',
        { listeners: [http, { ...http, name: 'http-2' }] },
        'spec.listeners: Invalid value: "array": Combination of port, protocol and hostname must be unique for each listener',
      ],
      [
        'dup-ip',
        { listeners: [http], addresses: [{ value: '192.0.2.1' }, { value: '192.0.2.1' }] },
        'spec.addresses: Invalid value: "array": IPAddress values must be unique',
      ],
      [
        'bad-hostname',
        { listeners: [http], addresses: [{ type: 'Hostname', value: 'Not_A_Host' }] },
        'spec.addresses[0]: Invalid value: "object": Hostname value must be empty or contain only valid characters (matching ^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$)',
      ],
      [
        'bad-label-key',
        { listeners: [http], infrastructure: { labels: { '-team': 'edge' } } },
        'spec.infrastructure.labels: Invalid value: "object": Label keys must be in the form of an optional DNS subdomain prefix followed by a required name segment of up to 63 characters.',
      ],
      [
        // Both operands of `size(self.certificateRefs) > 0 || size(self.options) > 0` fail on
        // absent fields: cel-go reports the left one.
        'terminate-no-refs',
        { listeners: [{ name: 'a', protocol: 'HTTPS', port: 443, tls: {} }] },
        'spec.listeners[0].tls: Invalid value: "object": no such key: certificateRefs evaluating rule: certificateRefs or options must be specified when mode is Terminate',
      ],
    ];
    for (const [name, spec, detail] of cases) {
      const r = await t.request('POST', GATEWAYS, {
        body: gateway(name, { gatewayClassName: 'example', ...spec }),
      });
      assert.equal(r.status, 422, `${name}: ${r.text}`);
      assert.equal(r.body.message, invalid('Gateway.gateway.networking.k8s.io', name, detail));
    }
  });

  it('enforces the GatewayClass controllerName transition rule on update only', async () => {
    const r = await t.request('PATCH', `${GW_V1}/gatewayclasses/example`, {
      body: { spec: { controllerName: 'example.net/other', description: 'changed' } },
      contentType: MERGE,
    });
    assert.equal(r.status, 422, r.text);
    assert.equal(
      r.body.message,
      invalid(
        'GatewayClass.gateway.networking.k8s.io',
        'example',
        'spec.controllerName: Invalid value: "string": Value is immutable',
      ),
    );
    const ok = await t.request('PATCH', `${GW_V1}/gatewayclasses/example`, {
      body: { spec: { description: 'changed' } },
      contentType: MERGE,
    });
    assert.equal(ok.status, 200, ok.text);
  });

  it('serves a Gateway through v1beta1 too, with the same rules', async () => {
    const r = await t.request(
      'POST',
      '/apis/gateway.networking.k8s.io/v1beta1/namespaces/default/gateways',
      {
        body: {
          ...gateway('beta', {
            gatewayClassName: 'example',
            listeners: [http, { ...http, name: 'http-2' }],
          }),
          apiVersion: 'gateway.networking.k8s.io/v1beta1',
        },
      },
    );
    assert.equal(r.status, 422, r.text);
    assert.equal(
      r.body.message,
      invalid(
        'Gateway.gateway.networking.k8s.io',
        'beta',
        'spec.listeners: Invalid value: "array": Combination of port, protocol and hostname must be unique for each listener',
      ),
    );
  });

  it('accepts a cert-manager Certificate example and rejects schema violations', async () => {
    // docs: "Creating Certificate Resources" (cert-manager.io/docs/usage/certificate/).
    const cert = {
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'example-com' },
      spec: {
        secretName: 'example-com-tls',
        duration: '2160h',
        renewBefore: '360h',
        subject: { organizations: ['jetstack'] },
        isCA: false,
        privateKey: { algorithm: 'RSA', encoding: 'PKCS1', size: 2048 },
        usages: ['server auth', 'client auth'],
        dnsNames: ['example.com', 'www.example.com'],
        uris: ['spiffe://cluster.local/ns/sandbox/sa/example'],
        ipAddresses: ['192.168.0.5'],
        issuerRef: { name: 'ca-issuer', kind: 'Issuer', group: 'cert-manager.io' },
      },
    };
    const ok = await t.request('POST', CERTS, { body: cert });
    assert.equal(ok.status, 201, ok.text);
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { privateKey: { algorithm: 'DSA' } },
        'spec.privateKey.algorithm: Unsupported value: "DSA": supported values: "RSA", "ECDSA", "Ed25519"',
      ],
      [{ issuerRef: undefined }, 'spec.issuerRef: Required value'],
    ];
    for (const [patch, detail] of cases) {
      const body = { ...cert, metadata: { name: 'bad' }, spec: { ...cert.spec, ...patch } };
      const r = await t.request('POST', CERTS, { body });
      assert.equal(r.status, 422, r.text);
      assert.equal(r.body.message, invalid('Certificate.cert-manager.io', 'bad', detail));
    }
  });

  it('serves the Strimzi KafkaNodePool scale subresource from its replica paths', async () => {
    // examples/kafka/kraft/kafka.yaml (the broker pool).
    const created = await t.request('POST', POOLS, {
      body: {
        apiVersion: 'kafka.strimzi.io/v1beta2',
        kind: 'KafkaNodePool',
        metadata: { name: 'broker', labels: { 'strimzi.io/cluster': 'my-cluster' } },
        spec: {
          replicas: 3,
          roles: ['broker'],
          storage: {
            type: 'jbod',
            volumes: [{ id: 0, type: 'persistent-claim', size: '100Gi', deleteClaim: false }],
          },
          jvmOptions: { '-Xms': '2g', '-Xmx': '2g' },
        },
      },
    });
    assert.equal(created.status, 201, created.text);
    const status = await t.request('PATCH', `${POOLS}/broker/status`, {
      body: { status: { replicas: 3, labelSelector: 'strimzi.io/pool-name=broker' } },
      contentType: MERGE,
    });
    assert.equal(status.status, 200, status.text);
    const scale = await t.request('GET', `${POOLS}/broker/scale`);
    assert.equal(scale.status, 200, scale.text);
    assert.equal(scale.body.kind, 'Scale');
    assert.deepEqual(scale.body.spec, { replicas: 3 });
    assert.deepEqual(scale.body.status, {
      replicas: 3,
      selector: 'strimzi.io/pool-name=broker',
    });
    const scaled = await t.request('PATCH', `${POOLS}/broker/scale`, {
      body: { spec: { replicas: 5 } },
      contentType: MERGE,
    });
    assert.equal(scaled.status, 200, scaled.text);
    const pool = await t.request('GET', `${POOLS}/broker`);
    assert.equal((pool.body.spec as { replicas: number }).replicas, 5);
    const negative = await t.request('PATCH', `${POOLS}/broker/scale`, {
      body: { spec: { replicas: -1 } },
      contentType: MERGE,
    });
    assert.equal(negative.status, 422, negative.text);
  });
});
