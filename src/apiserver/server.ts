/**
 * The HTTPS API server: authentication, routing, and the component that owns the object
 * store, the namespace controller and the metrics. One process, one event loop; requests
 * and watch streams share it with the storage engine's commits.
 *
 * @module
 */

import { setMaxListeners } from 'node:events';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { StatusError, unauthorized } from '../api/errors.js';
import type { ResourceDefinition } from '../api/resource.js';
import { loadBuiltinSchemas } from '../api/schema/builtin/index.js';
import {
  type CrdController,
  createCrdController,
  customResourceDefinitionResource,
  loadApiExtensionsTools,
} from '../apiextensions/index.js';
import { bearerTokenFrom, generateToken, tokenMatcher } from '../security/token.js';
import type { Backend } from '../storage/backend.js';
import { type Clock, realClock } from '../util/clock.js';
import { composeAdmission } from './admission/chain.js';
import { defaultStorageClassAdmission } from './admission/default-storage-class.js';
import { defaultTolerationSecondsAdmission } from './admission/default-tolerations.js';
import { persistentVolumeClaimResizeAdmission } from './admission/pvc-resize.js';
import { storageObjectInUseProtectionAdmission } from './admission/storage-object-in-use-protection.js';
import { type FeatureGates, gateResources } from './feature-gates.js';
import type { ApiServices } from './handlers/context.js';
import {
  applyConnectionLimits,
  type ConnectionLimitStats,
  type ConnectionLimits,
  DEFAULT_CONNECTION_LIMITS,
  serverCreateOptions,
} from './http/connection-limits.js';
import {
  DEFAULT_INFLIGHT_LIMITS,
  InFlightLimiter,
  RETRY_AFTER_SECONDS,
  requestPool,
  tooManyRequests,
} from './http/inflight-limit.js';
import { parseRequestUrl, type RequestUrl } from './http/request-url.js';
import { sendError, toStatusError } from './http/respond.js';
import { isLoopbackHost } from './loopback.js';
import { createApiMetrics } from './metrics.js';
import { NamespaceController, namespaceAdmission } from './namespaces.js';
import { lazyOpenApiService } from './openapi-loader.js';
import { ResourceRegistry } from './registry.js';
import { routeRequest } from './router.js';
import { ServiceAllocator } from './service-allocator.js';
import { type Admission, ObjectStore } from './store/object-store.js';

export interface ApiServerOptions {
  readonly backend: Backend;
  readonly resources: readonly ResourceDefinition[];
  /** Address to bind; 127.0.0.1 by default. */
  readonly host?: string;
  /** Port; 0 picks a free one. */
  readonly port?: number;
  /** PEM certificate and key; without them the server speaks plain HTTP (loopback only). */
  readonly tls?: { readonly cert: string; readonly key: string };
  /** Bearer token required on every request but the health endpoints. */
  readonly token?: string;
  readonly clock?: Clock;
  readonly uid?: () => string;
  readonly random?: () => number;
  /**
   * Watches without `timeoutSeconds` end after a random time in [this, 2×this) seconds
   * (kube-apiserver's `--min-request-timeout`, default 1800).
   */
  readonly minRequestTimeoutSeconds?: number;
  /**
   * `tolerationSeconds` of the `node.kubernetes.io/not-ready:NoExecute` toleration the
   * DefaultTolerationSeconds admission adds to pods (kube-apiserver's
   * `--default-not-ready-toleration-seconds`). @default 300
   */
  readonly defaultNotReadyTolerationSeconds?: number;
  /** The same for `node.kubernetes.io/unreachable` (`--default-unreachable-toleration-seconds`). @default 300 */
  readonly defaultUnreachableTolerationSeconds?: number;
  /**
   * `--feature-gates` (see `parseFeatureGates`); they rebuild the kinds they change (the
   * StatefulSet) before the registry is made. @default DEFAULT_FEATURE_GATES (all off)
   */
  readonly featureGates?: FeatureGates;
  /**
   * Called once per finished request (an access log, like kube-apiserver's httplog at -v=3).
   * Gets the method, the path with its query, the status code and the duration; never headers.
   */
  readonly onRequest?: (entry: RequestLogEntry) => void;
  /** Receives internal errors (never request headers: they carry the token). */
  readonly onError?: (message: string, error: unknown) => void;
  /**
   * Read-only requests served at once; one more is answered 429 with `Retry-After: 1`
   * (kube-apiserver's `--max-requests-inflight`; 0: no limit). Watches are not counted.
   * @default 400
   */
  readonly maxRequestsInFlight?: number;
  /** The same for mutating requests (`--max-mutating-requests-inflight`). @default 200 */
  readonly maxMutatingRequestsInFlight?: number;
  /** Time to finish the TLS handshake, and to send each request's headers. @default 32_000 (upstream's ReadHeaderTimeout) */
  readonly readHeaderTimeoutMs?: number;
  /** Idle keep-alive connections are closed after this. @default 90_000 (upstream's IdleTimeout) */
  readonly idleTimeoutMs?: number;
  /** Time to receive a whole request, body included; 408 after. @default 60_000 (upstream's --request-timeout) */
  readonly requestTimeoutMs?: number;
  /** Request line and headers; larger ones get 431. @default 1 MiB (upstream's MaxHeaderBytes) */
  readonly maxHeaderBytes?: number;
  /** Open connections; more are closed at accept (0: no limit). @default 1024 (upstream: none) */
  readonly maxConnections?: number;
}

