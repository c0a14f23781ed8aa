/**
 * An API server listening on a Unix socket too (ADR 0020), in a private temp dir, for the
 * tests of the socket's two sides (`internal-socket.test.ts`, `client/unix-socket.test.ts`).
 *
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinResources } from '../../api/kinds/index.js';
import { createMemoryBackend } from '../../storage/memory/backend.js';
import { ApiServer } from '../server.js';

export interface SocketServer {
  readonly server: ApiServer;
  readonly socketPath: string;
  close(): Promise<void>;
}

export async function startSocketServer(token: string): Promise<SocketServer> {
  const dir = mkdtempSync(join(tmpdir(), 'fy-sock-'));
  const socketPath = join(dir, 'api.sock');
  const server = new ApiServer({
    backend: createMemoryBackend(),
    resources: builtinResources,
    port: 0,
    token,
    internalSocketPath: socketPath,
  });
  await server.start();
  return {
    server,
    socketPath,
    close: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
