import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { parseAccept } from '../http/media.js';
import { sendError, toStatusError } from '../http/respond.js';
import { parseRequestInfo } from '../request-info.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { handleComponentStatus } from './component-status.js';

/** Serves only `componentstatuses`, through the handler, as the router would hand them. */
function componentStatusServer(t: TestServer): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const info = parseRequestInfo(req.method ?? 'GET', url.pathname, url.searchParams);
    const def = t.server.registry.get('', 'v1', 'componentstatuses');
    if (info.kind !== 'resource' || def === undefined) throw new Error('not a resource');
    const call = {
      req,
      res,
      info,
      def,
      query: url.searchParams,
      accept: parseAccept(req.headers.accept),
    };
    handleComponentStatus(t.server.services, call).catch((e: unknown) =>
      sendError(res, toStatusError(e)),
    );
  });
}

interface Answer {
  readonly status: number;
  readonly warning: string | string[] | undefined;
  readonly body: Record<string, unknown>;
}

function call(
  port: number,
  method: string,
  path: string,
  accept = 'application/json',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ port, method, path, headers: { accept } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          warning: res.headers.warning,
          body: JSON.parse(text),
        }),
      );
    });
    req.on('error', reject);
    req.end(method === 'GET' || method === 'DELETE' ? undefined : '{}');
  });
}

describe('componentstatuses', () => {
  let t: TestServer;
  let server: Server;
  let port: number;
  before(async () => {
    t = await startTestServer();
    server = componentStatusServer(t);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.close();
    await t.close();
  });

  it('lists the scheduler, the controller manager and etcd, healthy, with the deprecation warning', async () => {
    const r = await call(port, 'GET', '/api/v1/componentstatuses');
    assert.equal(r.status, 200);
    assert.match(String(r.warning), /v1 ComponentStatus is deprecated in v1\.19\+/);
    assert.equal(r.body.kind, 'ComponentStatusList');
    const items = r.body.items as { metadata: { name: string }; conditions: unknown[] }[];
    assert.deepEqual(
      items.map((i) => i.metadata.name),
      ['controller-manager', 'etcd-0', 'scheduler'],
    );
    for (const i of items) {
      assert.deepEqual(i.conditions, [{ type: 'Healthy', status: 'True', message: 'ok' }]);
    }
  });

  it('gets one by name, and answers 404 for an unknown one', async () => {
    const r = await call(port, 'GET', '/api/v1/componentstatuses/etcd-0');
    assert.equal(r.status, 200);
    assert.equal((r.body.metadata as { name: string }).name, 'etcd-0');
    assert.equal((await call(port, 'GET', '/api/v1/componentstatuses/nope')).status, 404);
  });

  it('prints kubectl get cs columns as a Table', async () => {
    const r = await call(
      port,
      'GET',
      '/api/v1/componentstatuses',
      'application/json;as=Table;v=v1;g=meta.k8s.io',
    );
    assert.equal(r.status, 200);
    const cols = (r.body.columnDefinitions as { name: string }[]).map((c) => c.name);
    assert.deepEqual(cols, ['Name', 'Status', 'Message', 'Error']);
    const rows = r.body.rows as { cells: unknown[] }[];
    assert.deepEqual(rows[0]?.cells, ['controller-manager', 'Healthy', 'ok', '']);
  });

  for (const [method, path] of [
    ['POST', '/api/v1/componentstatuses'],
    ['PUT', '/api/v1/componentstatuses/scheduler'],
    ['DELETE', '/api/v1/componentstatuses/scheduler'],
    ['PATCH', '/api/v1/componentstatuses/scheduler'],
  ] as const) {
    it(`refuses ${method} with 405 MethodNotSupported`, async () => {
      const r = await call(port, method, path);
      assert.equal(r.status, 405);
      assert.equal(r.body.reason, 'MethodNotAllowed');
    });
  }
});
