/**
 * The last step of a graceful stop for one connection: flush, then close. Node's
 * `server.close()` would destroy a connection whose response ended while bytes are still
 * queued on it, cutting a watch stream's last events and its terminating chunk.
 *
 * @module
 */
import type { Socket } from 'node:net';

/** Flushes what the socket holds, then closes it (FIN); destroys it after `timeoutMs`. */
export function endGracefully(socket: Socket, timeoutMs: number): Promise<void> {
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
