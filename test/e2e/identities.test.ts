/**
 * Identities on `fleetyard up` with kubectl 1.33 (issue 18): `kubectl auth whoami` for the
 * admin, an impersonated user and a ServiceAccount token (its UID and the
 * `authentication.kubernetes.io/credential-id` extra, `JTI=<the token's jti>`);
 * `kubectl create token` tokens that are refused RBAC until a RoleBinding grants `view`, and
 * refused authentication (401) once their ServiceAccount or bound Pod is gone; the 10-minute
 * minimum duration; a user made through a CertificateSigningRequest (openssl key and CSR,
 * `kubectl certificate approve`, the signed certificate in a kubeconfig) who logs in as
 * `alice` in `devs`; and anonymous requests: `/version` and `/healthz` served, a list
 * forbidden to `system:anonymous`, a wrong token 401, each body byte for byte.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import {
  adminRequest,
  forbiddenLine,
  isUnauthorizedExit,
  kubectl133,
  rawRequest,
  statusBody,
  waitForAccess,
  workDir,
  writeKubeconfig,
} from './testing/auth-fixtures.js';
import { FLEETYARD_BIN } from './testing/cluster.js';
import { kubectl } from './testing/kubectl.js';
import { clusterForFile, lines, pollUntil } from './testing/kubectl-fixtures.js';

// A virtual clock running at wall speed, so that the last test can move it past a token's expiry.
const cluster = clusterForFile({ args: ['--clock=virtual'] });
const run = promisify(execFile);
const k = () => kubectl133(cluster());
/** kubectl with the admin kubeconfig's server and CA but `token` as the credential. */
const withToken = (token: string, ...args: string[]) => k().run(['--token', token, ...args]);

const CREDENTIAL_ID = 'authentication.kubernetes.io/credential-id';

/** The claims of a JWT (its middle part). */
function jwtClaims(token: string): Record<string, unknown> {
  const part = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** `kubectl auth whoami`'s table: tabwriter columns padded to the widest cell plus 3. */
function whoamiTable(rows: readonly (readonly [string, string])[]): string {
  const all: (readonly [string, string])[] = [['ATTRIBUTE', 'VALUE'], ...rows];
  const width = Math.max(...all.map(([a]) => a.length)) + 3;
  return all.map(([a, v]) => `${a.padEnd(width)}${v}\n`).join('');
}

async function newServiceAccount(ns: string, sa: string): Promise<string> {
  await k().ok(['create', 'namespace', ns]);
  await k().ok(['-n', ns, 'create', 'serviceaccount', sa]);
  return (await k().ok(['-n', ns, 'get', 'sa', sa, '-o', 'jsonpath={.metadata.uid}'])).trim();
}

describe('kubectl auth whoami', () => {
  it('shows the admin, an impersonated user, and a ServiceAccount token with its extra', async () => {
    const [admin, jane] = await Promise.all([
      k().ok(['auth', 'whoami']),
      k().ok(['auth', 'whoami', '--as=jane', '--as-group=devs']),
    ]);
    assert.equal(
      admin,
      whoamiTable([
        ['Username', 'kubernetes-admin'],
        ['Groups', '[system:masters system:authenticated]'],
      ]),
    );
    assert.equal(
      jane,
      whoamiTable([
        ['Username', 'jane'],
        ['Groups', '[devs system:authenticated]'],
      ]),
    );

    const uid = await newServiceAccount('whoami', 'robot');
    const token = (await k().ok(['-n', 'whoami', 'create', 'token', 'robot'])).trim();
    const jti = jwtClaims(token).jti;
    assert.equal(typeof jti, 'string');
    const r = await withToken(token, 'auth', 'whoami');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      whoamiTable([
        ['Username', 'system:serviceaccount:whoami:robot'],
        ['UID', uid],
        ['Groups', '[system:serviceaccounts system:serviceaccounts:whoami system:authenticated]'],
        [`Extra: ${CREDENTIAL_ID}`, `[JTI=${String(jti)}]`],
      ]),
    );
  });
});

