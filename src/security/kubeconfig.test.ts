import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  accessSync,
  constants,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { KubeConfig, VersionApi } from '@kubernetes/client-node';
import fc from 'fast-check';
import { parse } from 'yaml';
import { kubeconfigFor, kubeconfigYaml, serverUrl, writeKubeconfig } from './kubeconfig.js';
import { ensureServingCertificates, type ServingCertificates } from './pki.js';
import { bearerTokenFrom, ensureToken, tokensEqual } from './token.js';

const root = mkdtempSync(join(tmpdir(), 'fleetyard-kubeconfig-'));
after(() => rmSync(root, { recursive: true, force: true }));

const modeOf = (p: string) => statSync(p).mode & 0o777;
const CA_PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const TOKEN = 'x'.repeat(43);

describe('serverUrl', () => {
  it('brackets IPv6 literals', () => {
    assert.equal(serverUrl('::1', 6443), 'https://[::1]:6443');
    assert.equal(serverUrl('[fd00::5]', 6443), 'https://[fd00::5]:6443');
    assert.equal(serverUrl('fe80::1%eth0', 6443), 'https://[fe80::1%25eth0]:6443');
  });
  it('keeps IPv4 and DNS hosts as they are', () => {
    assert.equal(serverUrl('127.0.0.1', 1), 'https://127.0.0.1:1');
    assert.equal(serverUrl('fleet.example.test', 65535), 'https://fleet.example.test:65535');
  });
  it('turns a wildcard bind address into loopback', () => {
    assert.equal(serverUrl('0.0.0.0', 6443), 'https://127.0.0.1:6443');
    assert.equal(serverUrl('::', 6443), 'https://[::1]:6443');
  });
  it('rejects a bad port', () => {
    assert.throws(() => serverUrl('localhost', 0), RangeError);
    assert.throws(() => serverUrl('localhost', 70000), RangeError);
  });
});

describe('kubeconfigFor', () => {
  it('builds cluster, user and context entries named fleetyard', () => {
    const cfg = kubeconfigFor({ server: { host: '::1', port: 6443 }, caPem: CA_PEM, token: TOKEN });
    assert.deepEqual(cfg, {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'fleetyard',
          cluster: {
            server: 'https://[::1]:6443',
            'certificate-authority-data': Buffer.from(CA_PEM).toString('base64'),
          },
        },
      ],
      users: [{ name: 'fleetyard', user: { token: TOKEN } }],
      contexts: [
        {
          name: 'fleetyard',
          context: { cluster: 'fleetyard', user: 'fleetyard', namespace: 'default' },
        },
      ],
      'current-context': 'fleetyard',
      preferences: {},
    });
  });

  it('takes another context name and a ready-made https URL', () => {
    const cfg = kubeconfigFor({
      server: 'https://[::1]:7443',
      caPem: CA_PEM,
      token: TOKEN,
      contextName: 'dev',
    });
    assert.equal(cfg['current-context'], 'dev');
    assert.equal(cfg.clusters[0]?.name, 'dev');
    assert.equal(cfg.contexts[0]?.context.user, 'dev');
    assert.equal(cfg.clusters[0]?.cluster.server, 'https://[::1]:7443');
  });

  it('refuses http (kubectl would not send the token), unbracketed IPv6 and bad input', () => {
    const base = { caPem: CA_PEM, token: TOKEN };
    assert.throws(() => kubeconfigFor({ ...base, server: 'http://127.0.0.1:6443' }), /https/);
    assert.throws(() => kubeconfigFor({ ...base, server: 'https://::1:6443' }), /brackets/);
    assert.throws(() => kubeconfigFor({ ...base, server: 'https://a', contextName: 'a b' }));
    assert.throws(() => kubeconfigFor({ ...base, server: 'https://a', caPem: 'nope' }));
  });

  it('does not echo a bad token in its error', () => {
    assert.throws(
      () => kubeconfigFor({ server: 'https://a', caPem: CA_PEM, token: 'secret with space' }),
      (err: Error) => !err.message.includes('secret'),
    );
  });
});

describe('writeKubeconfig', () => {
  it('writes YAML that parses back, mode 0600, and rewrites it atomically', async () => {
    const path = join(root, 'new-dir', 'kubeconfig');
    await writeKubeconfig({ path, server: 'https://127.0.0.1:6443', caPem: CA_PEM, token: TOKEN });
    assert.equal(modeOf(path), 0o600);
    assert.equal(modeOf(dirname(path)), 0o700);
    const parsed = parse(readFileSync(path, 'utf8')) as ReturnType<typeof kubeconfigFor>;
    assert.deepEqual(
      parsed,
      kubeconfigFor({ server: 'https://127.0.0.1:6443', caPem: CA_PEM, token: TOKEN }),
    );
    assert.equal(
      Buffer.from(
        parsed.clusters[0]?.cluster['certificate-authority-data'] ?? '',
        'base64',
      ).toString(),
      CA_PEM,
    );
    await writeKubeconfig({ path, server: { host: '::1', port: 1 }, caPem: CA_PEM, token: TOKEN });
    assert.equal(modeOf(path), 0o600);
    assert.match(readFileSync(path, 'utf8'), /server: "https:\/\/\[::1\]:1"\n/);
  });

  it('writes YAML any YAML parser reads back exactly, whatever the token and names', () => {
    const printable = fc.string({
      minLength: 1,
      maxLength: 64,
      unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
    });
    const name = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._@-]{0,20}$/);
    fc.assert(
      fc.property(
        printable,
        name,
        fc.integer({ min: 1, max: 65535 }),
        (token, contextName, port) => {
          const config = kubeconfigFor({
            server: { host: '127.0.0.1', port },
            caPem: CA_PEM,
            token,
            contextName,
          });
          assert.deepEqual(parse(kubeconfigYaml(config)), config);
        },
      ),
    );
  });
});

