/**
 * The in-cluster connection against a fake ServiceAccount folder: the server URL (IPv4, IPv6,
 * DNS names), what is read from the mounts, and the errors outside a Pod.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  inClusterServer,
  isInCluster,
  loadInClusterConnection,
  NOT_IN_CLUSTER_MESSAGE,
} from './in-cluster-connection.js';

const ENV = { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' };
const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe('inClusterServer', () => {
  const cases: { host: string; port: string; want: string }[] = [
    { host: '10.96.0.1', port: '443', want: 'https://10.96.0.1:443' },
    { host: 'fd00:10:96::1', port: '443', want: 'https://[fd00:10:96::1]:443' },
    { host: '[fd00::1]', port: '6443', want: 'https://[fd00::1]:6443' },
    { host: 'kubernetes.default.svc', port: '443', want: 'https://kubernetes.default.svc:443' },
  ];
  for (const c of cases) {
    it(`${c.host} ${c.port} → ${c.want}`, () => {
      const env = { KUBERNETES_SERVICE_HOST: c.host, KUBERNETES_SERVICE_PORT: c.port };
      assert.equal(inClusterServer(env), c.want);
      // The URL must parse: the client layer builds requests from it.
      assert.doesNotThrow(() => new URL(inClusterServer(env)));
    });
  }

  for (const env of [{}, { KUBERNETES_SERVICE_HOST: 'h' }, { KUBERNETES_SERVICE_PORT: '443' }]) {
    it(`refuses ${JSON.stringify(env)} with client-go's message`, () => {
      assert.equal(isInCluster(env), false);
      assert.throws(() => inClusterServer(env), { message: NOT_IN_CLUSTER_MESSAGE });
    });
  }
});

describe('loadInClusterConnection', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'in-cluster-'));
    await writeFile(join(dir, 'token'), 'eyJ.token.sig\n');
    await writeFile(join(dir, 'ca.crt'), CA);
    await writeFile(join(dir, 'namespace'), 'celld-system');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('reads the token (trimmed), CA and namespace', async () => {
    const conn = await loadInClusterConnection({ env: ENV, dir });
    assert.deepEqual(conn, {
      server: 'https://10.96.0.1:443',
      token: 'eyJ.token.sig',
      ca: CA,
      namespace: 'celld-system',
    });
  });

  it('prefers $POD_NAMESPACE, as clientcmd', async () => {
    const conn = await loadInClusterConnection({ env: { ...ENV, POD_NAMESPACE: 'ops' }, dir });
    assert.equal(conn.namespace, 'ops');
  });

  it('falls back to default without a namespace file', async () => {
    const bare = await mkdtemp(join(tmpdir(), 'in-cluster-'));
    try {
      await writeFile(join(bare, 'token'), 't');
      await writeFile(join(bare, 'ca.crt'), CA);
      assert.equal((await loadInClusterConnection({ env: ENV, dir: bare })).namespace, 'default');
    } finally {
      await rm(bare, { recursive: true, force: true });
    }
  });

  it('names the missing file', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'in-cluster-'));
    try {
      await assert.rejects(loadInClusterConnection({ env: ENV, dir: empty }), (err: Error) => {
        assert.match(err.message, /cannot read the token .*token \(ENOENT\)/);
        return true;
      });
      await writeFile(join(empty, 'token'), 't');
      await assert.rejects(loadInClusterConnection({ env: ENV, dir: empty }), /CA certificate/);
      await writeFile(join(empty, 'token'), '  \n');
      await assert.rejects(loadInClusterConnection({ env: ENV, dir: empty }), /is empty/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('refuses outside a cluster before touching the files', async () => {
    await assert.rejects(loadInClusterConnection({ env: {}, dir: '/nonexistent' }), {
      message: NOT_IN_CLUSTER_MESSAGE,
    });
  });
});
