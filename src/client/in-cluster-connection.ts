/**
 * The connection of a process running in a Pod, after client-go's `rest.InClusterConfig`: the
 * API server is `https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT` (the `kubernetes`
 * Service the kubelet injects into every container), authenticated with the Pod's
 * ServiceAccount token and trusting the cluster CA, both mounted under
 * `/var/run/secrets/kubernetes.io/serviceaccount/`. The same folder names the Pod's namespace,
 * which the operator uses as its own namespace (where its Lease lives).
 *
 * Token rotation, honestly: {@link ConnectionOptions} carries a static `token`, so the token is
 * read once, at start, and never re-read. The kubelet rewrites the projected token file at 80 %
 * of its lifetime (≈ 48 min of the default 1 h), and client-go re-reads it every minute; we do
 * not. This works in practice because (1) the API server's
 * `--service-account-extend-token-expiration` (default true) makes the admission-injected token
 * (`expirationSeconds: 3607`) valid for a year, and (2) where that is disabled, the expired
 * token makes the Lease renewal fail within its 10 s renew deadline, the operator stops leading
 * and exits 1 (as upstream does), and the restarted container reads the fresh file. Without
 * leader election (`--leader-elect=false`) nothing notices: requests get 401 until a restart.
 * Re-reading per request would need a token provider in the client layer's interface
 * (`ConnectionOptions.token` is a string), which this file does not change.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConnectionOptions } from './http-lister-watcher.js';

/** Where the kubelet mounts the ServiceAccount token, CA and namespace (kube-api-access-*). */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** client-go's `ErrNotInCluster` text, so the message reads the same as Go operators'. */
export const NOT_IN_CLUSTER_MESSAGE =
  'unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined';

/** What the Pod's mounts resolve to: connection options plus the Pod's namespace. */
export interface InClusterConnection extends ConnectionOptions {
  readonly server: string;
  readonly token: string;
  readonly ca: string;
  readonly namespace: string;
}

export interface InClusterOptions {
  /** The process environment. @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The mounted ServiceAccount folder. @default {@link SERVICE_ACCOUNT_DIR} */
  readonly dir?: string;
}

/** Whether the environment looks like a Pod (both Service variables set, as client-go checks). */
export function isInCluster(
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  return Boolean(env.KUBERNETES_SERVICE_HOST) && Boolean(env.KUBERNETES_SERVICE_PORT);
}

/** The API server URL from the Service variables; an IPv6 host is bracketed (`[fd00::1]:443`). */
export function inClusterServer(env: Readonly<Record<string, string | undefined>>): string {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) throw new Error(NOT_IN_CLUSTER_MESSAGE);
  // net.JoinHostPort brackets any host containing a colon; a host already bracketed is kept.
  const joinedHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `https://${joinedHost}:${port}`;
}

/**
 * Reads the in-cluster connection. A missing token or CA is an error (client-go fails the
 * same way). The namespace is clientcmd's: `$POD_NAMESPACE` (a downward-API variable) if set,
 * else the `namespace` file, else `default`.
 */
export async function loadInClusterConnection(
  options: InClusterOptions = {},
): Promise<InClusterConnection> {
  const env = options.env ?? process.env;
  const dir = options.dir ?? SERVICE_ACCOUNT_DIR;
  const server = inClusterServer(env);
  const token = (await readRequired(join(dir, 'token'), 'token')).trim();
  if (token === '') throw new Error(`in-cluster configuration: ${join(dir, 'token')} is empty`);
  const ca = await readRequired(join(dir, 'ca.crt'), 'CA certificate');
  const namespace =
    env.POD_NAMESPACE || (await readOptional(join(dir, 'namespace')))?.trim() || 'default';
  return { server, token, ca, namespace };
}

async function readRequired(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const code =
      err instanceof Error && 'code' in err && typeof err.code === 'string'
        ? err.code
        : String(err);
    throw new Error(`in-cluster configuration: cannot read the ${what} ${path} (${code})`);
  }
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}
