/**
 * The client's `socketPath` (ADR 0020): ApiClient requests over the API server's Unix socket,
 * and the refusal of a socket with an https URL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSocketServer } from '../apiserver/testing/socket-server.js';
import { ApiClient, isNotFound } from './api-client.js';
import { HttpListerWatcher } from './http-lister-watcher.js';

const TOKEN = 'unix-socket-client-test-token';

describe('ApiClient through a Unix socket', () => {
  let socketPath: string;
  let close: () => Promise<void>;
  before(async () => {
    ({ socketPath, close } = await startSocketServer(TOKEN));
  });
  after(() => close());

  it('serves ApiClient writes and reads through `socketPath`', async () => {
    const client = new ApiClient({ server: 'http://localhost', socketPath, token: TOKEN });
    try {
      const ref = { group: '', version: 'v1', plural: 'namespaces' };
      await client.create(ref, { metadata: { name: 'through-socket', labels: { a: '1' } } });
      const got = await client.get({ ...ref, name: 'through-socket' });
      assert.equal(got.metadata?.labels?.a, '1');
      await assert.rejects(client.get({ ...ref, name: 'missing' }), isNotFound);
    } finally {
      client.close();
    }
  });

  it('a client refuses a socket with an https URL (there is no TLS on it)', () => {
    assert.throws(
      () => new ApiClient({ server: 'https://localhost', socketPath, token: TOKEN }),
      /plain HTTP/,
    );
  });

  it('lists through `socketPath` with the lister-watcher', async () => {
    const lw = new HttpListerWatcher({
      server: 'http://localhost',
      socketPath,
      token: TOKEN,
      path: '/api/v1/namespaces',
    });
    const list = await lw.list({});
    assert.ok(list.items.some((n) => n.metadata?.name === 'through-socket'));
  });
});
