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
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { StatusError, unauthorized } from '../api/errors.js';
import { loadBuiltinSchemas } from '../api/schema/builtin/index.js';
import { bearerTokenFrom, generateToken, tokenMatcher } from '../security/token.js';
import { type Clock, holdClock, realClock } from '../util/clock.js';
import type { AccessControl } from './access-control.js';
import { defaultAdmission } from './admission/default-plugins.js';
import { auditOf, recordAuthorization } from './audit/auditor.js';
import { auditRefusal, startAudit } from './audit/request-audit.js';
import { clientCertificateServerOptions } from './authentication/client-cert.js';
import type { RequestIdentity } from './authentication/request-user.js';
import { advertisedAddress, machineInterfaces } from './bootstrap/advertise-address.js';
import { PostStartHooks } from './bootstrap/post-start.js';
import { CLOCK_GROUP, serveClock } from './clock-resource.js';
import type { ChangeRecorder } from './dashboard/change-recorder.js';
import { dashboardOf } from './dashboard/create.js';
import { type Dashboard, isDashboardPath } from './dashboard/routes.js';
import { DEFAULT_EVENT_TTL_MS, EventExpiry } from './event-ttl.js';
import type { ApiExtensions, ApiExtensionsFactory } from './extensions.js';
import { gateResources } from './feature-gates.js';
import type { ApiServices } from './handlers/context.js';
import { isLogFollow, serveUpgrade } from './handlers/pod-upgrade.js';
import {
  applyConnectionLimits,
  applyTimeouts,
  type ConnectionLimitStats,
  type ConnectionLimits,
  serverCreateOptions,
} from './http/connection-limits.js';
import { endGracefully } from './http/end-gracefully.js';
import {
  DEFAULT_INFLIGHT_LIMITS,
  InFlightLimiter,
  RETRY_AFTER_SECONDS,
  requestPool,
  tooManyRequests,
} from './http/inflight-limit.js';
import { markInternal } from './http/internal-requests.js';
import { parseRequestUrl, type RequestUrl } from './http/request-url.js';
import { sendError, sendRefusal, toStatusError } from './http/respond.js';
import { listenOnUnixSocket, type UnixSocketListener } from './http/unix-socket-listener.js';
import { isLoopbackHost } from './loopback.js';
import { createApiMetrics } from './metrics.js';
import { NamespaceController } from './namespaces.js';
import { lazyOpenApiService } from './openapi-loader.js';
import { ResourceRegistry } from './registry.js';
import { parseRequestInfo, type RequestInfo } from './request-info.js';
import { routeRequest } from './router.js';
import { ensureAccessPolicy, serverAccess } from './server-access.js';
import { type ApiServerOptions, connectionLimits } from './server-options.js';
import { KUBERNETES_SERVICE_IP, ServiceAllocator } from './service-allocator.js';
import { ObjectStore } from './store/object-store.js';

export type { ApiServerOptions, RequestLogEntry } from './server-options.js';

/** {@link ApiServerOptions} and what `fleetyard up` adds: the bootstrap controller's inputs. */
export interface ApiServerConfig extends ApiServerOptions {
  /**
   * Keep Service, Endpoints and EndpointSlice `default/kubernetes` as kube-apiserver's
   * bootstrap controller does (`bootstrap/`), advertising `advertiseAddress`
   * (`--advertise-address`; by default the bind address or an interface's, see
   * `advertisedAddress`). Absent: not kept (the in-process test servers).
   */
  readonly kubernetesService?: { readonly advertiseAddress?: string };
  /**
   * Serves kinds beyond the built-in ones (`fleetyard up` passes apiextensions', which serves
   * CustomResourceDefinitions and custom resources). Absent: built-in kinds only.
   */
  readonly extensions?: ApiExtensionsFactory;
}

