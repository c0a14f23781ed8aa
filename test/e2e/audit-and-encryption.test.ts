/**
 * The audit log and Secrets at rest on the real `fleetyard up` (SQLite, not ephemeral), driven
 * by kubectl 1.33: with `--audit-log-path` every request after authentication has its events
 * (a ServiceAccount create at `Request` level with its body, a Secret read at `Metadata` without one, an
 * impersonated 403 with the decision and reason, a refused token), the file is 0600 and its
 * directory 0700; and a Secret's value appears nowhere in the data directory's files, while a
 * ConfigMap's does (the control), and reads back after a restart.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Cluster, newDataDir, startCluster } from './testing/cluster.js';
import { kubectl } from './testing/kubectl.js';

const SECRET_VALUE = 'correct-horse-battery-staple-4127';
const CONFIG_VALUE = 'plain-config-value-9182';

interface AuditEvent {
  readonly stage: string;
  readonly level: string;
  readonly verb: string;
  readonly requestURI: string;
  readonly user: { readonly username: string };
  readonly impersonatedUser?: { readonly username: string };
  readonly objectRef?: { readonly resource?: string; readonly name?: string };
  readonly responseStatus?: { readonly code?: number; readonly message?: string };
  readonly requestObject?: { readonly data?: Record<string, string> };
  readonly responseObject?: unknown;
  readonly annotations?: Record<string, string>;
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

function getWithToken(c: Cluster, path: string, token: string): Promise<number> {
  const url = new URL(c.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        ca: c.ca,
        headers: { authorization: `Bearer ${token}` },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('audit log and Secrets at rest (fleetyard up, SQLite)', () => {
  const dataDir = newDataDir();
  const auditPath = join(dataDir, 'audit', 'audit.log');
  let cluster: Cluster;
  const k = () => {
    const bin = kubectl('1.33', cluster.kubeconfig);
    assert.ok(bin, 'kubectl.1.33 is not installed beside the kubectl on the PATH');
    return bin;
  };
  const start = async () => {
    cluster = await startCluster({ dataDir, args: ['--nodes=1', '--audit-log-path', auditPath] });
  };

  before(start);
  after(async () => {
    await cluster.stop();
    cluster.cleanup();
  });

  it('writes Secrets encrypted: the value is in no file of the data directory', async () => {
    await k().ok(['create', 'secret', 'generic', 'db', `--from-literal=password=${SECRET_VALUE}`]);
    await k().ok(['create', 'configmap', 'plain', `--from-literal=value=${CONFIG_VALUE}`]);
    // A clean stop checkpoints the WAL: every byte is in the files searched.
    assert.equal(await cluster.stop(), 0);
    const b64 = Buffer.from(SECRET_VALUE).toString('base64');
    const found = { secret: [] as string[], config: [] as string[] };
    for (const f of filesUnder(dataDir)) {
      if (f.startsWith(join(dataDir, 'audit'))) continue;
      const bytes = readFileSync(f);
      if (bytes.includes(SECRET_VALUE) || bytes.includes(b64)) found.secret.push(f);
      if (bytes.includes(CONFIG_VALUE)) found.config.push(f);
    }
    assert.deepEqual(found.secret, [], 'the Secret is readable from these files');
    assert.ok(found.config.length > 0, 'control: a ConfigMap value is stored in plain text');
    await start();
    const data = await k().ok(['get', 'secret', 'db', '-o', 'jsonpath={.data.password}']);
    assert.equal(Buffer.from(data, 'base64').toString(), SECRET_VALUE, 'decrypted after restart');
  });

  it('audits requests in upstream format, 0600 in a 0700 directory', async () => {
    await k().ok(['create', 'serviceaccount', 'audited']);
    await k().ok(['get', 'secret', 'db']);
    const forbidden = await k().run(['get', 'pods', '--as=jane']);
    assert.equal(forbidden.code, 1);
    assert.equal(await getWithToken(cluster, '/api/v1/namespaces', 'not-a-token'), 401);
    // The backend writes asynchronously; a stop flushes it.
    assert.equal(await cluster.stop(), 0);
    assert.equal(statSync(auditPath).mode & 0o777, 0o600);
    assert.equal(statSync(join(dataDir, 'audit')).mode & 0o777, 0o700);
    const events: AuditEvent[] = readFileSync(auditPath, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as AuditEvent);
    const complete = events.filter((e) => e.stage === 'ResponseComplete');

    // ServiceAccounts are written at Request level by the default policy (ConfigMaps and
    // Secrets only at Metadata).
    const created = complete.find(
      (e) =>
        e.verb === 'create' &&
        e.objectRef?.resource === 'serviceaccounts' &&
        JSON.stringify(e.requestObject ?? {}).includes('audited'),
    );
    assert.ok(created, 'the ServiceAccount create');
    assert.equal(created.level, 'Request');
    assert.equal(created.user.username, 'kubernetes-admin');
    assert.equal(created.responseStatus?.code, 201);

    const secretRead = complete.find(
      (e) => e.verb === 'get' && e.objectRef?.resource === 'secrets',
    );
    assert.ok(secretRead, 'the Secret read');
    assert.equal(secretRead.level, 'Metadata');
    assert.equal(secretRead.responseObject, undefined);

    const denied = complete.find(
      (e) => e.impersonatedUser?.username === 'jane' && e.responseStatus?.code === 403,
    );
    assert.ok(denied, 'the impersonated 403');
    assert.equal(denied.annotations?.['authorization.k8s.io/decision'], 'forbid');
    assert.equal(denied.user.username, 'kubernetes-admin');

    assert.ok(
      events.some((e) => e.responseStatus?.code === 401),
      'the refused token is audited',
    );
    const log = readFileSync(auditPath, 'utf8');
    assert.ok(!log.includes(SECRET_VALUE), 'no Secret value in the audit log');
    assert.ok(!log.includes(cluster.token), 'no admin token in the audit log');
    await start();
  });
});
