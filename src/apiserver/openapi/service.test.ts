import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createBuiltinResources } from '../../api/kinds/index.js';
import { sendError, toStatusError } from '../http/respond.js';
import { ResourceRegistry } from '../registry.js';
import {
  createOpenApiService,
  OPENAPI_V2_PROTOBUF_CONTENT_TYPE,
  type OpenApiService,
} from './service.js';
import { widgetDefinition } from './testing/document-checks.js';
import { fixtureSchemas } from './testing/fixture-schemas.js';
import { one, text } from './testing/protobuf-reader.js';
import type { BuiltinSchemaSet } from './types.js';

const KUBECTL_V2_ACCEPT = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const NOW = new Date('2026-03-04T05:06:07Z');

interface Harness {
  readonly registry: ResourceRegistry;
  readonly service: OpenApiService;
  readonly base: string;
  loads: number;
  failNextLoad: boolean;
  close(): Promise<void>;
}

async function start(): Promise<Harness> {
  const builtins = createBuiltinResources();
  const registry = new ResourceRegistry(builtins);
  const h = { loads: 0, failNextLoad: false } as Harness;
  const loadBuiltinSchemas = async (): Promise<BuiltinSchemaSet> => {
    h.loads++;
    await new Promise((r) => setTimeout(r, 5));
    if (h.failNextLoad) {
      h.failNextLoad = false;
      throw new Error('disk on fire');
    }
    return fixtureSchemas(builtins);
  };
  const service = createOpenApiService({ registry, loadBuiltinSchemas, now: () => NOW });
  // What the router does: the handler first, a 404 when it declines, Status errors rendered.
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    service.handleOpenApi(req, res, url.pathname, url.searchParams).then(
      (served) => {
        if (!served) res.writeHead(404, { 'X-Declined': 'yes' }).end();
      },
      (e: unknown) => sendError(res, toStatusError(e)),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return Object.assign(h, {
    registry,
    service,
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      service.close();
      await new Promise<void>((r) => server.close(() => r()));
    },
  });
}

