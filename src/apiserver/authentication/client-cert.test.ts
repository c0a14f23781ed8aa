import assert from 'node:assert/strict';
import { createHash, webcrypto, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { csrIssuer } from '../../security/csr-issuer.js';
import { ensureServingCertificates, type ServingCertificates } from '../../security/pki.js';
import { loadX509 } from '../../security/x509-tools.js';
import { staticTokenAuthenticator } from './bearer-tokens.js';
import {
  CREDENTIAL_ID_KEY,
  clientCertificateAuthenticator,
  clientCertificateServerOptions,
} from './client-cert.js';
import { authenticateRequest } from './request-authenticator.js';
import { ADMIN } from './user.js';

const root = mkdtempSync(join(tmpdir(), 'fleetyard-client-cert-'));
const HOUR = 3_600_000;
const ADMIN_TOKEN = 'a'.repeat(43);

/** A key and certificate for `subject`, issued by the CA in `dir` through the CSR issuer. */
interface ClientCredential {
  certPem: string;
  keyPem: string;
}

async function issue(
  dir: string,
  subject: string,
  usages: readonly string[],
  notBefore: number,
  notAfter: number,
): Promise<ClientCredential> {
  const x509 = await loadX509();
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const csr = await x509.Pkcs10CertificateRequestGenerator.create(
    { name: subject, keys, signingAlgorithm: alg },
    webcrypto,
  );
  const certPem = await csrIssuer(dir).issue(csr.toString('pem'), {
    usages,
    notBefore: new Date(notBefore),
    notAfter: new Date(notAfter),
  });
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const keyPem = `-----BEGIN PRIVATE KEY-----\n${der.toString('base64')}\n-----END PRIVATE KEY-----\n`;
  return { certPem, keyPem };
}

describe('X.509 client certificates over real TLS', () => {
  let serving: ServingCertificates;
  let server: Server;
  let port = 0;
  let now = 0;
  const start = Date.now();
  const creds: Record<string, ClientCredential> = {};

  before(async () => {
    serving = await ensureServingCertificates({ dir: join(root, 'cluster'), hosts: [] });
    await ensureServingCertificates({ dir: join(root, 'other'), hosts: [] });
    const cluster = join(root, 'cluster');
    const client = ['digital signature', 'client auth'];
    creds.jane = await issue(cluster, 'CN=jane, O=dev, O=ops', client, start, start + HOUR);
    creds.serverOnly = await issue(
      cluster,
      'CN=web',
      ['digital signature', 'server auth'],
      start,
      start + HOUR,
    );
    creds.noEku = await issue(cluster, 'CN=plain', ['digital signature'], start, start + HOUR);
    creds.noCn = await issue(cluster, 'O=dev', client, start, start + HOUR);
    creds.untrusted = await issue(
      join(root, 'other'),
      'CN=mallory, O=system:masters',
      client,
      start,
      start + HOUR,
    );
    const authenticators = {
      clientCertificate: await clientCertificateAuthenticator([serving.caPem], { now: () => now }),
      tokens: [staticTokenAuthenticator([{ token: ADMIN_TOKEN, user: ADMIN }])],
    };
    server = createServer(
      {
        cert: serving.certPem,
        key: serving.keyPem,
        ...clientCertificateServerOptions([serving.caPem]),
      },
      (req, res) => {
        void authenticateRequest(req, authenticators).then((r) => {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify(r));
        });
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  function call(cred: ClientCredential | undefined, token?: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/api',
          ca: serving.caPem,
          agent: false,
          ...(cred === undefined ? {} : { cert: cred.certPem, key: cred.keyPem }),
          headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => {
            body += c.toString('utf8');
          });
          res.on('end', () => resolve(JSON.parse(body)));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  const within = () => start + HOUR / 2;
  const cases: {
    name: string;
    cred: () => ClientCredential | undefined;
    token?: string;
    at: () => number;
    want: (r: Record<string, unknown>) => void;
  }[] = [
    {
      name: 'a CSR-made user: CN is the user, each O a group, system:authenticated added',
      cred: () => creds.jane,
      at: within,
      want: (r) => {
        const fingerprint = createHash('sha256')
          .update(new X509Certificate(creds.jane?.certPem ?? '').raw)
          .digest('hex');
        assert.deepEqual(r, {
          via: 'x509',
          user: {
            username: 'jane',
            groups: ['dev', 'ops', 'system:authenticated'],
            extra: { [CREDENTIAL_ID_KEY]: [`X509SHA256=${fingerprint}`] },
          },
        });
      },
    },
    {
      name: 'expired on the injected clock: 401',
      cred: () => creds.jane,
      at: () => start + 2 * HOUR,
      want: (r) => assert.equal(r.error, 'unauthorized'),
    },
    {
      name: 'not yet valid on the injected clock: 401',
      cred: () => creds.jane,
      at: () => start - 10 * HOUR,
      want: (r) => assert.equal(r.error, 'unauthorized'),
    },
    {
      name: 'an expired certificate does not hide a valid token (union)',
      cred: () => creds.jane,
      token: ADMIN_TOKEN,
      at: () => start + 2 * HOUR,
      want: (r) => assert.equal((r.user as { username: string }).username, 'kubernetes-admin'),
    },
    {
      name: 'signed by another CA: 401, whatever its O says',
      cred: () => creds.untrusted,
      at: within,
      want: (r) => {
        assert.equal(r.error, 'unauthorized');
        assert.match(String(r.reasons), /unknown authority/);
      },
    },
    {
      name: 'an untrusted certificate with a valid token: the token user',
      cred: () => creds.untrusted,
      token: ADMIN_TOKEN,
      at: within,
      want: (r) => assert.equal(r.via, 'token'),
    },
    {
      name: 'server auth only: incompatible key usage, 401',
      cred: () => creds.serverOnly,
      at: within,
      want: (r) => assert.match(String(r.reasons), /incompatible key usage/),
    },
    {
      name: 'no extended key usage at all: any usage, accepted',
      cred: () => creds.noEku,
      at: within,
      want: (r) => assert.equal((r.user as { username: string }).username, 'plain'),
    },
    {
      name: 'no CN: names no one, anonymous',
      cred: () => creds.noCn,
      at: within,
      want: (r) => assert.equal(r.anonymous, true),
    },
    {
      name: 'no certificate and no token: anonymous',
      cred: () => undefined,
      at: within,
      want: (r) => assert.equal(r.anonymous, true),
    },
    {
      name: 'no certificate and a wrong token: 401',
      cred: () => undefined,
      token: 'b'.repeat(43),
      at: within,
      want: (r) =>
        assert.deepEqual(r, { error: 'unauthorized', reasons: ['invalid bearer token'] }),
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      now = c.at();
      c.want((await call(c.cred(), c.token)) as Record<string, unknown>);
    });
  }

  it('asks for but does not require a certificate in the handshake', () => {
    assert.deepEqual(clientCertificateServerOptions(['pem']), {
      requestCert: true,
      rejectUnauthorized: false,
      ca: ['pem'],
    });
  });
});