describe('ServiceAccount tokens from kubectl create token', () => {
  it('are forbidden until a RoleBinding grants view, and refused once the ServiceAccount is gone', async () => {
    await newServiceAccount('tokens', 'sa');
    const token = (
      await k().ok(['-n', 'tokens', 'create', 'token', 'sa', '--duration=10m'])
    ).trim();
    const claims = jwtClaims(token);
    assert.equal(Number(claims.exp) - Number(claims.iat), 600);

    const denied = await withToken(token, '-n', 'tokens', 'get', 'pods');
    assert.equal(denied.code, 1);
    assert.equal(
      denied.stderr,
      `${forbiddenLine('pods is forbidden: User "system:serviceaccount:tokens:sa" cannot list resource "pods" in API group "" in the namespace "tokens"')}\n`,
    );

    await k().ok([
      '-n',
      'tokens',
      'create',
      'rolebinding',
      'sa-view',
      '--clusterrole=view',
      '--serviceaccount=tokens:sa',
    ]);
    const sa = { user: 'system:serviceaccount:tokens:sa', groups: ['system:serviceaccounts'] };
    await waitForAccess(cluster(), sa, { verb: 'list', resource: 'pods', namespace: 'tokens' });
    const allowed = await withToken(token, '-n', 'tokens', 'get', 'pods');
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(allowed.stderr, 'No resources found in tokens namespace.\n');

    await k().ok(['-n', 'tokens', 'delete', 'serviceaccount', 'sa']);
    const refused = await pollUntil('the token to be refused', async () => {
      const r = await withToken(token, '-n', 'tokens', 'get', 'pods');
      return r.code === 0 ? undefined : r;
    });
    assert.ok(isUnauthorizedExit(refused.stderr), refused.stderr);
    const raw = await rawRequest(cluster(), { path: '/api/v1/namespaces/tokens/pods', token });
    assert.equal(raw.status, 401);
    assert.equal(raw.body, statusBody(401, 'Unauthorized', 'Unauthorized'));
  });

  it('refuses a duration below ten minutes as upstream does (422)', async () => {
    await newServiceAccount('short', 'sa');
    const r = await k().run(['-n', 'short', 'create', 'token', 'sa', '--duration=5m']);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'error: failed to create token: TokenRequest.authentication.k8s.io "" is invalid: ' +
        'spec.expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes\n',
    );
  });

  it('bound to a Pod, work while the Pod exists and are refused once it is deleted', async () => {
    await newServiceAccount('bound', 'sa');
    const overrides = JSON.stringify({ spec: { serviceAccountName: 'sa' } });
    await Promise.all([
      k().ok(['-n', 'bound', 'run', 'p', '--image=nginx', `--overrides=${overrides}`]),
      k().ok(['-n', 'bound', 'run', 'other', '--image=nginx']),
    ]);
    const uidOf = async (name: string) =>
      (await k().ok(['-n', 'bound', 'get', 'pod', name, '-o', 'jsonpath={.metadata.uid}'])).trim();
    const [uid, otherUid] = await Promise.all([uidOf('p'), uidOf('other')]);
    const bind = (name: string, podUid: string) => [
      '-n',
      'bound',
      'create',
      'token',
      'sa',
      '--bound-object-kind=Pod',
      `--bound-object-name=${name}`,
      `--bound-object-uid=${podUid}`,
    ];
    // A pod that runs under another ServiceAccount cannot hold this one's token (upstream text).
    const wrong = await k().run(bind('other', otherUid));
    assert.equal(
      wrong.stderr,
      'error: failed to create token: cannot bind token for serviceaccount "sa" to pod running with different serviceaccount name.\n',
    );

    const token = (await k().ok(bind('p', uid))).trim();
    const claims = jwtClaims(token);
    const bound = claims['kubernetes.io'] as { pod?: { name?: string; uid?: string } };
    assert.deepEqual(bound.pod, { name: 'p', uid });
    const who = await withToken(token, 'auth', 'whoami', '-o', 'json');
    assert.equal(who.code, 0, who.stderr);
    const extra = (
      JSON.parse(who.stdout) as { status: { userInfo: { extra?: Record<string, string[]> } } }
    ).status.userInfo.extra;
    assert.deepEqual(extra?.['authentication.kubernetes.io/pod-name'], ['p']);
    assert.deepEqual(extra?.['authentication.kubernetes.io/pod-uid'], [uid]);

    await k().ok(['-n', 'bound', 'delete', 'pod', 'p', '--grace-period=0', '--force']);
    const refused = await pollUntil('the bound token to be refused', async () => {
      const r = await withToken(token, 'auth', 'whoami');
      return r.code === 0 ? undefined : r;
    });
    assert.ok(isUnauthorizedExit(refused.stderr), refused.stderr);
  });
});

