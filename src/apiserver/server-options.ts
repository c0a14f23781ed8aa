/**
 * What an {@link ApiServer} is built from: its storage, kinds, address, credentials, clock,
 * admission defaults, limits and log hooks; and the connection limits those resolve to.
 *
 * @module
 */

import type { ResourceDefinition } from '../api/resource.js';
import type { Backend } from '../storage/backend.js';
import type { Clock } from '../util/clock.js';
import type { ClockControl } from '../util/clock-control.js';
import type { AccessControlOptions } from './access-control.js';
import type { Auditor } from './audit/auditor.js';
import type { FeatureGates } from './feature-gates.js';
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS } from './http/connection-limits.js';
import type { KubeletEndpoints } from './kubelet/types.js';

/** {@link AccessControlOptions} but what the server itself supplies. */
export type AccessOptions = Omit<AccessControlOptions, 'backend' | 'adminToken' | 'loopbackToken'>;

export interface ApiServerOptions {
  readonly backend: Backend;
  readonly resources: readonly ResourceDefinition[];
  /** Address to bind; 127.0.0.1 by default. */
  readonly host?: string;
  /** Port; 0 picks a free one. */
  readonly port?: number;
  /** PEM certificate and key; without them the server speaks plain HTTP (loopback only). */
  readonly tls?: {
    readonly cert: string;
    readonly key: string;
    /**
     * PEM of the CA whose client certificates the server asks for and accepts (kube-apiserver's
     * `--client-ca-file`); absent: clients are not asked for a certificate.
     */
    readonly clientCA?: string;
  };
  /** Bearer token required on every request but the health endpoints. */
  readonly token?: string;
  /**
   * Also serve plain HTTP on this Unix domain socket (mode 0600; its directory must be private),
   * for clients in this process: `fleetyard up`'s controller thread (ADR 0020). Every request
   * is authenticated and authorized as on the TCP port.
   */
  readonly internalSocketPath?: string;
  /**
   * Identities and authorization (`access-control.ts`): with it, the admin `token` is one
   * credential among several (client certificates, component and ServiceAccount tokens),
   * requests without credentials are `system:anonymous`, and RBAC decides. Needs `token`.
   * Absent: the one token (or, without it, nothing) is checked and allows everything, as for
   * the in-process test servers.
   */
  readonly access?: AccessOptions;
  /** The audit log (`--audit-log-path`); absent: nothing is audited, as upstream. */
  readonly auditor?: Auditor;
  readonly clock?: Clock;
  /**
   * The cluster clock's controls (`fleetyard up --clock`): served as the API object
   * `clocks.sim.fleetyard.dev/cluster`, which `kubectl` and `fleetyard clock` read and steer.
   * Absent: that resource is not served.
   */
  readonly clockControl?: ClockControl;
  /**
   * The nodes' kubelets as the server reaches them (`kubelet/types.ts`): pods' `log`, `exec`,
   * `attach`, `portforward` and the Metrics API are served through them (`fleetyard up` passes
   * the simulation's). Absent: logs and streams answer 503, the Metrics API is not served.
   */
  readonly kubelet?: KubeletEndpoints;
  /**
   * The dashboard under `/ui/` (`dashboard/`): its built files and the change recorder's
   * budget. Needs `access` (its sessions are an authenticator). Absent: no `/ui/`.
   */
  readonly dashboard?: { readonly assetsDir?: string; readonly recorderMaxBytes?: number };
  readonly uid?: () => string;
  readonly random?: () => number;
  /**
   * Watches without `timeoutSeconds` end after a random time in [this, 2×this) seconds
   * (kube-apiserver's `--min-request-timeout`, default 1800).
   */
  readonly minRequestTimeoutSeconds?: number;
  /**
   * How long an Event lives after its last write (kube-apiserver's `--event-ttl`): older ones
   * are deleted (`event-ttl.ts`). @default 1 h
   */
  readonly eventTtlMs?: number;
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
   * server refuses it, but it was sent), so a logger redacts it (`util/redact-url.ts`).
   */
  readonly url: string;
  readonly code: number;
  readonly ms: number;
  /** The client's User-Agent (kubectl's names its binary and version). */
  readonly userAgent: string;
}

export function connectionLimits(options: ApiServerOptions): ConnectionLimits {
  const d = DEFAULT_CONNECTION_LIMITS;
  return {
    readHeaderTimeoutMs: options.readHeaderTimeoutMs ?? d.readHeaderTimeoutMs,
    idleTimeoutMs: options.idleTimeoutMs ?? d.idleTimeoutMs,
    requestTimeoutMs: options.requestTimeoutMs ?? d.requestTimeoutMs,
    maxHeaderBytes: options.maxHeaderBytes ?? d.maxHeaderBytes,
    maxConnections: options.maxConnections ?? d.maxConnections,
  };
}
