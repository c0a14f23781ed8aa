/**
 * `fleetyard up`: one process that is a whole (small) cluster: the storage, the API server,
 * and, in a thread of its own, a controller manager running the simulated nodes, the
 * scheduler and the workload controllers against that server (ADR 0008) through its
 * in-process door, plain HTTP on a Unix socket (ADR 0020); started in that order, stopped in
 * reverse.
 *
 * Files in the data dir (mode 0700): `state.db` (SQLite, unless `--ephemeral`; it holds every
 * Secret), `pki/` (CA and serving certificate), `token`, `kubeconfig`, and while running the
 * socket `api.sock`: all but the two certificates mode 0600 whatever the umask. Nothing else is written (logs go to stderr).
 * SQLite creates its files with 0644 & ~umask, so the database is created (or tightened) 0600
 * before SQLite opens it, and its WAL copies that mode; `fleetyard up` also runs with umask
 * 077 (up-command.ts), as PostgreSQL's postmaster does, for anything a library may create.
 *
 * The start is all or nothing: the kubeconfig is written before `up` resolves (before the
 * `ready` line), and any failure stops what already started (server, database lock,
 * controller thread) before the error reaches the caller.
 *
 * @module
 */

import { resolve } from 'node:path';
import { createBuiltinResources } from '../api/kinds/index.js';
import { apiExtensions } from '../apiextensions/index.js';
import type { Auditor } from '../apiserver/audit/auditor.js';
import { type AuditFlags, openAuditor } from '../apiserver/audit/setup.js';
import { ADMIN } from '../apiserver/authentication/user.js';
import { defaultAssetsDir } from '../apiserver/dashboard/assets.js';
import { DASHBOARD_PATH } from '../apiserver/dashboard/routes.js';
import type { FeatureGates } from '../apiserver/feature-gates.js';
import { BUILTIN_NAMESPACES } from '../apiserver/namespaces.js';
import { ApiServer, type ApiServerConfig, type RequestLogEntry } from '../apiserver/server.js';
import { objectKey } from '../apiserver/store/keys.js';
import { ApiClient } from '../client/api-client.js';
import { installCrds } from '../client/install-crds.js';
import { celldCrds } from '../operator/api/crds.js';
import { ensurePrivateDir, ensurePrivateSqliteFiles } from '../security/files.js';
import { writeKubeconfig } from '../security/kubeconfig.js';
import { ensureServingCertificates } from '../security/pki.js';
import { clientUrl, servingHosts } from '../security/serving-names.js';
import { ensureToken } from '../security/token.js';
import { VirtualClock } from '../sim/clock/virtual-clock.js';
import { wallClockControl } from '../sim/clock/wall-clock-control.js';
import { simulatedNodeNames } from '../sim/kubelet/node-config.js';
import { simulatedKubeletEndpoints } from '../sim/kubelet-api/index.js';
import {
  encryptingBackend,
  ephemeralEncryptionConfig,
  loadOrCreateEncryptionConfig,
  resourceOfStorageKey,
} from '../storage/encryption/index.js';
import { type Backend, openBackend } from '../storage/index.js';
import { type Clock, realClock } from '../util/clock.js';
import type { ClockControl, Speed } from '../util/clock-control.js';
import { Lifecycle } from '../util/lifecycle.js';
import { addLogSecret, type Logger, type LogLevel } from '../util/log.js';
import { redactRequestUrl } from '../util/redact-url.js';
import { seededRandom as seedStream, uuidFrom } from '../util/seeded-random.js';
import { type ClusterShape, clusterControllers, selectControllers } from './cluster-controllers.js';
import { CONTROLLER_MANAGER_USER } from './component-identities.js';
import { type ControllerThread, startControllerThread } from './controller-thread.js';
import { type InternalSocketPlace, internalSocketPlace } from './internal-socket.js';
import { componentCredentials, installOperatorRbac, upAccess } from './up-access.js';
import { DEFAULT_SPEED, UP_FLAGS } from './up-flag-table.js';
import { UP_CLUSTER_DEFAULTS } from './up-flags.js';

