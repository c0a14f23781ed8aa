import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kubeconfigFor, kubeconfigYaml } from '../security/kubeconfig.js';
import { connectionFromKubeconfig, loadKubeconfigConnection } from './kubeconfig-connection.js';

const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe('kubeconfig connection', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kc-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads back what fleetyard writes', async () => {
    const path = join(dir, 'config');
    const config = kubeconfigFor({ server: 'https://127.0.0.1:6443', caPem: CA, token: 'tok-1' });
    await writeFile(path, kubeconfigYaml(config));
    assert.deepEqual(await loadKubeconfigConnection(path), {
      server: 'https://127.0.0.1:6443',
      namespace: 'default',
      ca: CA,
      token: 'tok-1',
    });
  });

  it('resolves file references against the kubeconfig folder and picks the named context', async () => {
    await writeFile(join(dir, 'ca.pem'), CA);
    await writeFile(join(dir, 'token'), 'tok-2\n');
    const config = {
      'current-context': 'one',
      clusters: [
        { name: 'c', cluster: { server: 'https://h:1', 'certificate-authority': 'ca.pem' } },
      ],
      users: [{ name: 'u', user: { tokenFile: 'token' } }],
      contexts: [
        { name: 'one', context: { cluster: 'missing', user: 'u' } },
        { name: 'two', context: { cluster: 'c', user: 'u', namespace: 'ns' } },
      ],
    };
    const conn = await connectionFromKubeconfig(config, { context: 'two', baseDir: dir });
    assert.deepEqual(conn, { server: 'https://h:1', namespace: 'ns', ca: CA, token: 'tok-2' });
    await assert.rejects(connectionFromKubeconfig(config), /no cluster named "missing"/);
  });

  it('refuses authentication it cannot perform', async () => {
    const config = {
      'current-context': 'x',
      clusters: [{ name: 'c', cluster: { server: 'https://h:1' } }],
      users: [{ name: 'u', user: { exec: { command: 'aws' } } }],
      contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    };
    await assert.rejects(connectionFromKubeconfig(config), /only token authentication/);
  });
});
