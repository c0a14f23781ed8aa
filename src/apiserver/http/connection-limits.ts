/**
 * Connection limits: how long a client may take to send a request's headers, how long an idle
 * keep-alive connection stays open, how large the headers may be, and how many connections may
 * be open at once. The values follow kube-apiserver's `http.Server` (k8s.io/apiserver
 * `pkg/server/secure_serving.go`): `ReadHeaderTimeout: 32s`, `IdleTimeout: 90s`,
 * `MaxHeaderBytes: 1 << 20`. Upstream bounds no connection count; fleetyard does (below).
 *
 * How each is enforced in Node 20 (measured, see `connection-limits.test.ts`):
 *
 * - Headers: node's `headersTimeout` is absolute from the first byte of a request (or from the
 *   end of the TLS handshake for the first one), but only checked every
 *   `connectionsCheckingInterval` (30 s by default): with the old 60 s timeout a slow client
 *   lived up to 90 s. The interval here is a quarter of the timeout, at most 1 s, so a client
 *   is cut between 32 and 33 s, answered `408 Request Timeout`.
 * - The TLS handshake: node's `handshakeTimeout` (120 s) is an *inactivity* timeout, so a client
 *   sending one handshake byte every 10 s was never closed, and node's header clock only starts
 *   once the handshake is done. Go bounds the handshake by the read-header timeout too; here a
 *   timer per raw connection destroys it unless the handshake completes within 32 s.
 * - Idle keep-alive connections: node's `keepAliveTimeout`, an inactivity timeout from the end
 *   of the last response; it answers `Keep-Alive: timeout=90` and closes 1 s later (node's own
 *   grace, so a client reusing the connection at the advertised limit does not race the close).
 *   Once a byte of the next request arrives, the header clock above takes over.
 * - Bodies: node's `requestTimeout` bounds receiving a whole request, 60 s as upstream's
 *   `--request-timeout` (upstream also bounds handling; here only receipt, which is what a
 *   slow client controls); it never cuts a response, so watches are unaffected.
 * - Header size: node's `maxHeaderSize` (request line and headers, default 16 KiB); past it node
 *   answers `431 Request Header Fields Too Large` and closes, as Go does.
 * - Connections: node's `maxConnections`; a connection past it is closed as soon as it is
 *   accepted (counted raw, before TLS).
 *
 * @module
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';

export interface ConnectionLimits {
  /** Time to send a request's headers, and to finish the TLS handshake. Upstream: 32 s. */
  readonly readHeaderTimeoutMs: number;
  /** How long an idle keep-alive connection is kept. Upstream: 90 s. */
  readonly idleTimeoutMs: number;
  /** Time to receive a whole request, body included (408 after). Upstream: 60 s. */
  readonly requestTimeoutMs: number;
  /** Request line and headers, in bytes. Upstream: 1 MiB (`1 << 20`). */
  readonly maxHeaderBytes: number;
  /** Open connections (0: no limit). Upstream: no limit. */
  readonly maxConnections: number;
}

/**
 * 1,024 connections: the classic per-process descriptor limit, and about ten times what
 * `fleetyard up` uses itself (its controllers hold ~20 watches and pools of up to 32 sockets per
 * client). Each connection costs ~40 KiB of TLS state, and up to `maxHeaderBytes` while its
 * headers arrive, so the worst case stays near 1 GiB for at most 32 s.
 */
export const DEFAULT_MAX_CONNECTIONS = 1024;

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  readHeaderTimeoutMs: 32_000,
  idleTimeoutMs: 90_000,
  requestTimeoutMs: 60_000,
  maxHeaderBytes: 1 << 20,
  maxConnections: DEFAULT_MAX_CONNECTIONS,
};

/** How often node looks for connections past the header timeout: a quarter of it, at most 1 s. */
export function checkingIntervalMs(readHeaderTimeoutMs: number): number {
  return Math.max(10, Math.min(1000, Math.floor(readHeaderTimeoutMs / 4)));
}

/** The options node's `createServer` takes for these limits (the rest are set afterwards). */
export function serverCreateOptions(limits: ConnectionLimits): {
  maxHeaderSize: number;
  connectionsCheckingInterval: number;
} {
  return {
    maxHeaderSize: limits.maxHeaderBytes,
    connectionsCheckingInterval: checkingIntervalMs(limits.readHeaderTimeoutMs),
  };
}

