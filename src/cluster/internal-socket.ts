/**
 * Where `fleetyard up` puts the API server's in-process door (ADR 0020): `api.sock` in the data
 * dir (mode 0700), or, when that path is longer than a Unix socket path may be (107 bytes), a
 * fresh private directory under the system's temp dir, removed at stop.
 *
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MAX_SOCKET_PATH_BYTES } from '../apiserver/http/unix-socket-listener.js';

export interface InternalSocketPlace {
  readonly path: string;
  /** Removes what was made for the socket beyond the data dir (nothing when it is in it). */
  release(): Promise<void>;
}

export async function internalSocketPlace(dataDir: string): Promise<InternalSocketPlace> {
  const inDataDir = resolve(dataDir, 'api.sock');
  if (Buffer.byteLength(inDataDir) <= MAX_SOCKET_PATH_BYTES) {
    return { path: inDataDir, release: async () => undefined };
  }
  // mkdtemp creates the directory 0700.
  const dir = await mkdtemp(join(tmpdir(), 'fleetyard-'));
  return {
    path: join(dir, 'api.sock'),
    release: () => rm(dir, { recursive: true, force: true }),
  };
}