export interface UpOptions {
  readonly dataDir: string;
  readonly ephemeral: boolean;
  /**
   * `--encryption-provider-config`: kube-apiserver's EncryptionConfiguration. Absent: the one
   * generated in the data directory at first start (in memory with `--ephemeral`).
   */
  readonly encryptionProviderConfig?: string;
  /** `--audit-log-path` and its companions; absent: no audit log, as kube-apiserver. */
  readonly audit?: AuditFlags;
  readonly host: string;
  readonly port: number;
  /** `--tls-san`: more names and addresses for the serving certificate. */
  readonly tlsSans?: readonly string[];
  /** `--advertise-address`: the address the kubeconfig names (default: the bound one). */
  readonly advertiseAddress?: string;
  /** Events kept for watch resume (older starts get 410 Expired). */
  readonly historyLimit?: number;
  /** Default watch lifetime is random in [this, 2×this) seconds. */
  readonly minRequestTimeoutSeconds?: number;
  /** `--event-ttl`: how long an Event is kept after its last write. @default 1 h */
  readonly eventTtlMs?: number;
  readonly logger: Logger;
  /** The level the controller thread logs at (its own logger). @default 'info' */
  readonly logLevel?: LogLevel;
  /** Nodes, zones and node-lifecycle timing of the simulated cluster. */
  readonly cluster?: Partial<ClusterShape>;
  /** `--controllers` selection. @default '*' */
  readonly controllers?: string;
  /** `--default-not-ready-toleration-seconds`. @default 300 */
  readonly defaultNotReadyTolerationSeconds?: number;
  /** `--default-unreachable-toleration-seconds`. @default 300 */
  readonly defaultUnreachableTolerationSeconds?: number;
  /** `--feature-gates`, for the API server (the controllers' share is in `cluster.gates`). */
  readonly featureGates?: FeatureGates;
  /** `--max-requests-inflight`: read-only requests served at once (0: no limit). @default 400 */
  readonly maxRequestsInFlight?: number;
  /** `--max-mutating-requests-inflight`. @default 200 */
  readonly maxMutatingRequestsInFlight?: number;
  /** Install the celld CRDs at start (the operator needs them). @default true */
  readonly installCrds?: boolean;
  /** `--clock`: `virtual` is time that can pause, step and run at any speed. @default 'real' */
  readonly clock?: 'real' | 'virtual';
  /** `--clock-start`: the virtual clock's start, ms since the epoch. @default the wall time */
  readonly clockStart?: number;
  /** `--speed`: the virtual clock's speed at start. @default 1 */
  readonly speed?: Speed;
  /** `--seed`: fixes every source of randomness in the process. */
  readonly seed?: number;
  /** `--dashboard`: serve the dashboard under `/ui/` and record the run's changes. @default true */
  readonly dashboard?: boolean;
}

export interface RunningCluster {
  /** The URL clients use (the kubeconfig's): `--advertise-address`, or the bound address. */
  readonly url: string;
  readonly kubeconfigPath: string;
  /** The cluster clock's controls (read-only under `--clock real`). */
  readonly clock: ClockControl;
  /** The simulated nodes' registration (`up`'s progress line, src/cli/terminal/node-progress.ts). */
  readonly nodes?: { readonly expected: number; registered(): number };
  /** The dashboard (absent with `--dashboard=false`). */
  readonly dashboard?: {
    /** Its address: `<url>/ui/`. */
    readonly url: string;
    /** A new one-time login link for the admin user (`up` prints one at start). */
    loginUrl(): string;
  };
  stop(): Promise<void>;
}

/** The URL the controller thread's clients use with the socket: only its scheme and path count. */
const IN_PROCESS_URL = 'http://localhost';

