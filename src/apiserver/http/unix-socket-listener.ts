/**
 * A second door into the API server for clients in its own process: plain HTTP on a Unix
 * domain socket, mode 0600, in a private directory. `fleetyard up`'s controller thread uses it
 * instead of HTTPS to 127.0.0.1 (ADR 0020): TLS on both ends of a request between two threads of
 * one process protects nothing the kernel does not already, and cost that thread about a fifth
 * of its CPU (handshakes, encryption, records per watch event). Requests through it pass the
 * same handler as every other: the bearer token is still checked, RBAC still decides.
 *
 * @module
 */
import { chmod, lstat, unlink } from 'node:fs/promises';
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';

/**
 * Linux's `sun_path` holds 108 bytes with its terminating NUL; a longer path cannot be bound,
 * so callers choose another directory for it.
 */
export const MAX_SOCKET_PATH_BYTES = 107;

export interface UnixSocketListener {
  readonly path: string;
  /** Stops accepting, closes idle connections, removes the socket file. */
  close(): Promise<void>;
}

/**
 * Listens on `path` (replacing a socket file left by a process that died; any other file there
 * is an error, never removed), serving every request with `handler`. `onConnection` sees each
 * connection, so the server's graceful stop can drain it like a TCP one; `configure` sets the
 * server's timeouts as the TCP port's (without them Node closes an idle keep-alive connection
 * after 5 s, and a controller's next burst pays a new connection per request).
 */
export async function listenOnUnixSocket(
  path: string,
  options: ServerOptions,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  hooks: {
    readonly onConnection: (socket: Socket) => void;
    readonly configure: (server: Server) => void;
  },
): Promise<UnixSocketListener> {
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    throw new Error(`socket path longer than ${MAX_SOCKET_PATH_BYTES} bytes: ${path}`);
  }
  await removeStaleSocket(path);
  const server: Server = createServer(options, handler);
  hooks.configure(server);
  server.on('connection', hooks.onConnection);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // The directory is private already (0700); the file's own mode says so too.
  await chmod(path, 0o600);
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        // Node removes the socket file when a listening server closes.
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

async function removeStaleSocket(path: string): Promise<void> {
  const stat = await lstat(path).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  });
  if (stat === undefined) return;
  if (!stat.isSocket()) throw new Error(`not a socket, left alone: ${path}`);
  await unlink(path);
}
