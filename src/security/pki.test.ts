import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { createServer as createHttpsServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  CA_CERT_FILE,
  CA_KEY_FILE,
  ensureServingCertificates,
  SERVER_CERT_FILE,
  SERVER_KEY_FILE,
  type ServingCertificates,
} from './pki.js';

const DAY = 86_400_000;
const root = mkdtempSync(join(tmpdir(), 'fleetyard-pki-'));
after(() => rmSync(root, { recursive: true, force: true }));

const modeOf = (p: string) => statSync(p).mode & 0o777;
let n = 0;
const fresh = () => join(root, `case-${n++}`);
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');
const clockAt = (ms: number) => ({ now: () => ms });

describe('ensureServingCertificates: first start', async () => {
  const dir = fresh();
  const hosts = ['fleet.example.test', '10.1.2.3', '[fd00::5]', 'FLEET2.example.test'];
  const started = Date.now();
  const pems = await ensureServingCertificates({ dir, hosts });
  const ca = new X509Certificate(pems.caPem);
  const cert = new X509Certificate(pems.certPem);

  it('takes milliseconds, not seconds', () => {
    assert.ok(Date.now() - started < 2000, `${Date.now() - started} ms`);
  });

  it('stores the four PEM files: keys 0600, certificates 0644, dir 0700', () => {
    assert.equal(read(dir, CA_CERT_FILE), pems.caPem);
    assert.equal(read(dir, SERVER_CERT_FILE), pems.certPem);
    assert.equal(read(dir, SERVER_KEY_FILE), pems.keyPem);
    assert.match(read(dir, CA_KEY_FILE), /^-----BEGIN PRIVATE KEY-----\n/);
    assert.equal(modeOf(join(dir, CA_KEY_FILE)), 0o600);
    assert.equal(modeOf(join(dir, SERVER_KEY_FILE)), 0o600);
    assert.equal(modeOf(join(dir, CA_CERT_FILE)), 0o644);
    assert.equal(modeOf(join(dir, SERVER_CERT_FILE)), 0o644);
    assert.equal(modeOf(dir), 0o700);
  });

  it('makes an EC P-256 CA valid for 10 years', () => {
    assert.equal(ca.ca, true);
    assert.ok(ca.verify(ca.publicKey), 'self-signed');
    const key = createPrivateKey(read(dir, CA_KEY_FILE));
    assert.ok(ca.checkPrivateKey(key));
    assert.equal(key.asymmetricKeyType, 'ec');
    assert.equal(key.asymmetricKeyDetails?.namedCurve, 'prime256v1');
    assertLifetime(ca, 3650);
  });

  it('makes a serving certificate signed by the CA, for serverAuth, valid for 1 year', () => {
    assert.equal(cert.ca, false);
    assert.ok(cert.verify(ca.publicKey));
    assert.ok(cert.checkIssued(ca));
    assert.ok(cert.checkPrivateKey(createPrivateKey(pems.keyPem)));
    assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.1']);
    assertLifetime(cert, 365);
    assert.ok(Date.parse(cert.validFrom) <= Date.now());
  });

  it('names the loopback defaults and every requested host', () => {
    assert.equal(cert.checkHost('localhost'), 'localhost');
    assert.equal(cert.checkIP('127.0.0.1'), '127.0.0.1');
    assert.ok(cert.checkIP('::1'));
    assert.equal(cert.checkHost('fleet.example.test'), 'fleet.example.test');
    assert.ok(cert.checkHost('fleet2.example.test'));
    assert.ok(cert.checkIP('10.1.2.3'));
    assert.ok(cert.checkIP('fd00:0:0:0:0:0:0:5'));
    assert.equal(cert.checkHost('other.example.test'), undefined);
    assert.equal(cert.checkIP('10.1.2.4'), undefined);
    // IPs are IP SANs, not DNS names.
    assert.doesNotMatch(cert.subjectAltName ?? '', /DNS:10\.1\.2\.3/);
  });

  it('serves TLS that a client trusting only the CA accepts', async () => {
    await withHttpsServer(pems, async (port) => {
      assert.equal(await get({ host: '127.0.0.1', port, ca: pems.caPem }), 'ok');
      assert.equal(
        await get({ host: '127.0.0.1', port, ca: pems.caPem, servername: 'localhost' }),
        'ok',
      );
    });
  });

  it('fails TLS for a client without the CA, or for a name not in the certificate', async () => {
    await withHttpsServer(pems, async (port) => {
      await assert.rejects(get({ host: '127.0.0.1', port }), {
        code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      });
      await assert.rejects(
        get({ host: '127.0.0.1', port, ca: pems.caPem, servername: 'other.example.test' }),
        { code: 'ERR_TLS_CERT_ALTNAME_INVALID' },
      );
    });
  });

  it('serves TLS on ::1 too (when the host has IPv6)', async (t) => {
    await withHttpsServer(
      pems,
      async (port) => assert.equal(await get({ host: '::1', port, ca: pems.caPem }), 'ok'),
      '::1',
    ).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EADDRNOTAVAIL' && err.code !== 'EAFNOSUPPORT') throw err;
      t.skip(`no IPv6 loopback here (${err.code})`);
    });
  });
});

