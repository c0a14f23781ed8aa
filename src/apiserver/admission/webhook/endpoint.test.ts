import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveService, TargetError, webhookTarget } from './endpoint.js';
import { FakeLookup } from './testing.js';

function lookupWith(): FakeLookup {
  const l = new FakeLookup();
  l.services = [
    { metadata: { name: 'hook', namespace: 'w' }, spec: { ports: [{ name: 'https', port: 443 }] } },
    {
      metadata: { name: 'ext', namespace: 'w' },
      spec: { type: 'ExternalName', externalName: 'localhost' },
    },
  ];
  l.slices = [
    {
      metadata: {
        name: 'hook-a',
        namespace: 'w',
        labels: { 'kubernetes.io/service-name': 'hook' },
      },
      addressType: 'IPv4',
      endpoints: [
        { addresses: ['10.0.0.9'], conditions: { ready: false } },
        { addresses: ['127.0.0.1'] },
      ],
      ports: [{ name: 'https', port: 9443 }],
    },
  ];
  return l;
}

describe('resolveService', () => {
  it('uses the first ready address of the slice port named like the Service port', () => {
    assert.deepEqual(resolveService(lookupWith(), 'w', 'hook', 443), {
      host: '127.0.0.1',
      port: 9443,
    });
  });

  it('falls back to the legacy Endpoints', () => {
    const l = lookupWith();
    l.slices = [];
    l.legacyEndpoints = [
      {
        metadata: { name: 'hook', namespace: 'w' },
        subsets: [{ addresses: [{ ip: '127.0.0.2' }], ports: [{ name: 'https', port: 8443 }] }],
      },
    ];
    assert.deepEqual(resolveService(l, 'w', 'hook', 443), { host: '127.0.0.2', port: 8443 });
  });

  it('dials an ExternalName Service at its name and the webhook port', () => {
    assert.deepEqual(resolveService(lookupWith(), 'w', 'ext', 8443), {
      host: 'localhost',
      port: 8443,
    });
  });

  const errors: Array<[string, string, number, string]> = [
    ['missing service', 'nope', 443, 'service "nope" not found'],
    ['no such port', 'hook', 80, 'no service port 80 found for service "hook"'],
  ];
  for (const [name, svc, port, message] of errors) {
    it(name, () => {
      assert.throws(
        () => resolveService(lookupWith(), 'w', svc, port),
        (e: unknown) => {
          assert.ok(e instanceof TargetError);
          assert.equal(e.message, message);
          return true;
        },
      );
    });
  }
});

describe('webhookTarget', () => {
  it('a service target shows and verifies <name>.<namespace>.svc', () => {
    const t = webhookTarget(
      { service: { namespace: 'w', name: 'hook', path: 'validate/' } },
      10,
      lookupWith(),
    );
    assert.equal(t.url, 'https://hook.w.svc:443/validate?timeout=10s');
    assert.equal(t.serverName, 'hook.w.svc');
    assert.equal(t.path, '/validate?timeout=10s');
  });

  it('a url target keeps its host and port', () => {
    const t = webhookTarget({ url: 'https://127.0.0.1:8443' }, 3, lookupWith());
    assert.equal(t.url, 'https://127.0.0.1:8443/?timeout=3s');
    assert.deepEqual(t.dial(), { host: '127.0.0.1', port: 8443 });
  });

  it('a caBundle that is not PEM is refused as upstream refuses it', () => {
    assert.throws(
      () => webhookTarget({ url: 'https://x', caBundle: 'bm90IHBlbQ==' }, 1, lookupWith()),
      {
        message: 'unable to load root certificates: unable to parse bytes as PEM block',
      },
    );
  });
});
