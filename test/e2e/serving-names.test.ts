/**
 * `fleetyard up --host 0.0.0.0 --tls-san …`: a client that trusts only the CA can verify
 * the server by every name it is reachable at (a --tls-san name, the machine's non-loopback
 * address), the kubeconfig names an address that works from this machine, and a restart
 * that asks for more names gets a certificate reissued for them (same CA).
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { type Cluster, newDataDir, startCluster } from './testing/cluster.js';

/** GET /readyz at `host:port`, verifying the certificate for `servername` against `ca`. */
function readyz(host: string, port: number, ca: string, servername?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host, port, path: '/readyz', ca, ...(servername ? { servername } : {}) },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
        });
        res.on('end', () => resolve(text));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The machine's first non-loopback IPv4 address, if it has one. */
function externalIPv4(): string | undefined {
  return Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .find((i) => i.family === 'IPv4' && !i.internal)?.address;
}

const kubeconfigServer = (c: Cluster): string =>
  /server: "([^"]+)"/.exec(readFileSync(c.kubeconfig, 'utf8'))?.[1] ?? '';
const portOf = (c: Cluster): number => Number(new URL(c.url).port);

describe('fleetyard up --host 0.0.0.0: a certificate for every name it is reachable at', () => {
  const dataDir = newDataDir();
  const clusters: Cluster[] = [];
  after(async () => {
    for (const c of clusters) await c.stop();
    clusters[0]?.cleanup();
  });

  it('is verified by a --tls-san name, and a name not asked for is refused', async () => {
    const c = await startCluster({
      dataDir,
      args: ['--host', '0.0.0.0', '--tls-san', 'my.example.test', '--controllers='],
    });
    clusters.push(c);
    assert.equal(await readyz('127.0.0.1', portOf(c), c.ca, 'my.example.test'), 'ok');
    await assert.rejects(readyz('127.0.0.1', portOf(c), c.ca, 'other.example.test'), {
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
  });

  it("is verified at the machine's non-loopback address", async (t) => {
    const ip = externalIPv4();
    if (ip === undefined) {
      t.skip('this machine has no non-loopback IPv4 address');
      return;
    }
    const c = clusters[0]!;
    assert.equal(await readyz(ip, portOf(c), c.ca), 'ok');
  });

  it('writes a kubeconfig naming 127.0.0.1 (reachable here, in the certificate)', () => {
    const c = clusters[0]!;
    assert.equal(c.url, `https://127.0.0.1:${portOf(c)}`);
    assert.equal(kubeconfigServer(c), c.url);
  });

  it('reissues the certificate (same CA) when a restart asks for a new name', async () => {
    const first = clusters[0]!;
    assert.equal(await first.stop(), 0);
    const c = await startCluster({
      dataDir,
      args: [
        '--host',
        '0.0.0.0',
        '--tls-san',
        'my.example.test,second.example.test',
        '--advertise-address',
        '198.51.100.7',
        '--controllers=',
      ],
    });
    clusters.push(c);
    assert.equal(c.ca, first.ca);
    assert.equal(await readyz('127.0.0.1', portOf(c), c.ca, 'second.example.test'), 'ok');
    assert.equal(await readyz('127.0.0.1', portOf(c), c.ca, 'my.example.test'), 'ok');
    const cert = new X509Certificate(readFileSync(join(dataDir, 'pki', 'server.crt')));
    assert.equal(cert.checkIP('198.51.100.7'), '198.51.100.7');
    // --advertise-address is what the kubeconfig (and the ready line) names.
    assert.equal(c.url, `https://198.51.100.7:${portOf(c)}`);
    assert.equal(kubeconfigServer(c), c.url);
  });

  it('refuses a --tls-san that is not a name or an address, as a usage error', async () => {
    await assert.rejects(
      startCluster({ ephemeral: true, args: ['--tls-san', 'not a name'] }),
      /exited with 2.*invalid --tls-san "not a name"/s,
    );
  });
});
