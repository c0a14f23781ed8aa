import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { builtinResources } from '../api/kinds/index.js';
import { ensureServingCertificates } from '../security/pki.js';
import { createMemoryBackend } from '../storage/memory/backend.js';
import { isLoopbackHost } from './loopback.js';
import { ApiServer } from './server.js';

describe('isLoopbackHost', () => {
  const cases: Array<[string, boolean]> = [
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['::', false],
    ['10.0.0.5', false],
    ['192.168.1.10', false],
    ['example.com', false],
  ];
  for (const [host, loopback] of cases) {
    it(`${host} → ${loopback}`, () => assert.equal(isLoopbackHost(host), loopback));
  }
});

describe('binding', () => {
  const tls = { cert: 'unused', key: 'unused' };
  const base = { backend: createMemoryBackend(), resources: builtinResources };

  it('refuses a non-loopback address without TLS or without a token', () => {
    for (const host of ['0.0.0.0', '10.1.2.3', '::']) {
      assert.throws(
        () => new ApiServer({ ...base, host }),
        /non-loopback address needs TLS and a token/,
      );
      assert.throws(() => new ApiServer({ ...base, host, token: 't' }), /needs TLS and a token/);
      assert.throws(() => new ApiServer({ ...base, host, tls }), /needs TLS and a token/);
    }
  });

  it('allows loopback without TLS (tests) and any address with TLS and a token', async () => {
    assert.doesNotThrow(() => new ApiServer({ ...base, host: '127.0.0.1' }));
    const dir = mkdtempSync(join(tmpdir(), 'fleetyard-bind-'));
    try {
      const certs = await ensureServingCertificates({ dir, hosts: ['0.0.0.0'] });
      const real = { cert: certs.certPem, key: certs.keyPem };
      assert.doesNotThrow(() => new ApiServer({ ...base, host: '0.0.0.0', tls: real, token: 't' }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