export interface RequestLogEntry {
  readonly method: string;
  /**
   * Path and query as requested, unredacted: a client may put a credential in a query (the
   * server refuses it, but it was sent), so a logger redacts it (`security/redact-url.ts`).
   */
  readonly url: string;
  readonly code: number;
  readonly ms: number;
  /** The client's User-Agent (kubectl's names its binary and version). */
  readonly userAgent: string;
}

function connectionLimits(options: ApiServerOptions): ConnectionLimits {
  const d = DEFAULT_CONNECTION_LIMITS;
  return {
    readHeaderTimeoutMs: options.readHeaderTimeoutMs ?? d.readHeaderTimeoutMs,
    idleTimeoutMs: options.idleTimeoutMs ?? d.idleTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs ?? d.requestTimeoutMs,
    maxHeaderBytes: options.maxHeaderBytes ?? d.maxHeaderBytes,
    maxConnections: options.maxConnections ?? d.maxConnections,
  };
}

/** Flushes what the socket holds, then closes it (FIN); destroys it after `timeoutMs`. */
function endGracefully(socket: Socket, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) {
      resolve();
      return;
    }
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.end();
  });
}

/** The allocation hooks of the Service allocator, for the object store's admission. */
function allocation(services: ServiceAllocator): Admission {
  return {
    allocate: (def, obj) => services.allocate(def, obj),
    preserve: (def, next, current) => services.preserve(def, next, current),
  };
}

/** Metrics are recorded from the start but their library loads this long after listening. */
const METRICS_LOAD_DELAY_MS = 1000;

/** How long shutdown waits for clients to read the last bytes of their responses. */
const SOCKET_DRAIN_MS = 5000;

/**
 * Paths a request without credentials may read (upstream's `system:public-info-viewer`).
 * A request that presents a wrong token is refused everywhere, as upstream authenticates
 * before it authorizes.
 */
export const PUBLIC_PATHS = new Set(['/healthz', '/livez', '/readyz', '/version']);

export class ApiServer {
  readonly store: ObjectStore;
  readonly registry: ResourceRegistry;
  readonly services: ApiServices;
  readonly #options: ApiServerOptions;
  readonly #server: Server;
  readonly #shutdown = new AbortController();
  readonly #namespaces: NamespaceController;
  readonly #crds: CrdController;
  readonly #services: ServiceAllocator;
  #inFlight = 0;
  readonly #sockets = new Set<Socket>();
  readonly #tokenMatches: ((presented: string | undefined) => boolean) | undefined;
  readonly #loopbackMatches: (presented: string | undefined) => boolean;
  readonly #inFlightLimiter: InFlightLimiter;
  readonly #connectionStats: ConnectionLimitStats;
  /**
   * The server's own credential, for its in-process clients (the controllers of `fleetyard up`),
   * like kube-apiserver's loopback token: random per start, never written anywhere. It
   * authenticates like the configured token, and its requests are never refused by the
   * max-in-flight limits, so a flood from a kubeconfig holder cannot starve the controllers.
   */
  readonly loopbackToken = generateToken();
  #drained: (() => void) | undefined;
  #url = '';

