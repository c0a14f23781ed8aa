/**
 * The standalone operator's two plain-HTTP listeners, as controller-runtime's manager has:
 * `/metrics` (Prometheus text) on the metrics address and `/healthz` + `/readyz` on the probe
 * address. They are separate so the kubelet's probes never wait behind a slow scrape and a
 * NetworkPolicy can admit Prometheus to one port only.
 *
 * Both probes answer `ok` whenever the process serves HTTP (controller-runtime's
 * `healthz.Ping`): a standby replica without the Lease is healthy and ready, otherwise a
 * 2-replica Deployment would never finish rolling out.
 *
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import type { BindAddress } from './operator-flags.js';

export interface OperatorListener {
  /** The bound port (the given one, or the one picked for port 0). */
  readonly port: number;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Serves `/metrics` from `registry`. A failed collection answers 500, not a hung scrape. */
export function serveMetrics(address: BindAddress, registry: Registry): Promise<OperatorListener> {
  return listen(address, (req, res) => {
    if (pathOf(req) !== '/metrics') return notFound(res);
    registry.metrics().then(
      (text) => send(res, 200, registry.contentType, text),
      (err: unknown) => send(res, 500, 'text/plain; charset=utf-8', `${String(err)}\n`),
    );
  });
}

/** Serves `/healthz` and `/readyz` (and their `/livez` alias), 200 `ok`. */
export function serveProbes(address: BindAddress): Promise<OperatorListener> {
  return listen(address, (req, res) => {
    const path = pathOf(req);
    if (path === '/healthz' || path === '/readyz' || path === '/livez') {
      send(res, 200, 'text/plain; charset=utf-8', 'ok');
    } else {
      notFound(res);
    }
  });
}

function listen(address: BindAddress, handler: Handler): Promise<OperatorListener> {
  const server = createServer(handler);
  // A scrape or probe is one short request: 10 s is far above either's timeout (1–10 s).
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // host undefined: Node binds `::` (dual-stack) or 0.0.0.0, as Go's `:8080`.
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      // A TCP listener's address is an AddressInfo (a string only for a pipe, null once closed).
      const bound = server.address();
      const port = typeof bound === 'object' && bound !== null ? bound.port : address.port;
      resolve({ port, close: () => close(server) });
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function pathOf(req: IncomingMessage): string {
  return new URL(req.url ?? '/', 'http://localhost').pathname;
}

function notFound(res: ServerResponse): void {
  send(res, 404, 'text/plain; charset=utf-8', '404 page not found\n');
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