export async function up(options: UpOptions): Promise<RunningCluster> {
  const dataDir = resolve(options.dataDir);
  const log = options.logger;
  await ensurePrivateDir(dataDir);
  const hosts = servingHosts({
    host: options.host,
    tlsSans: options.tlsSans ?? [],
    advertiseAddress: options.advertiseAddress,
  });
  const [certs, token] = await Promise.all([
    ensureServingCertificates({ dir: resolve(dataDir, 'pki'), hosts }),
    ensureToken(dataDir),
  ]);
  // Before anything can log a request: the token never appears in a log line.
  addLogSecret(token);
  // The cluster CA signs approved CertificateSigningRequests (kube-controller-manager's
  // --cluster-signing-cert-file and --cluster-signing-key-file).
  const shape: ClusterShape = {
    ...UP_CLUSTER_DEFAULTS,
    signingCaDir: resolve(dataDir, 'pki'),
    ...options.cluster,
  };
  // One clock for the whole process (src/sim/clock/): the API server's timestamps, its own
  // controllers and, through a replica, the controller thread.
  const virtualClock =
    options.clock === 'virtual'
      ? new VirtualClock({
          start: options.clockStart ?? Date.now(),
          speed: options.speed ?? DEFAULT_SPEED,
          // A seeded run is a repeatable one: the cluster takes one turn at a time.
          serial: options.seed !== undefined,
        })
      : undefined;
  const clock: Clock = virtualClock ?? realClock;
  const clockControl = virtualClock ?? wallClockControl(realClock);
  const { seed } = options;
  // Checked here, so a bad --controllers fails `up` before anything starts.
  const selection = options.controllers ?? UP_FLAGS.controllers.default;
  const controllers = selectControllers(clusterControllers(shape), selection);
  let backend: Backend | undefined;
  let server: ApiServer | undefined;
  let manager: ControllerThread | undefined;
  /** What the controllers use: the bound address, a wildcard replaced by loopback. */
  let internalUrl = '';
  let url = '';
  const kubeconfigPath = resolve(dataDir, 'kubeconfig');
  let socket: InternalSocketPlace | undefined;
  const lifecycle = new Lifecycle();
  lifecycle.add({
    name: 'storage',
    start: async () => {
      const common = {
        historyLimit: options.historyLimit,
        onCommit: (n: number, seconds: number) => server?.recordCommit(n, seconds),
      };
      const path = resolve(dataDir, 'state.db');
      if (!options.ephemeral) await ensurePrivateSqliteFiles(path);
      // Before the database opens: a bad --encryption-provider-config fails the start with
      // nothing opened.
      const encryption =
        options.ephemeral && options.encryptionProviderConfig === undefined
          ? { config: ephemeralEncryptionConfig(), path: '(in memory)', created: false }
          : await loadOrCreateEncryptionConfig(dataDir, options.encryptionProviderConfig);
      const raw = await openBackend(
        options.ephemeral ? { kind: 'memory', ...common } : { kind: 'sqlite', path, ...common },
      );
      backend = encryptingBackend(raw, encryption.config, resourceOfStorageKey, {
        onWatchError: (err) =>
          log.error({ key: err.key, err: err.message }, 'watch event could not be decrypted'),
      });
      log.info(
        {
          backend: backend.name,
          revision: backend.currentRevision(),
          encryption: encryption.path,
          keyCreated: encryption.created,
        },
        'storage opened',
      );
    },
    stop: async () => {
      await backend?.close();
      log.info({}, 'storage closed');
    },
  });
  let auditor: Auditor | undefined;
  lifecycle.add({
    // Before the API server and stopped after it: every request it drains is still logged.
    name: 'audit',
    start: async () => {
      auditor = await openAuditor(options.audit ?? {}, {
        clock,
        onError: (message, err) => log.warn({ err }, message),
        ...(seed !== undefined ? { newId: uidsFrom(seedStream(seed, 'audit-id')) } : {}),
      });
    },
    stop: async () => {
      await auditor?.close();
    },
  });
  lifecycle.add({
    name: 'apiserver',
    start: async () => {
      // Identities and RBAC, enforced (issue 18): ServiceAccount tokens, client certificates
      // signed by the cluster CA, each component as itself.
      const access = await upAccess(resolve(dataDir, 'pki'), certs.caPem, clock);
      socket = await internalSocketPlace(dataDir);
      server = new ApiServer({
        backend: backend!,
        resources: createBuiltinResources({ clock }),
        host: options.host,
        port: options.port,
        tls: { cert: certs.certPem, key: certs.keyPem, clientCA: certs.caPem },
        token,
        internalSocketPath: socket.path,
        access,
        ...(auditor !== undefined ? { auditor } : {}),
        clock,
        clockControl,
        // The simulated nodes' logs, exec, port-forward and usage (the Metrics API).
        kubelet: simulatedKubeletEndpoints(clock),
        ...(options.dashboard !== false ? { dashboard: dashboardAssets() } : {}),
        extensions: apiExtensions(),
        ...(seed !== undefined
          ? { uid: uidsFrom(seedStream(seed, 'uid')), random: seedStream(seed, 'generateName') }
          : {}),
        // `default/kubernetes`, advertising what kube-apiserver would (bootstrap/).
        kubernetesService:
          options.advertiseAddress !== undefined
            ? { advertiseAddress: options.advertiseAddress }
            : {},
        ...serverTuning(options),
        onError: (message, error) => log.error({ err: error }, message),
        ...(log.isLevelEnabled('debug')
          ? { onRequest: (e: RequestLogEntry) => log.debug(accessLog(e), 'request') }
          : {}),
      });
      try {
        await ensureNamespaces(server);
        await server.start();
      } catch (err) {
        // Not yet in the lifecycle's started list: undo the timers (and any listener) here.
        await server.stop().catch(() => undefined);
        throw err;
      }
      // The controllers' credential (never refused by the in-flight limits, never written).
      addLogSecret(server.loopbackToken);
      internalUrl = clientUrl(server.url);
      url = clientUrl(server.url, options.advertiseAddress);
    },
    stop: async () => {
      await server?.stop();
      await socket?.release();
      log.info({}, 'apiserver stopped');
    },
  });
  lifecycle.add({
    // Before anything is declared ready: a start that cannot write it (a full or read-only
    // disk) fails and stops, rather than serving with no way for clients to connect.
    name: 'kubeconfig',
    start: () => writeKubeconfig({ path: kubeconfigPath, server: url, caPem: certs.caPem, token }),
    stop: () => undefined,
  });
  lifecycle.add({
    // kube-apiserver's bootstrap controller (`default/kubernetes`), after the kubeconfig: a
    // start on a full disk fails at that write, not past it (see startKubernetesService).
    name: 'kubernetes-service',
    start: () => server!.startKubernetesService(),
    // The API server's stop ends it.
    stop: () => undefined,
  });
  lifecycle.add({
    name: 'controllers',
    start: async () => {
      try {
        if (controllers.length > 0) startControllers();
        // After the thread is started, so its ~0.3 s boot overlaps the install; the operator
        // waits for its API group to be served before it lists fleets.
        if (options.installCrds !== false) {
          await Promise.all([
            installCelldCrds(internalUrl, certs.caPem, server!.loopbackToken),
            // The operator runs with exactly the RBAC it ships with (deploy/operator/).
            installOperatorRbac(internalUrl, certs.caPem, server!.loopbackToken),
          ]);
        }
      } catch (err) {
        await manager?.stop();
        throw err;
      }
    },
    stop: async () => {
      await manager?.stop();
      if (manager) log.info({}, 'controllers stopped');
      virtualClock?.stop();
    },
  });
  function startControllers(): void {
    // The controllers reach the server as any client does (HTTPS, the CA, a bearer token), with
    // the server's loopback token, as kube-apiserver's own clients: a flood from a kubeconfig
    // holder is answered 429 while the controllers' requests still pass (ADR 0008).
    manager = startControllerThread(
      {
        // The in-process door: plain HTTP on the server's Unix socket (ADR 0020); the CA still
        // travels, as kube-controller-manager's root CA for the kube-root-ca.crt ConfigMaps.
        connection: {
          server: IN_PROCESS_URL,
          socketPath: socket!.path,
          ca: certs.caPem,
          token: server!.loopbackToken,
        },
        // Each component as its upstream identity (component-identities.ts); the shared
        // informers as kube-controller-manager, which may list and watch everything.
        credentials: componentCredentials(server!, simulatedNodeNames(shape.nodes)),
        informerIdentity: CONTROLLER_MANAGER_USER,
        controllers: selection,
        cluster: shape,
        logLevel: options.logLevel ?? UP_FLAGS['log-level'].default,
        ...(seed !== undefined ? { seed } : {}),
      },
      log,
      virtualClock,
    );
    const running = manager;
    server!.services.metrics.include(() => running.metrics());
  }
  await lifecycle.start();
  const dashboard = server?.dashboard;
  return {
    url,
    kubeconfigPath,
    clock: clockControl,
    nodes: {
      expected: controllers.some((c) => c.name === 'kubelet') ? shape.nodes : 0,
      // A prefix count of the in-memory index, polled on a terminal only.
      registered: () => backend?.count('/core/nodes/') ?? 0,
    },
    ...(dashboard !== undefined
      ? {
          dashboard: {
            url: `${url}${DASHBOARD_PATH}`,
            loginUrl: () => `${url}${dashboard.loginPath(ADMIN)}`,
          },
        }
      : {}),
    stop: () => lifecycle.stop(),
  };
}

