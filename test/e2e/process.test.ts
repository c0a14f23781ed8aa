/**
 * `fleetyard up` as a process: what a user gets on disk, on the wire, and at shutdown.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Cluster, newDataDir, startCluster } from './testing/cluster.js';

interface Reply {
  status: number;
  text: string;
}

function get(
  c: Cluster,
  path: string,
  token: string | undefined,
  method = 'GET',
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, c.url);
    const headers: Record<string, string> = {};
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const req = request(url, { method, ca: c.ca, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const mode = (p: string): number => statSync(p).mode & 0o777;

describe('fleetyard up (process)', () => {
  let cluster: Cluster;
  const dataDir = newDataDir();
  before(async () => {
    cluster = await startCluster({ dataDir, args: ['--log-level', 'debug'] });
  });
  after(async () => {
    await cluster.stop();
    cluster.cleanup();
  });

  it('prints the URL of an HTTPS server on loopback', () => {
    assert.match(cluster.url, /^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it('keeps secrets private: data dir 0700; token, keys and kubeconfig 0600', () => {
    assert.equal(mode(dataDir), 0o700);
    const files = ['token', 'kubeconfig', 'pki/ca.key', 'pki/server.key', 'pki/sa.key'];
    for (const f of [...files, 'encryption-config.yaml']) {
      assert.equal(mode(join(dataDir, f)), 0o600, f);
    }
  });

  it('serves anonymous requests only what upstream binds to system:unauthenticated', async () => {
    assert.equal((await get(cluster, '/readyz', undefined)).text, 'ok');
    // No credentials: system:anonymous, refused by RBAC (kube-apiserver's --anonymous-auth).
    const denied = await get(cluster, '/api/v1/namespaces', undefined);
    assert.equal(denied.status, 403);
    assert.equal(
      JSON.parse(denied.text).message,
      'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
    );
    // A wrong credential is never anonymous.
    assert.equal((await get(cluster, '/api/v1/namespaces', 'wrong')).status, 401);
    const ok = await get(cluster, '/api/v1/namespaces', cluster.token);
    assert.equal(ok.status, 200);
    const names = (JSON.parse(ok.text).items as Array<{ metadata: { name: string } }>).map(
      (i) => i.metadata.name,
    );
    // celld-system: the operator's namespace, from deploy/operator (its identity inside up).
    assert.deepEqual(names, [
      'celld-system',
      'default',
      'kube-node-lease',
      'kube-public',
      'kube-system',
    ]);
  });

  it('serves Prometheus metrics including commit batches', async () => {
    // The root CA publisher creates kube-root-ca.crt in each namespace at about the same time
    // (ConfigMap creates too): count this test's create as a difference, not an absolute.
    const creates = (text: string): number =>
      Number(
        /apiserver_request_total\{verb="create",resource="configmaps",code="201"\} (\d+)/.exec(
          text,
        )?.[1] ?? 0,
      );
    const before = creates((await get(cluster, '/metrics', cluster.token)).text);
    await get(
      cluster,
      '/api/v1/namespaces/default/configmaps',
      cluster.token,
      'POST',
      JSON.stringify({ metadata: { name: 'm' } }),
    );
    const m = await get(cluster, '/metrics', cluster.token);
    assert.equal(m.status, 200);
    assert.ok(creates(m.text) >= before + 1, `creates counted: ${before} then ${creates(m.text)}`);
    assert.match(m.text, /apiserver_request_duration_seconds_bucket/);
    assert.match(m.text, /fleetyard_storage_commit_batch_size_count [1-9]/);
    assert.match(m.text, /apiserver_registered_watchers/);
  });

  it('never writes the token to its logs', () => {
    assert.ok(cluster.stderr().length > 0, 'debug logs were written');
    assert.ok(!cluster.stderr().includes(cluster.token));
  });
});

describe('fleetyard up (restart and shutdown)', () => {
  it('exits 0 on SIGTERM and keeps objects and the revision counter across restarts', async () => {
    const dataDir = newDataDir();
    const first = await startCluster({ dataDir });
    const created = await get(
      first,
      '/api/v1/namespaces/default/configmaps',
      first.token,
      'POST',
      JSON.stringify({ metadata: { name: 'kept' }, data: { a: '1' } }),
    );
    assert.equal(created.status, 201);
    const rv = Number(JSON.parse(created.text).metadata.resourceVersion);
    assert.equal(await first.stop(), 0);
    const second = await startCluster({ dataDir });
    try {
      const got = await get(second, '/api/v1/namespaces/default/configmaps/kept', second.token);
      assert.equal(got.status, 200);
      assert.equal(JSON.parse(got.text).metadata.resourceVersion, String(rv));
      const next = await get(
        second,
        '/api/v1/namespaces/default/configmaps',
        second.token,
        'POST',
        JSON.stringify({ metadata: { name: 'after' } }),
      );
      assert.ok(Number(JSON.parse(next.text).metadata.resourceVersion) > rv);
    } finally {
      assert.equal(await second.stop(), 0);
      second.cleanup();
    }
  });

  it('refuses a bad flag with a usage error', async () => {
    await assert.rejects(
      startCluster({ ephemeral: true, args: ['--port', 'seventy'] }),
      /exited with 2/,
    );
  });
});