/**
 * End to end: the real PKI, token and kubeconfig against a tiny https server that answers
 * GET /version only with the right bearer token, like the real server will.
 */
describe('clients accept the kubeconfig with no extra flags', () => {
  const dir = join(root, 'data');
  let pems: ServingCertificates;
  let token: string;
  let port: number;
  let authorized = 0;
  let server: ReturnType<typeof createServer>;

  before(async () => {
    pems = await ensureServingCertificates({ dir, hosts: [] });
    token = await ensureToken(dir);
    server = createServer({ cert: pems.certPem, key: pems.keyPem }, (req, res) => {
      if (!tokensEqual(bearerTokenFrom(req.headers.authorization), token)) {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify(unauthorized));
        return;
      }
      authorized++;
      // kubectl adds ?timeout=… (from --request-timeout) to the path.
      if (new URL(req.url ?? '/', 'https://x').pathname !== '/version') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(versionInfo));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  async function kubeconfigFile(name: string, tokenInFile: string): Promise<string> {
    const path = join(dir, name);
    const server = serverUrl('127.0.0.1', port);
    await writeKubeconfig({ path, server, caPem: pems.caPem, token: tokenInFile });
    return path;
  }

  it('@kubernetes/client-node', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(await kubeconfigFile('kubeconfig', token));
    const before = authorized;
    const version = await kc.makeApiClient(VersionApi).getCode();
    assert.equal(version.gitVersion, 'v1.31.0');
    assert.equal(authorized, before + 1);
  });

  it('kubectl 1.31', async (t) => {
    const kubectl = versionedKubectl('1.31');
    if (!kubectl) {
      t.skip('kubectl.1.31 not found beside kubectl on PATH');
      return;
    }
    const before = authorized;
    const ok = await run(kubectl, await kubeconfigFile('kubeconfig', token));
    assert.equal(ok.code, 0, ok.stderr);
    const out = JSON.parse(ok.stdout) as { serverVersion?: { gitVersion?: string } };
    assert.equal(out.serverVersion?.gitVersion, 'v1.31.0');
    assert.ok(authorized > before, 'the server saw the token');

    const bad = await run(kubectl, await kubeconfigFile('wrong', `${token.slice(0, -2)}zz`));
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /logged in|Unauthorized|credentials/);

    // And it really verifies the server against the CA in the file: another CA fails.
    const other = await ensureServingCertificates({ dir: join(root, 'other-ca'), hosts: [] });
    const path = join(dir, 'other-ca');
    const url = serverUrl('127.0.0.1', port);
    await writeKubeconfig({ path, server: url, caPem: other.caPem, token });
    const untrusted = await run(kubectl, path);
    assert.notEqual(untrusted.code, 0);
    assert.match(untrusted.stderr, /x509|certificate/);
  });

  it('every other kubectl 1.27–1.33 found beside kubectl', async (t) => {
    const found = ['1.27', '1.28', '1.29', '1.30', '1.32', '1.33']
      .map((v) => [v, versionedKubectl(v)] as const)
      .filter((e): e is readonly [string, string] => e[1] !== undefined);
    if (found.length === 0) {
      t.skip('no versioned kubectl binaries beside kubectl on PATH');
      return;
    }
    const path = await kubeconfigFile('kubeconfig', token);
    const results = await Promise.all(found.map(([, bin]) => run(bin, path)));
    results.forEach((r, i) => {
      assert.equal(r.code, 0, `kubectl.${found[i]?.[0]}: ${r.stderr}`);
    });
  });
});

const versionInfo = {
  major: '1',
  minor: '31',
  gitVersion: 'v1.31.0',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2024-08-13T00:00:00Z',
  goVersion: 'go1.22.5',
  compiler: 'gc',
  platform: 'linux/amd64',
};

const unauthorized = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Unauthorized',
  reason: 'Unauthorized',
  code: 401,
};

/**
 * `kubectl.<v>` in the directory of the real `kubectl` on PATH. The plain `kubectl` is a gcloud
 * dispatcher that calls /version itself to pick a version, so tests use the versioned binaries.
 */
function versionedKubectl(version: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      const real = realpathSync(join(dir, 'kubectl'));
      const bin = join(dirname(real), `kubectl.${version}`);
      accessSync(bin, constants.X_OK);
      return bin;
    } catch {}
  }
  return undefined;
}

function run(
  kubectl: string,
  kubeconfig: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  // A scratch HOME keeps kubectl's discovery/http cache out of the user's ~/.kube.
  const home = mkdtempSync(join(root, 'home-'));
  const env = { PATH: process.env.PATH ?? '', HOME: home, NO_PROXY: '*', no_proxy: '*' };
  return new Promise((resolve) => {
    execFile(
      kubectl,
      ['--kubeconfig', kubeconfig, 'version', '-o', 'json', '--request-timeout=10s'],
      { env, timeout: 30_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
