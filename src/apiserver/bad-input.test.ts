import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startTestServer, type TestServer } from './testing/test-server.js';

const CM = '/api/v1/namespaces/default/configmaps';

interface Case {
  name: string;
  method: string;
  path: string;
  raw?: string;
  body?: unknown;
  contentType?: string | null;
  status: number;
  reason?: string;
}

const cases: Case[] = [
  {
    name: 'malformed JSON',
    method: 'POST',
    path: CM,
    raw: '{"metadata":',
    status: 400,
    reason: 'BadRequest',
  },
  { name: 'a JSON array as object', method: 'POST', path: CM, raw: '[1,2]', status: 400 },
  { name: 'a JSON string as object', method: 'POST', path: CM, raw: '"x"', status: 400 },
  {
    name: 'wrong apiVersion',
    method: 'POST',
    path: CM,
    body: { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'x' } },
    status: 400,
  },
  {
    name: 'wrong kind',
    method: 'POST',
    path: CM,
    body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' } },
    status: 400,
  },
  { name: 'metadata not an object', method: 'POST', path: CM, body: { metadata: 7 }, status: 400 },
  {
    name: 'invalid name',
    method: 'POST',
    path: CM,
    body: { metadata: { name: 'Not_Valid' } },
    status: 422,
    reason: 'Invalid',
  },
  {
    name: 'no name',
    method: 'POST',
    path: CM,
    body: { metadata: {} },
    status: 422,
    reason: 'Invalid',
  },
  {
    name: 'invalid label',
    method: 'POST',
    path: CM,
    body: { metadata: { name: 'x', labels: { 'a b': 'c' } } },
    status: 422,
  },
  {
    name: 'namespace mismatch',
    method: 'POST',
    path: CM,
    body: { metadata: { name: 'x', namespace: 'other' } },
    status: 400,
  },
  {
    name: 'name mismatch on PUT',
    method: 'PUT',
    path: `${CM}/x`,
    body: { metadata: { name: 'y' } },
    status: 400,
  },
  {
    name: 'wrong Content-Type',
    method: 'POST',
    path: CM,
    raw: '{}',
    contentType: 'text/plain',
    status: 415,
    reason: 'UnsupportedMediaType',
  },
  {
    name: 'unsupported patch type',
    method: 'PATCH',
    path: `${CM}/x`,
    raw: '{}',
    contentType: 'application/xml',
    status: 415,
  },
  {
    name: 'unknown resource',
    method: 'GET',
    path: '/api/v1/namespaces/default/widgets',
    status: 404,
    reason: 'NotFound',
  },
  { name: 'unknown group', method: 'GET', path: '/apis/example.com/v1/things', status: 404 },
  { name: 'unknown subresource', method: 'GET', path: `${CM}/x/bogus`, status: 404 },
  { name: 'too deep path', method: 'GET', path: `${CM}/x/y/z`, status: 404 },
  {
    name: 'cluster resource in a namespace',
    method: 'GET',
    path: '/api/v1/namespaces/default/nodes',
    status: 404,
  },
  { name: 'bad label selector', method: 'GET', path: `${CM}?labelSelector=%3D%3D%3D`, status: 400 },
  {
    name: 'bad resourceVersion',
    method: 'GET',
    path: `${CM}?watch=true&resourceVersion=abc`,
    status: 400,
  },
  { name: 'bad limit', method: 'GET', path: `${CM}?limit=x`, status: 400 },
  { name: 'POST to an item', method: 'POST', path: `${CM}/x`, body: {}, status: 405 },
  {
    name: 'DELETE on /status',
    method: 'DELETE',
    path: '/apis/apps/v1/namespaces/default/deployments/x/status',
    status: 405,
  },
  {
    name: 'oversize body',
    method: 'POST',
    path: CM,
    raw: `{"metadata":{"name":"big"},"data":{"k":"${'x'.repeat(3 * 1024 * 1024)}"}}`,
    status: 413,
  },
];

describe('bad input', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  for (const c of cases) {
    it(`answers ${c.status} for ${c.name}`, async () => {
      const before = t.backend.currentRevision();
      const r = await t.request(c.method, c.path, {
        ...(c.raw !== undefined ? { raw: c.raw } : {}),
        ...(c.body !== undefined ? { body: c.body } : {}),
        ...(c.contentType !== undefined ? { contentType: c.contentType } : {}),
      });
      assert.equal(r.status, c.status, r.text.slice(0, 300));
      assert.equal(r.body.kind, 'Status');
      assert.equal(r.body.status, 'Failure');
      assert.equal(r.body.code, c.status);
      if (c.reason) assert.equal(r.body.reason, c.reason);
      assert.equal(t.backend.currentRevision(), before, 'nothing was written');
    });
  }

  it('survives random bodies and paths: every answer is a Status or a success, data unchanged', async () => {
    await t.request('POST', CM, { body: { metadata: { name: 'keep' }, data: { a: '1' } } });
    const kept = (await t.request('GET', `${CM}/keep`)).text;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE', 'GET'),
        fc.constantFrom(
          CM,
          `${CM}/keep`,
          `${CM}/fuzz`,
          '/apis/apps/v1/namespaces/default/deployments',
          '/api/v1/nodes',
          '/api/v1/namespaces/x%00y/pods',
          '/apis/apps/v1/namespaces/default/statefulsets/s/scale',
        ),
        fc.oneof(
          fc.json(),
          fc.string(),
          fc.jsonValue().map((v) => JSON.stringify({ metadata: { name: 'fuzz' }, spec: v })),
        ),
        fc.constantFrom(
          'application/json',
          'application/merge-patch+json',
          'application/json-patch+json',
          'text/plain',
          null,
        ),
        async (method, path, raw, contentType) => {
          // Writes aim at a scratch object; a DELETE on a collection would be a legitimate wipe.
          let target =
            method === 'PUT' || method === 'PATCH' || method === 'DELETE'
              ? path.replace('/keep', '/fuzz')
              : path;
          if (method === 'DELETE' && target === CM) target = `${CM}/fuzz`;
          const r = await t.request(method, target, { raw, contentType });
          assert.ok(
            r.status < 500,
            `${method} ${target} ${raw.slice(0, 80)} → ${r.status} ${r.text.slice(0, 200)}`,
          );
          if (r.status >= 400) assert.equal(r.body.kind, 'Status');
        },
      ),
      { numRuns: 300 },
    );
    assert.equal((await t.request('GET', `${CM}/keep`)).text, kept);
    assert.equal((await t.request('GET', '/healthz')).text, 'ok');
  });
});