  constructor(options: ApiServerOptions) {
    const host = options.host ?? '127.0.0.1';
    if (!isLoopbackHost(host) && (options.tls === undefined || options.token === undefined)) {
      throw new Error(`refusing to bind ${host}: a non-loopback address needs TLS and a token`);
    }
    this.#options = options;
    // Every open watch listens on the shutdown signal: thousands of listeners are expected.
    setMaxListeners(0, this.#shutdown.signal);
    this.#tokenMatches = options.token === undefined ? undefined : tokenMatcher(options.token);
    this.#loopbackMatches = tokenMatcher(this.loopbackToken);
    this.#inFlightLimiter = new InFlightLimiter({
      maxRequestsInFlight:
        options.maxRequestsInFlight ?? DEFAULT_INFLIGHT_LIMITS.maxRequestsInFlight,
      maxMutatingRequestsInFlight:
        options.maxMutatingRequestsInFlight ?? DEFAULT_INFLIGHT_LIMITS.maxMutatingRequestsInFlight,
    });
    const clock = options.clock ?? realClock;
    const crdDefinition = customResourceDefinitionResource(clock);
    const resources = gateResources(options.resources, options.featureGates);
    this.registry = new ResourceRegistry([...resources, crdDefinition]);
    this.#services = new ServiceAllocator(options.backend);
    this.store = new ObjectStore({
      backend: options.backend,
      clock,
      admission: composeAdmission(
        namespaceAdmission(options.backend),
        allocation(this.#services),
        defaultTolerationSecondsAdmission({
          notReadyTolerationSeconds: options.defaultNotReadyTolerationSeconds,
          unreachableTolerationSeconds: options.defaultUnreachableTolerationSeconds,
        }),
        // Upstream's default storage plugins, in its order.
        defaultStorageClassAdmission(options.backend),
        storageObjectInUseProtectionAdmission(),
        persistentVolumeClaimResizeAdmission(options.backend),
      ),
      ...(options.uid ? { uid: options.uid } : {}),
      ...(options.random ? { random: options.random } : {}),
    });
    this.services = {
      registry: this.registry,
      store: this.store,
      backend: options.backend,
      clock,
      metrics: createApiMetrics(() => options.backend),
      openapi: lazyOpenApiService({ registry: this.registry, loadBuiltinSchemas }),
      shutdownSignal: this.#shutdown.signal,
      minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? 1800,
    };
    this.#namespaces = new NamespaceController({
      store: this.store,
      registry: this.registry,
      clock,
      onError: (ns, e) => options.onError?.(`namespace ${ns}: finalization failed`, e),
    });
    this.#crds = createCrdController({
      store: this.store,
      registry: this.registry,
      crdDefinition,
      clock,
      onError: (crd, e) => options.onError?.(`customresourcedefinition ${crd}: sync failed`, e),
    });
    const handler = (req: IncomingMessage, res: ServerResponse): void => this.#handle(req, res);
    const limits = connectionLimits(options);
    const httpOptions = serverCreateOptions(limits);
    this.#server = options.tls
      ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key, ...httpOptions }, handler)
      : createHttpServer(httpOptions, handler);
    this.#server.on(this.#options.tls ? 'secureConnection' : 'connection', (socket: Socket) => {
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
    });
    this.#connectionStats = applyConnectionLimits(
      this.#server,
      limits,
      options.tls !== undefined,
      (dropped) =>
        options.onError?.(
          `${limits.maxConnections} connections open: refused ${dropped} new connection(s)`,
          undefined,
        ),
    );
  }

  /** Connections and requests the limits refused so far (tests, diagnostics). */
  limitStats(): {
    readonly droppedConnections: number;
    readonly handshakeTimeouts: number;
    readonly droppedRequests: { readonly readonly: number; readonly mutating: number };
    readonly inFlight: { readonly readonly: number; readonly mutating: number };
  } {
    return {
      droppedConnections: this.#connectionStats.dropped,
      handshakeTimeouts: this.#connectionStats.handshakeTimeouts,
      droppedRequests: { ...this.#inFlightLimiter.dropped },
      inFlight: this.#inFlightLimiter.inFlight,
    };
  }

  /** Records one storage commit (wire it to the backend's `onCommit`). */
  recordCommit(batchSize: number, seconds: number): void {
    this.services.metrics.commit(batchSize, seconds);
  }

  /** The base URL once listening, e.g. `https://127.0.0.1:6443`. */
  get url(): string {
    return this.#url;
  }

  async start(): Promise<string> {
    this.#services.start();
    this.#namespaces.start();
    // Stored CRDs are served before the first request (a restart keeps custom resources served).
    await this.#crds.start();
    const host = this.#options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(this.#options.port ?? 6443, host, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    const addr = this.#server.address() as AddressInfo;
    const scheme = this.#options.tls ? 'https' : 'http';
    const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    this.#url = `${scheme}://${shown}:${addr.port}`;
    // Later: loading the metrics library (~12 ms) is not on the path to the first answers.
    this.services.clock.setTimer(METRICS_LOAD_DELAY_MS, () => void this.services.metrics.load());
    // The CRD tools too, so the first CRD request does not wait for them.
    this.services.clock.setTimer(METRICS_LOAD_DELAY_MS, () => void loadApiExtensionsTools());
    return this.#url;
  }

  /**
   * Graceful stop: ends watch streams, answers new requests 503, waits for in-flight requests
   * (and so for their durable writes), lets every socket flush what it still holds, then
   * closes. The order matters: node's `server.close()` destroys connections whose response
   * has ended even when bytes are still queued on them, which would cut a watch stream's last
   * events and its terminating chunk.
   */
  async stop(): Promise<void> {
    this.#namespaces.stop();
    this.#crds.stop();
    this.services.openapi.close();
    this.#services.stop();
    this.#shutdown.abort();
    if (this.#inFlight > 0) await new Promise<void>((resolve) => (this.#drained = resolve));
    await Promise.all([...this.#sockets].map((socket) => endGracefully(socket, SOCKET_DRAIN_MS)));
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    this.#inFlight++;
    const started = performance.now();
    res.once('close', () => {
      this.#inFlight--;
      this.#options.onRequest?.({
        method: req.method ?? '',
        url: req.url ?? '',
        code: res.statusCode,
        ms: Math.round((performance.now() - started) * 10) / 10,
        userAgent: req.headers['user-agent'] ?? '',
      });
      if (this.#inFlight === 0) this.#drained?.();
    });
    let url: RequestUrl;
    try {
      url = parseRequestUrl(req.url ?? '/');
    } catch (e) {
      sendError(res, toStatusError(e));
      return;
    }
    const loopback = this.#loopbackMatches(bearerTokenFrom(req.headers.authorization));
    if (!loopback && !this.#authorized(req, url.pathname.replace(/\/$/, ''))) {
      sendError(res, unauthorized());
      return;
    }
    if (this.#shutdown.signal.aborted) {
      res.setHeader('Connection', 'close');
      sendError(res, new StatusError(503, 'ServiceUnavailable', 'the server is shutting down'));
      return;
    }
    // After authentication, as upstream's filter chain orders it.
    const pool = requestPool(req.method ?? 'GET', url.pathname, url.searchParams);
    const release = this.#inFlightLimiter.acquire(pool, loopback);
    if (release === undefined) {
      this.services.metrics.droppedRequest(pool === 'mutating' ? 'mutating' : 'readOnly');
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      sendError(res, tooManyRequests());
      return;
    }
    res.once('close', release);
    routeRequest(this.services, req, res, url).catch((e: unknown) => {
      const err = toStatusError(e);
      if (err.code >= 500) this.#options.onError?.('request failed', e);
      sendError(res, err);
    });
  }

  #authorized(req: IncomingMessage, path: string): boolean {
    if (this.#tokenMatches === undefined) return true;
    if (req.headers.authorization === undefined) return PUBLIC_PATHS.has(path);
    return this.#tokenMatches(bearerTokenFrom(req.headers.authorization));
  }
}