/**
 * Metrics are recorded from the start but their library loads this long after listening; the
 * extensions prepare then too.
 */
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
  readonly #options: ApiServerConfig;
  readonly #server: Server;
  readonly #shutdown = new AbortController();
  readonly #namespaces: NamespaceController;
  readonly #eventExpiry: EventExpiry;
  readonly #extensions: ApiExtensions | undefined;
  readonly #services: ServiceAllocator;
  readonly #postStart: PostStartHooks;
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
  /** Identities and authorization, when the options ask for them (`access-control.ts`). */
  readonly access: AccessControl | undefined;
  /** The dashboard under `/ui/`, when the options ask for it (`dashboard/routes.ts`). */
  readonly dashboard: Dashboard | undefined;
  readonly #recorder: ChangeRecorder | undefined;
  #drained: (() => void) | undefined;
  #url = '';
  /** The in-process clients' door (`internalSocketPath`), once listening. */
  #internal: UnixSocketListener | undefined;
  readonly #listen: {
    readonly options: ServerOptions;
    readonly limits: ConnectionLimits;
    readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  };

  constructor(options: ApiServerConfig) {
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
    this.registry = new ResourceRegistry(gateResources(options.resources, options.featureGates));
    const access = serverAccess({
      access: options.access,
      token: options.token,
      loopbackToken: this.loopbackToken,
      registry: this.registry,
      backend: options.backend,
      clock,
    });
    this.access = access?.control;
    this.#services = new ServiceAllocator(options.backend);
    this.store = new ObjectStore({
      backend: options.backend,
      clock,
      admission: defaultAdmission({
        backend: options.backend,
        clock,
        services: this.#services,
        notReadyTolerationSeconds: options.defaultNotReadyTolerationSeconds,
        unreachableTolerationSeconds: options.defaultUnreachableTolerationSeconds,
      }),
      ...(options.uid ? { uid: options.uid } : {}),
      ...(options.random ? { random: options.random } : {}),
    });
    this.#extensions = options.extensions?.({
      store: this.store,
      registry: this.registry,
      clock,
      ...(options.onError ? { onError: options.onError } : {}),
    });
    // After the built-in kinds, as their discovery order has always been.
    for (const def of this.#extensions?.resources ?? []) this.registry.add(def);
    this.services = {
      registry: this.registry,
      store: this.store,
      backend: options.backend,
      clock,
      metrics: createApiMetrics(() => options.backend),
      openapi: lazyOpenApiService({ registry: this.registry, loadBuiltinSchemas }),
      shutdownSignal: this.#shutdown.signal,
      minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? 1800,
      ...(this.#extensions !== undefined ? { extensions: this.#extensions } : {}),
      ...(access !== undefined ? { reviews: access.control, admit: access.admit } : {}),
      ...(this.access?.tokenIssuer !== undefined ? { tokens: this.access.tokenIssuer } : {}),
      ...(options.clockControl !== undefined
        ? { servedClock: serveClock(options.clockControl, options.onError) }
        : {}),
    };
    const dashboard = dashboardOf(options, access?.control, clock, this.#shutdown.signal);
    this.dashboard = dashboard.dashboard;
    this.#recorder = dashboard.recorder;
    this.#namespaces = new NamespaceController({
      store: this.store,
      registry: this.registry,
      clock,
      onError: (ns, e) => options.onError?.(`namespace ${ns}: finalization failed`, e),
    });
    this.#eventExpiry = eventExpiryOf(options, clock);
    this.#postStart = new PostStartHooks({
      store: this.store,
      registry: this.registry,
      clock,
      metricsApi: options.kubelet !== undefined,
      ...(options.onError ? { onError: options.onError } : {}),
    });
    const handler = (req: IncomingMessage, res: ServerResponse): void => this.#handle(req, res);
    const limits = connectionLimits(options);
    const httpOptions = serverCreateOptions(limits);
    this.#listen = { options: httpOptions, limits, handler };
    this.#server = createListener(options.tls, httpOptions, handler);
    // Pod streams (exec, attach, portforward) upgrade; other upgrade requests are served plainly.
    this.#server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      serveUpgrade(
        {
          services: this.services,
          kubelet: options.kubelet,
          admit: (r, url, info) => this.#admitUpgrade(r, url, info),
          serve: (r, res) => this.#handle(r, res),
          onError: options.onError,
        },
        { req, socket, head },
      ),
    );
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
    // From the stored state as it is now: the run's history starts here.
    this.#recorder?.start();
    this.#namespaces.start();
    this.#eventExpiry.start();
    // What extensions store (CRDs) is served before the first request: a restart keeps
    // custom resources served.
    await this.#extensions?.start();
    const host = this.#options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(this.#options.port ?? 6443, host, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    const addr = this.#server.address();
    // Listening on a host and port gives an address object (a string is a pipe's path).
    if (addr === null || typeof addr === 'string') throw new Error('not listening on TCP');
    const scheme = this.#options.tls ? 'https' : 'http';
    const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    this.#url = `${scheme}://${shown}:${addr.port}`;
    if (this.#options.internalSocketPath !== undefined) {
      this.#internal = await listenOnUnixSocket(
        this.#options.internalSocketPath,
        this.#listen.options,
        this.#listen.handler,
        {
          onConnection: (socket) => {
            this.#sockets.add(socket);
            socket.once('close', () => this.#sockets.delete(socket));
          },
          configure: (internal) => applyTimeouts(internal, this.#listen.limits),
        },
      );
    }
    // Later: loading the metrics library (~12 ms) is not on the path to the first answers.
    this.services.clock.setTimer(METRICS_LOAD_DELAY_MS, () => void this.services.metrics.load());
    // The extensions' preparation too (the CRD tools), so their first request rarely waits.
    const extensions = this.#extensions;
    if (extensions !== undefined) {
      this.services.clock.setTimer(METRICS_LOAD_DELAY_MS, () => {
        extensions.prepare().catch((e: unknown) => {
          this.#options.onError?.('api extensions: preparation failed', e);
        });
      });
    }
    return this.#url;
  }

  /**
   * Starts the post-start hooks (`bootstrap/post-start.ts`: system PriorityClasses, local
   * APIServices, API Priority and Fairness objects, the default ServiceCIDR, and the
   * `kubernetes` Service when the options ask for it), once listening: their first passes are
   * done on return. Separate from {@link start}, so
   * `fleetyard up` runs it after writing the kubeconfig: that write stays the first of a start,
   * and a full disk still fails the start there, rather than this pass's failed write giving
   * the store's space reserve back for the kubeconfig to take.
   */
  async startKubernetesService(): Promise<void> {
    // With authorization enforced, upstream's `rbac/bootstrap-roles` hook comes first: nothing
    // but system:masters is allowed anything before it.
    if (this.access !== undefined) {
      await ensureAccessPolicy(this.store, this.registry, this.#options.onError);
    }
    const wanted = this.#options.kubernetesService;
    const address = this.#server.address();
    if (wanted === undefined || address === null || typeof address === 'string') {
      await this.#postStart.start(undefined);
      return;
    }
    const publicIP = advertisedAddress({
      host: this.#options.host ?? '127.0.0.1',
      advertiseAddress: wanted.advertiseAddress,
      interfaces: machineInterfaces(),
    });
    if (publicIP === undefined) {
      this.#options.onError?.(
        'no IPv4 address to advertise (set --advertise-address): the kubernetes Service has no endpoints',
        undefined,
      );
    }
    await this.#postStart.start({
      serviceIP: KUBERNETES_SERVICE_IP,
      securePort: address.port,
      publicIP,
    });
  }

  /**
   * Graceful stop: ends watch streams, answers new requests 503, waits for in-flight requests
   * (and so for their durable writes), lets every socket flush what it still holds, then
   * closes. The order matters: node's `server.close()` destroys connections whose response
   * has ended even when bytes are still queued on them, which would cut a watch stream's last
   * events and its terminating chunk.
   */
  async stop(): Promise<void> {
    this.#postStart.stop();
    this.#recorder?.stop();
    this.#namespaces.stop();
    this.#eventExpiry.stop();
    this.#extensions?.stop();
    this.services.openapi.close();
    this.#services.stop();
    this.#shutdown.abort();
    if (this.#inFlight > 0) await new Promise<void>((resolve) => (this.#drained = resolve));
    await Promise.all([...this.#sockets].map((socket) => endGracefully(socket, SOCKET_DRAIN_MS)));
    await this.#internal?.close();
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
    if (this.dashboard !== undefined && isDashboardPath(url.pathname)) {
      this.dashboard.serve(req, res, url).catch((e: unknown) => sendError(res, toStatusError(e)));
      return;
    }
    const access = this.access;
    if (access !== undefined) {
      access.identify(req, req.url ?? '').then(
        (identified) => {
          if ('refused' in identified) {
            auditRefusal(this.#options.auditor, req, url);
            sendRefusal(res, identified.refused, identified.plainTextBody);
            return;
          }
          startAudit(this.#options.auditor, {
            req,
            res,
            url,
            identity: identified.identity,
            longRunning: isLongRunning(req, url),
          });
          // The server's own clients (the loopback token, the components' tokens) are exempt
          // from max-in-flight and their watches counted by the virtual clock.
          const internal = access.isInternal(identified.identity);
          this.#serve(req, res, url, internal, identified.identity);
        },
        (e: unknown) => sendError(res, toStatusError(e)),
      );
      return;
    }
    const presented = bearerTokenFrom(req.headers.authorization);
    const loopback = this.#loopbackMatches(presented);
    if (!loopback && !this.#authorized(req, presented, url.pathname.replace(/\/$/, ''))) {
      sendError(res, unauthorized());
      return;
    }
    this.#serve(req, res, url, loopback, undefined);
  }

  /** After authentication: limits, authorization (with access control), then the handlers. */
  #serve(
    req: IncomingMessage,
    res: ServerResponse,
    url: RequestUrl,
    loopback: boolean,
    identity: RequestIdentity | undefined,
  ): void {
    if (this.#shutdown.signal.aborted) {
      res.setHeader('Connection', 'close');
      sendError(res, new StatusError(503, 'ServiceUnavailable', 'the server is shutting down'));
      return;
    }
    // After authentication, as upstream's filter chain orders it.
    const method = req.method ?? 'GET';
    const info = parseRequestInfo(method, url.pathname, url.searchParams);
    const pool = requestPool(method, url.pathname, info);
    const release = this.#inFlightLimiter.acquire(pool, loopback);
    if (release === undefined) {
      this.services.metrics.droppedRequest(pool === 'mutating' ? 'mutating' : 'readOnly');
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      sendError(res, tooManyRequests());
      return;
    }
    res.once('close', release);
    if (identity !== undefined && this.access !== undefined) {
      const { result, denied } = this.access.authorizeRequest(
        identity,
        info,
        method,
        url.searchParams,
      );
      recordAuthorization(auditOf(req), result);
      if (denied !== undefined) {
        sendError(res, denied);
        return;
      }
    }
    if (loopback) markInternal(req);
    // The cluster clock waits while a request is served; a watch only until it is set up
    // (its events are counted as they are written, see watch.ts). Reading or driving the
    // Clock itself is not cluster work: `fleetyard clock advance` polls it to see quiescence.
    const clockRequest = info.kind === 'resource' && info.group === CLOCK_GROUP;
    const served = clockRequest ? () => undefined : holdClock(this.services.clock);
    // A followed log is long-running too: held only until it is set up.
    const watch = info.kind === 'resource' && (info.verb === 'watch' || isLogFollow(info, url));
    if (!watch) res.once('close', served);
    routeRequest(this.services, req, res, url, info, this.#options.kubelet)
      .catch((e: unknown) => {
        const err = toStatusError(e);
        if (err.code >= 500) this.#options.onError?.('request failed', e);
        sendError(res, err);
      })
      .finally(() => {
        if (watch) served();
      });
  }

  /** Authentication, then (with access control) authorization, of a pod stream's upgrade. */
  async #admitUpgrade(req: IncomingMessage, url: RequestUrl, info: RequestInfo): Promise<void> {
    const presented = bearerTokenFrom(req.headers.authorization);
    const access = this.access;
    if (access === undefined) {
      const path = url.pathname.replace(/\/$/, '');
      if (!this.#loopbackMatches(presented) && !this.#authorized(req, presented, path)) {
        throw unauthorized();
      }
      return;
    }
    const identified = await access.identify(req, req.url ?? '');
    if ('refused' in identified) throw identified.refused;
    const { denied } = access.authorizeRequest(
      identified.identity,
      info,
      req.method ?? 'GET',
      url.searchParams,
    );
    if (denied !== undefined) throw denied;
  }

  #authorized(req: IncomingMessage, presented: string | undefined, path: string): boolean {
    if (this.#tokenMatches === undefined) return true;
    if (req.headers.authorization === undefined) return PUBLIC_PATHS.has(path);
    return this.#tokenMatches(presented);
  }
}

/** kube-apiserver's `--event-ttl` (`event-ttl.ts`). */
function eventExpiryOf(options: ApiServerConfig, clock: Clock): EventExpiry {
  return new EventExpiry({
    backend: options.backend,
    clock,
    ttlMs: options.eventTtlMs ?? DEFAULT_EVENT_TTL_MS,
    ...(options.onError ? { onError: options.onError } : {}),
  });
}

/** HTTPS (asking for client certificates of `tls.clientCA`, when given), or plain HTTP. */
function createListener(
  tls: ApiServerOptions['tls'],
  httpOptions: ReturnType<typeof serverCreateOptions>,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Server {
  if (tls === undefined) return createHttpServer(httpOptions, handler);
  const clientCerts =
    tls.clientCA === undefined ? {} : clientCertificateServerOptions([tls.clientCA]);
  return createHttpsServer(
    { cert: tls.cert, key: tls.key, ...clientCerts, ...httpOptions },
    handler,
  );
}

/** A watch or a followed log (held open: audited with a `ResponseStarted` event). */
function isLongRunning(req: IncomingMessage, url: RequestUrl): boolean {
  const info = parseRequestInfo(req.method ?? 'GET', url.pathname, url.searchParams);
  return info.kind === 'resource' && (info.verb === 'watch' || isLogFollow(info, url));
}
