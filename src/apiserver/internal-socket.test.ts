/**
 * The API server's in-process door (ADR 0020): plain HTTP on a Unix socket, mode 0600, through
 * the same authentication as the TCP port (`src/client/unix-socket.test.ts`: the client's side).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { listenOnUnixSocket, MAX_SOCKET_PATH_BYTES } from './http/unix-socket-listener.js';
import type { ApiServer } from './server.js';
import { startSocketServer } from './testing/socket-server.js';

const TOKEN = 'internal-socket-test-token';

function get(socketPath: string, path: string, token?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath,
        path,
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the API server on its Unix socket', () => {
  let socketPath: string;
  let server: ApiServer;
  let close: () => Promise<void>;
  before(async () => {
    ({ socketPath, server, close } = await startSocketServer(TOKEN));
  });
  after(() => close());

  it('is a socket of mode 0600', () => {
    const st = statSync(socketPath);
    assert.ok(st.isSocket());
    assert.equal(st.mode & 0o777, 0o600);
  });

  it('checks credentials as the TCP port does', async () => {
    assert.equal(await get(socketPath, '/api/v1/namespaces'), 401);
    assert.equal(await get(socketPath, '/api/v1/namespaces', 'wrong'), 401);
    assert.equal(await get(socketPath, '/api/v1/namespaces', TOKEN), 200);
    assert.equal(await get(socketPath, '/api/v1/namespaces', server.loopbackToken), 200);
  });
});

describe('listenOnUnixSocket', () => {
  const serve = (path: string) =>
    listenOnUnixSocket(
      path,
      {},
      (_req, res) => {
        res.end('ok');
      },
      { onConnection: () => undefined, configure: () => undefined },
    );

  it('replaces a socket left by a process that died, and removes its own at close', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fy-sock-'));
    const path = join(dir, 's.sock');
    try {
      // A listener that is never closed leaves its file, as a killed process does.
      const stale = createServer();
      await new Promise<void>((r) => stale.listen(path, r));
      stale.unref();
      const listener = await serve(path);
      assert.equal(await get(path, '/'), 200);
      await listener.close();
      assert.throws(() => statSync(path), /ENOENT/);
      stale.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves any other file at the path alone and fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fy-sock-'));
    const path = join(dir, 'not-a-socket');
    try {
      writeFileSync(path, 'keep me');
      await assert.rejects(serve(path), /not a socket, left alone/);
      assert.ok(statSync(path).isFile());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it(`refuses a path longer than ${MAX_SOCKET_PATH_BYTES} bytes`, async () => {
    await assert.rejects(serve(`/${'x'.repeat(MAX_SOCKET_PATH_BYTES)}`), /socket path longer/);
  });
});
