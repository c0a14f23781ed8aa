/**
 * Reads the connection out of a kubeconfig (clientcmd v1 `Config`): the server, CA and bearer
 * token of a context (the current one by default). It understands what
 * `src/security/kubeconfig.ts` writes (`certificate-authority-data`, `token`) plus the common
 * file-based forms (`certificate-authority`, `tokenFile`) and `insecure-skip-tls-verify`.
 * Client certificates and exec plugins are not supported: they are named in the error.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import { isJsonObject, type JsonObject } from '../api/object.js';
import {
  type ConnectionOptions,
  HttpListerWatcher,
  type HttpListerWatcherOptions,
} from './http-lister-watcher.js';

/** What a context resolves to: connection options plus its default namespace. */
export interface KubeconfigConnection extends ConnectionOptions {
  readonly namespace: string;
}

/**
 * Resolves `context` (default: `current-context`) of a parsed kubeconfig. Relative file paths
 * are resolved against `baseDir` (the kubeconfig's folder), as kubectl does.
 */
export async function connectionFromKubeconfig(
  config: unknown,
  options: { context?: string; baseDir?: string } = {},
): Promise<KubeconfigConnection> {
  const doc = isJsonObject(config) ? config : {};
  const current = doc['current-context'];
  const contextName = options.context ?? (typeof current === 'string' ? current : undefined);
  if (!contextName) throw new Error('kubeconfig has no current-context');
  const context = entry(doc.contexts, 'context', contextName, 'context');
  const cluster = entry(doc.clusters, 'cluster', String(context.cluster ?? ''), 'cluster');
  const user = context.user ? entry(doc.users, 'user', String(context.user), 'user') : {};
  const at = (p: string): string => (isAbsolute(p) ? p : resolve(options.baseDir ?? '.', p));

  if (typeof cluster.server !== 'string') throw new Error(`cluster has no server`);
  if (user.exec !== undefined || user['client-certificate-data'] !== undefined) {
    throw new Error('kubeconfig user: only token authentication is supported');
  }
  let ca: string | undefined;
  if (typeof cluster['certificate-authority-data'] === 'string') {
    ca = Buffer.from(cluster['certificate-authority-data'], 'base64').toString('utf8');
  } else if (typeof cluster['certificate-authority'] === 'string') {
    ca = await readFile(at(cluster['certificate-authority']), 'utf8');
  }
  let token: string | undefined;
  if (typeof user.token === 'string') token = user.token;
  else if (typeof user.tokenFile === 'string')
    token = (await readFile(at(user.tokenFile), 'utf8')).trim();
  return {
    server: cluster.server,
    namespace:
      typeof context.namespace === 'string' && context.namespace ? context.namespace : 'default',
    ...(ca !== undefined ? { ca } : {}),
    ...(token !== undefined ? { token } : {}),
    ...(cluster['insecure-skip-tls-verify'] === true ? { insecureSkipTlsVerify: true } : {}),
  };
}

/** Reads and resolves a kubeconfig file. */
export async function loadKubeconfigConnection(
  path: string,
  context?: string,
): Promise<KubeconfigConnection> {
  const text = await readFile(path, 'utf8');
  const config: unknown = parse(text);
  return connectionFromKubeconfig(config, {
    baseDir: dirname(path),
    ...(context !== undefined ? { context } : {}),
  });
}

/**
 * An {@link HttpListerWatcher} for `options.path` on the cluster of a kubeconfig file.
 *
 * @example
 * ```ts
 * const lw = await listerWatcherFromKubeconfig('.fleetyard/kubeconfig', { path: '/api/v1/pods' });
 * ```
 */
export async function listerWatcherFromKubeconfig(
  kubeconfigPath: string,
  options: Omit<HttpListerWatcherOptions, keyof ConnectionOptions> & { context?: string },
): Promise<HttpListerWatcher> {
  const { context, ...rest } = options;
  const { namespace: _ns, ...connection } = await loadKubeconfigConnection(kubeconfigPath, context);
  return new HttpListerWatcher({ ...connection, ...rest });
}

function entry(
  list: unknown,
  field: 'cluster' | 'user' | 'context',
  name: string,
  what: string,
): JsonObject {
  const found: unknown = (Array.isArray(list) ? list : []).find(
    (e: unknown) => isJsonObject(e) && e.name === name,
  );
  const value = isJsonObject(found) ? found[field] : undefined;
  if (!isJsonObject(value)) {
    throw new Error(`kubeconfig has no ${what} named ${JSON.stringify(name)}`);
  }
  return value;
}
