import assert from 'node:assert/strict';
import { webcrypto, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { csrIssuer } from './csr-issuer.js';
import { ensureServingCertificates } from './pki.js';
import { loadX509 } from './x509-tools.js';

const root = mkdtempSync(join(tmpdir(), 'fleetyard-csr-'));
let caPem = '';

/** A PKCS#10 request as `openssl req` or client-go's `certificate.Request` would make it. */
async function request(subject: string, dns: readonly string[] = []): Promise<string> {
  const x509 = await loadX509();
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const extensions =
    dns.length === 0
      ? []
      : [new x509.SubjectAlternativeNameExtension(dns.map((value) => ({ type: 'dns', value })))];
  const csr = await x509.Pkcs10CertificateRequestGenerator.create(
    { name: subject, keys, signingAlgorithm: alg, extensions },
    webcrypto,
  );
  return csr.toString('pem');
}

describe('csrIssuer', () => {
  before(async () => {
    caPem = (await ensureServingCertificates({ dir: root, hosts: ['127.0.0.1'] })).caPem;
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('reads the subject and alternative names a signer checks', async () => {
    const parsed = await csrIssuer(root).parse(
      await request('CN=system:node:n1, O=system:nodes', ['n1.example']),
    );
    assert.equal(parsed.commonName, 'system:node:n1');
    assert.deepEqual(parsed.organizations, ['system:nodes']);
    assert.deepEqual(parsed.dnsNames, ['n1.example']);
    assert.deepEqual([...parsed.ipAddresses, ...parsed.emailAddresses, ...parsed.uris], []);
  });

  it('refuses what is not a request', async () => {
    await assert.rejects(csrIssuer(root).parse('-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n'));
  });

  it('issues a client certificate signed by the cluster CA, clamped to the CA', async () => {
    const notBefore = new Date(Date.now() - 5 * 60_000);
    const pem = await csrIssuer(root).issue(await request('CN=alice, O=devs, O=ops'), {
      usages: ['digital signature', 'client auth'],
      notBefore,
      notAfter: new Date(Date.now() + 100 * 365 * 86_400_000),
    });
    const cert = new X509Certificate(pem);
    const ca = new X509Certificate(caPem);
    assert.ok(cert.checkIssued(ca) && cert.verify(ca.publicKey));
    assert.match(cert.subject, /CN=alice/);
    assert.match(cert.subject, /O=devs/);
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
    assert.equal(cert.ca, false);
    assert.ok(Date.parse(cert.validTo) <= Date.parse(ca.validTo));
    assert.equal(
      Math.floor(Date.parse(cert.validFrom) / 1000),
      Math.floor(notBefore.getTime() / 1000),
    );
  });
});