describe('ensureServingCertificates: later starts', () => {
  it('reuses everything, byte for byte, when nothing changed', async () => {
    const dir = fresh();
    const first = await ensureServingCertificates({ dir, hosts: ['a.test', '10.0.0.1'] });
    const files = snapshot(dir);
    // Fewer hosts, or the same in another form, do not force a new certificate.
    const second = await ensureServingCertificates({ dir, hosts: ['A.test.', '10.0.0.1'] });
    const third = await ensureServingCertificates({ dir, hosts: [] });
    assert.deepEqual(second, first);
    assert.deepEqual(third, first);
    assert.deepEqual(snapshot(dir), files);
  });

  it('re-issues the serving certificate (same CA) when a host is added', async () => {
    const dir = fresh();
    const first = await ensureServingCertificates({ dir, hosts: ['a.test'] });
    const second = await ensureServingCertificates({ dir, hosts: ['a.test', '192.168.7.7'] });
    assert.equal(second.caPem, first.caPem);
    assert.notEqual(second.certPem, first.certPem);
    assert.notEqual(second.keyPem, first.keyPem);
    const cert = new X509Certificate(second.certPem);
    assert.ok(cert.checkIP('192.168.7.7'));
    assert.ok(cert.checkHost('a.test'));
    assert.ok(cert.verify(new X509Certificate(first.caPem).publicKey));
    assert.equal(read(dir, SERVER_CERT_FILE), second.certPem);
    assert.equal(modeOf(join(dir, SERVER_KEY_FILE)), 0o600);
  });

  it('re-issues a serving certificate within 30 days of expiry, not before', async () => {
    const dir = fresh();
    const now = Date.now();
    const first = await ensureServingCertificates({ dir, hosts: [], clock: clockAt(now) });
    const at300 = await ensureServingCertificates({
      dir,
      hosts: [],
      clock: clockAt(now + 300 * DAY),
    });
    assert.deepEqual(at300, first);
    const later = now + 340 * DAY;
    const at340 = await ensureServingCertificates({ dir, hosts: [], clock: clockAt(later) });
    assert.equal(at340.caPem, first.caPem);
    assert.notEqual(at340.certPem, first.certPem);
    const cert = new X509Certificate(at340.certPem);
    assert.ok(Math.abs(Date.parse(cert.validTo) - (later + 365 * DAY)) < 2000);
  });

  it('re-issues a missing serving certificate or a serving key others can read', async () => {
    const dir = fresh();
    const first = await ensureServingCertificates({ dir, hosts: [] });
    unlinkSync(join(dir, SERVER_CERT_FILE));
    const second = await ensureServingCertificates({ dir, hosts: [] });
    assert.equal(second.caPem, first.caPem);
    assert.notEqual(second.keyPem, first.keyPem);
    chmodSync(join(dir, SERVER_KEY_FILE), 0o644);
    const third = await ensureServingCertificates({ dir, hosts: [] });
    assert.notEqual(third.keyPem, second.keyPem);
    assert.equal(modeOf(join(dir, SERVER_KEY_FILE)), 0o600);
  });

  it('re-issues a serving certificate that another CA signed', async () => {
    const a = fresh();
    const b = fresh();
    const pa = await ensureServingCertificates({ dir: a, hosts: [] });
    await ensureServingCertificates({ dir: b, hosts: [] });
    copyFileSync(join(b, SERVER_CERT_FILE), join(a, SERVER_CERT_FILE));
    copyFileSync(join(b, SERVER_KEY_FILE), join(a, SERVER_KEY_FILE));
    const again = await ensureServingCertificates({ dir: a, hosts: [] });
    assert.equal(again.caPem, pa.caPem);
    assert.ok(new X509Certificate(again.certPem).verify(new X509Certificate(pa.caPem).publicKey));
  });

  it('replaces a CA within 30 days of its expiry, and the serving certificate with it', async () => {
    const dir = fresh();
    const now = Date.now();
    const first = await ensureServingCertificates({ dir, hosts: [], clock: clockAt(now) });
    const late = now + 3640 * DAY;
    const next = await ensureServingCertificates({ dir, hosts: [], clock: clockAt(late) });
    assert.notEqual(next.caPem, first.caPem);
    const ca = new X509Certificate(next.caPem);
    assert.ok(new X509Certificate(next.certPem).verify(ca.publicKey));
    assert.equal(modeOf(join(dir, CA_KEY_FILE)), 0o600);
  });

  it('creates a new CA when its key is gone', async () => {
    const dir = fresh();
    const first = await ensureServingCertificates({ dir, hosts: [] });
    unlinkSync(join(dir, CA_KEY_FILE));
    const next = await ensureServingCertificates({ dir, hosts: [] });
    assert.notEqual(next.caPem, first.caPem);
    assert.ok(new X509Certificate(next.certPem).verify(new X509Certificate(next.caPem).publicKey));
  });

  it('refuses a CA key others can read, and a CA key that does not match', async () => {
    const dir = fresh();
    const other = fresh();
    await ensureServingCertificates({ dir, hosts: [] });
    await ensureServingCertificates({ dir: other, hosts: [] });
    chmodSync(join(dir, CA_KEY_FILE), 0o640);
    await assert.rejects(ensureServingCertificates({ dir, hosts: [] }), /chmod 600/);
    copyFileSync(join(other, CA_KEY_FILE), join(dir, CA_KEY_FILE));
    chmodSync(join(dir, CA_KEY_FILE), 0o600);
    await assert.rejects(ensureServingCertificates({ dir, hosts: [] }), /does not belong/);
  });

  it('rejects a host that is neither an IP address nor a DNS name', async () => {
    await assert.rejects(
      ensureServingCertificates({ dir: fresh(), hosts: ['not a host'] }),
      TypeError,
    );
  });

  it('signs with a CA the user supplied (RSA, made by openssl)', async (t) => {
    const dir = fresh();
    await ensureServingCertificates({ dir, hosts: [] }); // creates the dir
    try {
      execFileSync(
        'openssl',
        ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '100', '-subj', '/CN=my-ca']
          .concat(['-keyout', join(dir, CA_KEY_FILE), '-out', join(dir, CA_CERT_FILE)])
          .concat(['-addext', 'basicConstraints=critical,CA:TRUE']),
        { stdio: 'ignore' },
      );
    } catch {
      t.skip('openssl not available');
      return;
    }
    chmodSync(join(dir, CA_KEY_FILE), 0o600);
    const userCaPem = read(dir, CA_CERT_FILE);
    const pems = await ensureServingCertificates({ dir, hosts: [] });
    assert.equal(pems.caPem, userCaPem);
    const ca = new X509Certificate(userCaPem);
    const cert = new X509Certificate(pems.certPem);
    assert.ok(cert.verify(ca.publicKey));
    // The serving certificate never outlives its CA.
    assert.ok(Date.parse(cert.validTo) <= Date.parse(ca.validTo));
  });
});

function assertLifetime(cert: X509Certificate, days: number): void {
  const lifetime = Date.parse(cert.validTo) - Date.parse(cert.validFrom);
  // notBefore is backdated by 5 minutes for clock skew.
  assert.ok(Math.abs(lifetime - days * DAY) <= 10 * 60_000, `lifetime ${lifetime / DAY} days`);
}

function snapshot(dir: string): Record<string, string> {
  const files = [CA_CERT_FILE, CA_KEY_FILE, SERVER_CERT_FILE, SERVER_KEY_FILE];
  return Object.fromEntries(files.map((f) => [f, read(dir, f)]));
}

async function withHttpsServer(
  pems: ServingCertificates,
  body: (port: number) => Promise<void>,
  host = '127.0.0.1',
): Promise<void> {
  const server = createHttpsServer({ cert: pems.certPem, key: pems.keyPem }, (_req, res) => {
    res.end('ok');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  try {
    await body((server.address() as AddressInfo).port);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

function get(options: { host: string; port: number; ca?: string; servername?: string }) {
  return new Promise<string>((resolve, reject) => {
    // agent: false, so no TLS session or socket is shared between the cases.
    const req = request({ ...options, path: '/', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}