/** The dashboard's built files (dist/ui/ of this package). */
function dashboardAssets(): { assetsDir?: string } {
  const assetsDir = defaultAssetsDir();
  return assetsDir !== undefined ? { assetsDir } : {};
}

/**
 * The access log's fields, picked one by one (a field the server adds later is not logged
 * unseen) with the URL's credentials removed (redact-url.ts); the logger then scrubs the line.
 */
function accessLog(entry: RequestLogEntry): Record<string, unknown> {
  const { method, url, code, ms, userAgent } = entry;
  return { method, url: redactRequestUrl(url), code, ms, userAgent };
}

/** The celld CRDs, through the API as `kubectl apply -f deploy/crds/` would; Established on return. */
async function installCelldCrds(url: string, ca: string, token: string): Promise<void> {
  const client = new ApiClient({ server: url, ca, token, userAgent: 'fleetyard-up' });
  try {
    await installCrds(client, celldCrds(), realClock);
  } finally {
    client.close();
  }
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

/** A UID generator drawing from `random` (`--seed`). */
function uidsFrom(random: () => number): () => string {
  return () => uuidFrom(random);
}

/** The API server's optional limits and defaults, as `up`'s flags set them. */
function serverTuning(options: UpOptions): Partial<ApiServerConfig> {
  return {
    ...(options.minRequestTimeoutSeconds !== undefined
      ? { minRequestTimeoutSeconds: options.minRequestTimeoutSeconds }
      : {}),
    ...(options.eventTtlMs !== undefined ? { eventTtlMs: options.eventTtlMs } : {}),
    ...(options.defaultNotReadyTolerationSeconds !== undefined
      ? { defaultNotReadyTolerationSeconds: options.defaultNotReadyTolerationSeconds }
      : {}),
    ...(options.defaultUnreachableTolerationSeconds !== undefined
      ? { defaultUnreachableTolerationSeconds: options.defaultUnreachableTolerationSeconds }
      : {}),
    ...(options.featureGates !== undefined ? { featureGates: options.featureGates } : {}),
    ...(options.maxRequestsInFlight !== undefined
      ? { maxRequestsInFlight: options.maxRequestsInFlight }
      : {}),
    ...(options.maxMutatingRequestsInFlight !== undefined
      ? { maxMutatingRequestsInFlight: options.maxMutatingRequestsInFlight }
      : {}),
  };
}