/**
 * The request, header and idle timeouts alone: what the in-process socket (`unix-socket-
 * listener.ts`) shares with the TCP port. Node's requestTimeout bounds *receiving* a request
 * (headers and body), not the response, so watches stream on while a body sent a byte at a
 * time cannot hold an in-flight slot longer than upstream's 60 s `--request-timeout`
 * (measured: 408 after the timeout, a 5 s streamed response untouched).
 */
export function applyTimeouts(server: Server, limits: ConnectionLimits): void {
  server.requestTimeout = limits.requestTimeoutMs;
  server.headersTimeout = limits.readHeaderTimeoutMs;
  server.keepAliveTimeout = limits.idleTimeoutMs;
}

/** Counts what the limits refused, for tests and logs. */
export interface ConnectionLimitStats {
  /** Connections closed at accept because `maxConnections` were open. */
  dropped: number;
  /** TLS handshakes not finished within the read-header timeout. */
  handshakeTimeouts: number;
}

/**
 * Applies the limits to a server made with {@link serverCreateOptions}. `onDrop` is called for
 * connections refused at the limit (at most once per `DROP_REPORT_MS`, with the count since).
 */
export function applyConnectionLimits(
  server: Server,
  limits: ConnectionLimits,
  tls: boolean,
  onDrop?: (droppedSinceLastReport: number) => void,
): ConnectionLimitStats {
  const stats: ConnectionLimitStats = { dropped: 0, handshakeTimeouts: 0 };
  applyTimeouts(server, limits);
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
  let unreported = 0;
  let lastReport = 0;
  server.on('drop', () => {
    stats.dropped++;
    unreported++;
    const now = Date.now();
    if (onDrop !== undefined && now - lastReport >= DROP_REPORT_MS) {
      lastReport = now;
      onDrop(unreported);
      unreported = 0;
    }
  });
  if (tls) watchHandshakes(server, limits.readHeaderTimeoutMs, stats);
  server.on('clientError', answerClientError);
  return stats;
}

/** Node's own answers to a request it could not parse or wait for (`_http_server.js`). */
const CLIENT_ERROR_STATUS: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/**
 * How long a connection answered with an error stays half-open before it is destroyed: Go's
 * `closeWriteAndWait` (net/http `rstAvoidanceDelay`, 500 ms). Node answers the same status but
 * destroys the socket at once; a client still sending (the rest of 1 MiB of headers) then gets a
 * TCP reset, and a reset makes its kernel drop the answer it had not read yet.
 */
const RST_AVOIDANCE_DELAY_MS = 500;

/** Node's answer to a client error (same status and bytes), then Go's half-close and wait. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (answered.has(socket)) return;
  answered.add(socket);
  if (socket.writable && bytesWritten(socket) === 0) {
    const status = CLIENT_ERROR_STATUS[err.code ?? ''] ?? '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
    // What the client still sends is read and dropped (not parsed again), so the close that
    // follows is a FIN, not a reset.
    socket.removeAllListeners('data');
    socket.on('data', () => {});
    setTimeout(() => socket.destroy(), RST_AVOIDANCE_DELAY_MS).unref();
    return;
  }
  socket.destroy();
}

/** Sockets already answered: a parser in error may report the same error again. */
const answered = new WeakSet<Duplex>();

function bytesWritten(socket: Duplex): number {
  return 'bytesWritten' in socket && typeof socket.bytesWritten === 'number'
    ? socket.bytesWritten
    : 0;
}

/** Refused connections are reported at most once a minute: a flood must not flood the log. */
const DROP_REPORT_MS = 60_000;

/** Destroys raw connections whose TLS handshake is not done within `timeoutMs` (absolute). */
function watchHandshakes(server: Server, timeoutMs: number, stats: ConnectionLimitStats): void {
  // Keyed by identity only: the raw socket, as seen again through its TLS wrapper.
  const pending = new WeakMap<object, NodeJS.Timeout>();
  server.on('connection', (raw: Socket) => {
    const timer = setTimeout(() => {
      stats.handshakeTimeouts++;
      raw.destroy();
    }, timeoutMs);
    timer.unref();
    pending.set(raw, timer);
    raw.once('close', () => clearTimeout(timer));
  });
  server.on('secureConnection', (socket: TLSSocket) => {
    // The TLS socket wraps the raw one (`_parent`, node's own link; not in its typings).
    const raw = '_parent' in socket ? socket._parent : undefined;
    if (typeof raw !== 'object' || raw === null) return;
    clearTimeout(pending.get(raw));
    pending.delete(raw);
  });
}
