/**
 * The server's `upgrade` event: Node hands every request with an `Upgrade` header there, with
 * the raw socket and no response object. Pod streams (`exec`, `attach`, `portforward`) are
 * served from it (`handlers/pod-streams.ts`); any other upgrade request (an `h2c` probe, a
 * WebSocket to a path that streams nothing) is answered as an ordinary request, on a response
 * made for its socket, as Node itself does when no one listens for upgrades.
 *
 * @module
 */
import { type IncomingMessage, ServerResponse, STATUS_CODES } from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { StatusError, statusJson } from '../../api/errors.js';
import { queryFlag } from '../http/query-bool.js';
import { parseRequestUrl, type RequestUrl } from '../http/request-url.js';
import { toStatusError } from '../http/respond.js';
import type { KubeletEndpoints } from '../kubelet/types.js';
import { parseRequestInfo, type RequestInfo, type ResourceRequest } from '../request-info.js';
import type { ApiServices } from './context.js';
import { servePodStream } from './pod-streams.js';

const STREAM_PATH =
  /^\/api\/v1\/namespaces\/[^/]+\/pods\/[^/]+\/(exec|attach|portforward)\/?(\?|$)/;

/** `pods/{name}/log?follow=true`: long-running, as a watch. */
export function isLogFollow(info: ResourceRequest, url: RequestUrl): boolean {
  return (
    info.subresource === 'log' && info.resource === 'pods' && queryFlag(url.searchParams, 'follow')
  );
}

/** A request for a pod stream (answered from the raw socket). */
export function isStreamUpgrade(req: IncomingMessage): boolean {
  return STREAM_PATH.test(req.url ?? '');
}

/** A Status answer written on a socket that was never upgraded; the socket is then closed. */
export function writeUpgradeError(socket: Duplex, e: StatusError): void {
  if (socket.destroyed || !socket.writable) return;
  const body = statusJson(e.status);
  socket.end(
    `HTTP/1.1 ${e.code} ${STATUS_CODES[e.code] ?? ''}\r\n` +
      'Content-Type: application/json\r\n' +
      'Cache-Control: no-cache, private\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** A response for an upgrade request served as an ordinary one; the connection closes after it. */
export function responseOnSocket(req: IncomingMessage, socket: Duplex): ServerResponse | undefined {
  // The upgrade event's socket is the connection's net.Socket (or its TLS socket).
  if (!(socket instanceof Socket)) return undefined;
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket);
  // Left assigned: the socket's close is the response's, which the server counts requests by.
  res.once('finish', () => socket.end());
  return res;
}

/** What the server lends its upgrade handling. */
export interface UpgradeServer {
  readonly services: ApiServices;
  readonly kubelet: KubeletEndpoints | undefined;
  /**
   * The server's authentication and authorization of the upgrade request; rejects with the
   * 401 or 403 Status to write on the socket.
   */
  admit(req: IncomingMessage, url: RequestUrl, info: RequestInfo): Promise<void>;
  /** Serves an ordinary request. */
  serve(req: IncomingMessage, res: ServerResponse): void;
  readonly onError?: ((message: string, error: unknown) => void) | undefined;
}

/**
 * One upgrade request: a pod stream, authenticated as any request and served from the socket
 * (long-running, so neither counted against the in-flight limits nor holding the clock); any
 * other request is served as an ordinary one.
 */
export function serveUpgrade(
  server: UpgradeServer,
  u: { readonly req: IncomingMessage; readonly socket: Duplex; readonly head: Buffer },
): void {
  const { req, socket, head } = u;
  if (!isStreamUpgrade(req)) {
    const res = responseOnSocket(req, socket);
    if (res === undefined) socket.destroy();
    else server.serve(req, res);
    return;
  }
  const fail = (e: unknown): void => {
    const err = toStatusError(e);
    if (err.code >= 500) server.onError?.('pod stream failed', e);
    writeUpgradeError(socket, err);
  };
  try {
    const url = parseRequestUrl(req.url ?? '/');
    const info = parseRequestInfo(req.method ?? 'GET', url.pathname, url.searchParams);
    server
      .admit(req, url, info)
      .then(() => {
        if (server.services.shutdownSignal.aborted) {
          throw new StatusError(503, 'ServiceUnavailable', 'the server is shutting down');
        }
        return servePodStream(server.services, server.kubelet, { req, socket, head, url, info });
      })
      .catch(fail);
  } catch (e) {
    fail(e);
  }
}