describe('OpenAPI service over HTTP', () => {
  let h: Harness;
  before(async () => {
    h = await start();
  });
  after(() => h.close());

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    fetch(h.base + path, { headers, method, redirect: 'manual' });

  async function root(): Promise<Record<string, { serverRelativeURL: string }>> {
    const res = await get('/openapi/v3');
    assert.equal(res.status, 200);
    return ((await res.json()) as { paths: Record<string, { serverRelativeURL: string }> }).paths;
  }

  it('serves the root with every group-version and an upstream-style ETag', async () => {
    const res = await get('/openapi/v3');
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.match(res.headers.get('etag') ?? '', /^"[0-9A-F]{128}"$/);
    const paths = ((await res.json()) as { paths: Record<string, unknown> }).paths;
    for (const key of ['api/v1', 'apis/apps/v1', 'apis/storage.k8s.io/v1'])
      assert.ok(key in paths, key);
  });

  it('serves each listed URL as immutable JSON', async () => {
    for (const { serverRelativeURL } of Object.values(await root())) {
      const res = await get(serverRelativeURL, { Accept: 'application/json' });
      assert.equal(res.status, 200, serverRelativeURL);
      assert.equal(res.headers.get('cache-control'), 'public, immutable');
      assert.equal(res.headers.get('expires'), 'Thu, 04 Mar 2027 05:06:07 GMT');
      assert.equal(res.headers.get('vary'), 'Accept');
      const hash = new URL(serverRelativeURL, h.base).searchParams.get('hash');
      assert.equal(res.headers.get('etag'), `"${hash}"`);
      assert.equal(((await res.json()) as { openapi: string }).openapi, '3.0.0');
    }
  });

  it('serves a document without a hash as not cacheable', async () => {
    const res = await get('/openapi/v3/apis/apps/v1');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-cache, private');
    assert.equal(res.headers.get('expires'), null);
  });

  it('redirects an outdated hash to the current URL', async () => {
    const res = await get('/openapi/v3/apis/apps/v1?hash=0123');
    assert.equal(res.status, 301);
    assert.equal(res.headers.get('location'), (await root())['apis/apps/v1']!.serverRelativeURL);
    assert.equal((await res.arrayBuffer()).byteLength, 0);
  });

  it('answers 304 to a matching If-None-Match and HEAD without a body', async () => {
    const first = await get('/openapi/v3/api/v1');
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    const again = await get('/openapi/v3/api/v1', { 'If-None-Match': etag });
    assert.equal(again.status, 304);
    const head = await get('/openapi/v3/api/v1', {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.ok(Number(head.headers.get('content-length')) > 1000);
  });

  it('answers 404 for an unknown group-version and 406 for protobuf-only v3', async () => {
    const missing = await get('/openapi/v3/apis/nope.io/v1');
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as { reason: string }).reason, 'NotFound');
    const pb = await get('/openapi/v3/api/v1', {
      Accept: 'application/com.github.proto-openapi.spec.v3.v1.0+protobuf',
    });
    assert.equal(pb.status, 406);
    await pb.arrayBuffer();
  });

  it('serves v2 as protobuf with a content type kubectl can parse, and as JSON on request', async () => {
    for (const path of ['/openapi/v2', '/swagger-2.0.0.pb-v1']) {
      const res = await get(path, { Accept: KUBECTL_V2_ACCEPT });
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('content-type'), OPENAPI_V2_PROTOBUF_CONTENT_TYPE);
      const body = Buffer.from(await res.arrayBuffer());
      assert.equal(text(body, 1), '2.0');
      assert.equal(text(one(body, 2), 2), 'v1.33.0');
    }
    const json = await get('/openapi/v2', { Accept: 'application/json' });
    assert.equal(json.headers.get('content-type'), 'application/json');
    assert.equal(((await json.json()) as { swagger: string }).swagger, '2.0');
    const neither = await get('/openapi/v2', { Accept: 'text/html' });
    assert.equal(neither.status, 406);
    await neither.arrayBuffer();
  });

  it('declines other paths and methods', async () => {
    for (const [path, method] of [
      ['/openapi/v4', 'GET'],
      ['/openapi', 'GET'],
      ['/openapi/v3', 'POST'],
    ] as const) {
      const res = await get(path, {}, method);
      assert.equal(res.headers.get('x-declined'), 'yes', `${method} ${path}`);
      await res.arrayBuffer();
    }
  });

  it('publishes a new CRD group-version and a new hash after a registry change', async () => {
    const before = await root();
    h.registry.add(widgetDefinition());
    const after = await root();
    assert.ok(after['apis/example.com/v1']);
    assert.deepEqual(after['apis/apps/v1'], before['apis/apps/v1']);
    const doc = await get(after['apis/example.com/v1']!.serverRelativeURL);
    const schemas = ((await doc.json()) as { components: { schemas: Record<string, unknown> } })
      .components.schemas;
    assert.ok('com.example.v1.Widget' in schemas);
    h.registry.remove('example.com', 'v1', 'widgets');
    assert.deepEqual(await root(), before);
  });

  it('loaded the schemas once for all of the above', () => {
    assert.equal(h.loads, 1);
  });
});

describe('OpenAPI service schema loading', () => {
  it('loads once for concurrent first requests, and retries after a failure', async () => {
    const h = await start();
    try {
      h.failNextLoad = true;
      const failed = await fetch(`${h.base}/openapi/v3`);
      assert.equal(failed.status, 503);
      await failed.arrayBuffer();
      const answers = await Promise.all([1, 2, 3].map(() => fetch(`${h.base}/openapi/v3`)));
      for (const a of answers) {
        assert.equal(a.status, 200);
        await a.arrayBuffer();
      }
      assert.equal(h.loads, 2);
      const snap = await h.service.snapshot();
      assert.ok(snap.groupVersions.has('api/v1'));
      assert.deepEqual([...snap.missingRefs], []);
    } finally {
      await h.close();
    }
  });
});
