/**
 * `fleetyard up`: one process that is a whole (small) cluster. This issue brings the storage
 * and the API server; controllers, simulated nodes and the operator join the same lifecycle
 * later.
 *
 * Files in the data dir (mode 0700): `state.db` (SQLite, unless `--ephemeral`), `pki/`
 * (CA and serving certificate), `token`, `kubeconfig` (all secrets mode 0600).
 *
 * @module
 */
import { resolve } from 'node:path';
import { builtinResources } from '../api/kinds/index.js';
import { BUILTIN_NAMESPACES } from '../apiserver/namespaces.js';
import { ApiServer, type RequestLogEntry } from '../apiserver/server.js';
import { objectKey } from '../apiserver/store/keys.js';
import { ensurePrivateDir } from '../security/files.js';
import { writeKubeconfig } from '../security/kubeconfig.js';
import { ensureServingCertificates } from '../security/pki.js';
import { ensureToken } from '../security/token.js';
import { type Backend, openBackend } from '../storage/index.js';
import { Lifecycle } from '../util/lifecycle.js';
import type { Logger } from '../util/log.js';

export interface UpOptions {
  readonly dataDir: string;
  readonly ephemeral: boolean;
  readonly host: string;
  readonly port: number;
  /** Events kept for watch resume (older starts get 410 Expired). */
  readonly historyLimit?: number;
  /** Default watch lifetime is random in [this, 2×this) seconds. */
  readonly minRequestTimeoutSeconds?: number;
  readonly logger: Logger;
}

export interface RunningCluster {
  readonly url: string;
  readonly kubeconfigPath: string;
  stop(): Promise<void>;
}

export async function up(options: UpOptions): Promise<RunningCluster> {
  const dataDir = resolve(options.dataDir);
  const log = options.logger;
  await ensurePrivateDir(dataDir);
  const [certs, token] = await Promise.all([
    ensureServingCertificates({ dir: resolve(dataDir, 'pki'), hosts: [options.host] }),
    ensureToken(dataDir),
  ]);
  let backend: Backend | undefined;
  let server: ApiServer | undefined;
  const lifecycle = new Lifecycle();
  lifecycle.add({
    name: 'storage',
    start: async () => {
      const common = {
        historyLimit: options.historyLimit,
        onCommit: (n: number, seconds: number) => server?.recordCommit(n, seconds),
      };
      backend = await openBackend(
        options.ephemeral
          ? { kind: 'memory', ...common }
          : { kind: 'sqlite', path: resolve(dataDir, 'state.db'), ...common },
      );
      log.info({ backend: backend.name, revision: backend.currentRevision() }, 'storage opened');
    },
    stop: async () => {
      await backend?.close();
      log.info({}, 'storage closed');
    },
  });
  lifecycle.add({
    name: 'apiserver',
    start: async () => {
      server = new ApiServer({
        backend: backend!,
        resources: builtinResources,
        host: options.host,
        port: options.port,
        tls: { cert: certs.certPem, key: certs.keyPem },
        token,
        ...(options.minRequestTimeoutSeconds !== undefined
          ? { minRequestTimeoutSeconds: options.minRequestTimeoutSeconds }
          : {}),
        onError: (message, error) => log.error({ err: error }, message),
        ...(log.isLevelEnabled('debug')
          ? { onRequest: (entry: RequestLogEntry) => log.debug(entry, 'request') }
          : {}),
      });
      await ensureNamespaces(server);
      await server.start();
    },
    stop: async () => {
      await server?.stop();
      log.info({}, 'apiserver stopped');
    },
  });
  await lifecycle.start();
  const url = server!.url;
  const kubeconfigPath = resolve(dataDir, 'kubeconfig');
  await writeKubeconfig({ path: kubeconfigPath, server: url, caPem: certs.caPem, token });
  return { url, kubeconfigPath, stop: () => lifecycle.stop() };
}

/** `default`, `kube-system`, `kube-public` and `kube-node-lease` exist from the start. */
async function ensureNamespaces(server: ApiServer): Promise<void> {
  const def = server.registry.get('', 'v1', 'namespaces');
  if (def === undefined) return;
  const missing = BUILTIN_NAMESPACES.filter(
    (name) => server.store.backend.get(objectKey(def, '', name)) === undefined,
  );
  // Concurrently: the four creates share one commit.
  await Promise.all(missing.map((name) => server.store.create(def, '', { metadata: { name } })));
}
