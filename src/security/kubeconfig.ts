/**
 * The kubeconfig `fleetyard up` writes: it must work as-is with kubectl 1.27–1.33 and
 * @kubernetes/client-node 1.x, so it pins the CA (no `insecure-skip-tls-verify`) and uses https,
 * the only scheme over which kubectl sends a bearer token at all (docs/design/wire-protocol.md §1).
 *
 * @module
 */

import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ipFamily } from '../util/ip.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, writeFileAtomic } from './files.js';

/** Default name of the cluster, user and context entries. */
export const DEFAULT_CONTEXT_NAME = 'fleetyard';

/** The subset of the kubeconfig schema (clientcmd v1 `Config`) that we write. */
export interface Kubeconfig {
  apiVersion: 'v1';
  kind: 'Config';
  clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[];
  users: { name: string; user: { token: string } }[];
  contexts: { name: string; context: { cluster: string; user: string; namespace: string } }[];
  'current-context': string;
  preferences: Record<string, never>;
}

/** Where the server listens: a full `https://` URL, or a host and port to build one from. */
export type ServerAddress = string | { host: string; port: number };

/** Inputs of {@link kubeconfigFor}. */
export interface KubeconfigOptions {
  server: ServerAddress;
  /** PEM of the CA that signed the serving certificate. */
  caPem: string;
  token: string;
  /** Name of the cluster, user and context entries; `fleetyard` by default. */
  contextName?: string;
}

/** Inputs of {@link writeKubeconfig}. */
export interface WriteKubeconfigOptions extends KubeconfigOptions {
  path: string;
}

/**
 * Builds `https://host:port`, bracketing IPv6 literals. A wildcard bind address (`0.0.0.0`, `::`)
 * is not a place to connect to, so it becomes the loopback address of the same family.
 */
export function serverUrl(host: string, port: number): string {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new RangeError(`invalid port ${port}`);
  }
  let h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (h === '0.0.0.0' || h === '') h = '127.0.0.1';
  if (h === '::') h = '::1';
  // A zone id (fe80::1%eth0) must be percent-encoded inside a URL (RFC 6874).
  const hostPart = ipFamily(h.replace(/%.*$/, '')) === 6 ? `[${h.replace('%', '%25')}]` : h;
  return `https://${hostPart}:${port}`;
}

/** Validates a server URL string: it must parse and be https (see the module note). */
function checkedServer(server: ServerAddress): string {
  if (typeof server !== 'string') return serverUrl(server.host, server.port);
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new TypeError(
      `invalid server URL ${JSON.stringify(server)} (IPv6 hosts need brackets: https://[::1]:6443)`,
    );
  }
  if (url.protocol !== 'https:') {
    throw new TypeError(
      `server URL must be https:// (kubectl sends no token over http): ${server}`,
    );
  }
  return server;
}

/** Returns the kubeconfig object (also what {@link writeKubeconfig} serialises). */
export function kubeconfigFor(options: KubeconfigOptions): Kubeconfig {
  const name = options.contextName ?? DEFAULT_CONTEXT_NAME;
  if (!/^[A-Za-z0-9][A-Za-z0-9._@-]*$/.test(name)) {
    throw new TypeError(`invalid context name ${JSON.stringify(name)}`);
  }
  if (!options.caPem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new TypeError('caPem is not a PEM certificate');
  }
  if (!/^[\x21-\x7e]+$/.test(options.token)) {
    // Never echo the token itself: error messages end up in logs.
    throw new TypeError('token must be non-empty printable ASCII without spaces');
  }
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name,
        cluster: {
          server: checkedServer(options.server),
          'certificate-authority-data': Buffer.from(options.caPem, 'utf8').toString('base64'),
        },
      },
    ],
    users: [{ name, user: { token: options.token } }],
    contexts: [{ name, context: { cluster: name, user: name, namespace: 'default' } }],
    'current-context': name,
    preferences: {},
  };
}

/**
 * Writes the kubeconfig YAML to `path` atomically with mode 0600 (it holds the token). A missing
 * parent directory is created 0700; an existing one is left as it is (it may be `~/.kube`).
 */
export async function writeKubeconfig(options: WriteKubeconfigOptions): Promise<void> {
  const text = kubeconfigYaml(kubeconfigFor(options));
  // A restart on the same port writes the same bytes: skip the write and its two fsyncs
  // (~15 ms of a start here), but only if the file is still private.
  if (await unchangedPrivateFile(options.path, text)) return;
  await mkdir(dirname(options.path), { recursive: true, mode: PRIVATE_DIR_MODE });
  await writeFileAtomic(options.path, text, PRIVATE_FILE_MODE);
}

async function unchangedPrivateFile(path: string, text: string): Promise<boolean> {
  try {
    const [current, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    return current === text && (info.mode & 0o777) === PRIVATE_FILE_MODE;
  } catch {
    return false;
  }
}

/**
 * The kubeconfig as YAML. Its shape is fixed and every value is a string, so it is written
 * directly with each string JSON-quoted (a JSON string is a valid YAML double-quoted scalar):
 * loading a YAML library for it cost ~25 ms of every `fleetyard up` start. The tests parse
 * the result back with the `yaml` library and compare it to {@link kubeconfigFor}.
 */
export function kubeconfigYaml(config: Kubeconfig): string {
  const q = (v: string): string => JSON.stringify(v);
  const lines = ['apiVersion: v1', 'kind: Config', 'clusters:'];
  for (const c of config.clusters) {
    lines.push(`  - name: ${q(c.name)}`, '    cluster:', `      server: ${q(c.cluster.server)}`);
    lines.push(`      certificate-authority-data: ${q(c.cluster['certificate-authority-data'])}`);
  }
  lines.push('users:');
  for (const u of config.users)
    lines.push(`  - name: ${q(u.name)}`, '    user:', `      token: ${q(u.user.token)}`);
  lines.push('contexts:');
  for (const c of config.contexts) {
    lines.push(`  - name: ${q(c.name)}`, '    context:', `      cluster: ${q(c.context.cluster)}`);
    lines.push(`      user: ${q(c.context.user)}`, `      namespace: ${q(c.context.namespace)}`);
  }
  lines.push(`current-context: ${q(config['current-context'])}`, 'preferences: {}', '');
  return lines.join('\n');
}