describe('a user made through a CertificateSigningRequest', () => {
  it('logs in with the signed certificate as alice in devs, forbidden until devs may view', async () => {
    const dir = workDir();
    const keyPath = join(dir, 'alice.key');
    const csrPath = join(dir, 'alice.csr');
    await run('openssl', [
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyPath,
      '-subj',
      '/CN=alice/O=devs',
      '-out',
      csrPath,
    ]);
    const csr = {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name: 'alice' },
      spec: {
        request: readFileSync(csrPath).toString('base64'),
        signerName: 'kubernetes.io/kube-apiserver-client',
        usages: ['client auth'],
      },
    };
    await k().ok(['create', '-f', '-'], { input: JSON.stringify(csr) });
    await k().ok(['certificate', 'approve', 'alice']);
    const certPem = await pollUntil('the signed certificate', async () => {
      const b64 = await k().ok(['get', 'csr', 'alice', '-o', 'jsonpath={.status.certificate}']);
      return b64 === '' ? undefined : Buffer.from(b64, 'base64').toString('utf8');
    });
    const cert = new X509Certificate(certPem);
    assert.ok(cert.verify(new X509Certificate(cluster().ca).publicKey), 'signed by the cluster CA');

    const config = writeKubeconfig(cluster(), dir, {
      certPem,
      keyPem: readFileSync(keyPath, 'utf8'),
    });
    const alice = kubectl('1.33', config);
    assert.ok(alice);
    // Upstream's credential id of a certificate: the SHA-256 of its DER, in lower-case hex.
    const sha = cert.fingerprint256.replaceAll(':', '').toLowerCase();
    assert.equal(
      await alice.ok(['auth', 'whoami']),
      whoamiTable([
        ['Username', 'alice'],
        ['Groups', '[devs system:authenticated]'],
        [`Extra: ${CREDENTIAL_ID}`, `[X509SHA256=${sha}]`],
      ]),
    );

    const denied = await alice.run(['get', 'pods']);
    assert.equal(denied.code, 1);
    assert.equal(
      denied.stderr,
      `${forbiddenLine('pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "default"')}\n`,
    );
    await k().ok(['create', 'rolebinding', 'devs-view', '--clusterrole=view', '--group=devs']);
    await waitForAccess(
      cluster(),
      { user: 'alice', groups: ['devs'] },
      { verb: 'list', resource: 'pods', namespace: 'default' },
    );
    const allowed = await alice.run(['get', 'pods']);
    assert.equal(allowed.code, 0, allowed.stderr);
  });
});

describe('anonymous and unknown credentials', () => {
  it('serve /version and /healthz, forbid the namespace list, refuse a wrong token', async () => {
    const [version, healthz, namespaces, wrong, wrongHealth] = await Promise.all([
      rawRequest(cluster(), { path: '/version' }),
      rawRequest(cluster(), { path: '/healthz' }),
      rawRequest(cluster(), { path: '/api/v1/namespaces' }),
      rawRequest(cluster(), { path: '/api/v1/namespaces', token: 'not-a-token' }),
      rawRequest(cluster(), { path: '/healthz', token: 'not-a-token' }),
    ]);
    assert.equal(version.status, 200);
    const adminVersion = await adminRequest(cluster(), { path: '/version' });
    assert.deepEqual(JSON.parse(version.body), JSON.parse(adminVersion.body));
    assert.equal(healthz.status, 200);
    assert.equal(healthz.body, 'ok');
    assert.equal(namespaces.status, 403);
    assert.equal(
      namespaces.body,
      statusBody(
        403,
        'Forbidden',
        'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
        { kind: 'namespaces' },
      ),
    );
    // A credential that does not authenticate is a 401, even where anonymous would pass.
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body, statusBody(401, 'Unauthorized', 'Unauthorized'));
    assert.equal(wrongHealth.status, 401);
    assert.deepEqual(
      lines(wrongHealth.body),
      lines(statusBody(401, 'Unauthorized', 'Unauthorized')),
    );
  });
});

describe('token lifetimes on the cluster clock', () => {
  it('keeps a 10-minute token valid through upstream 60 s leeway, then refuses it', async () => {
    await newServiceAccount('expiry', 'sa');
    const token = (
      await k().ok(['-n', 'expiry', 'create', 'token', 'sa', '--duration=10m'])
    ).trim();
    const advance = async (duration: string) => {
      const args = [FLEETYARD_BIN, 'clock', 'advance', duration, '--timeout', '20s'];
      await run(process.execPath, [...args, '--kubeconfig', cluster().kubeconfig], {
        timeout: 60_000,
      });
    };
    const whoami = () =>
      withToken(token, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}');
    // exp is 600 s after issue; go-jose accepts 60 s past it.
    await advance('10m30s');
    const within = await whoami();
    assert.equal(within.code, 0, within.stderr);
    assert.equal(within.stdout, 'system:serviceaccount:expiry:sa');
    await advance('1m');
    const expired = await whoami();
    assert.equal(expired.code, 1);
    assert.ok(isUnauthorizedExit(expired.stderr), expired.stderr);
  });
});
