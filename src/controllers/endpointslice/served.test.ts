/**
 * What kubectl needs from the server for EndpointSlices: the group in discovery, the OpenAPI
 * v3 document (explain, validation), strict server-side apply, and the Table columns.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../apiserver/testing/test-server.js';

const BASE = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';

describe('EndpointSlices as served', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  it('is discoverable', async () => {
    const r = await t.request('GET', '/apis/discovery.k8s.io/v1');
    const names = (r.body.resources as { name: string; namespaced: boolean; kind: string }[]).map(
      (x) => [x.name, x.kind, x.namespaced],
    );
    assert.deepEqual(names, [['endpointslices', 'EndpointSlice', true]]);
  });

  it('has an OpenAPI v3 document with the kind schema', async () => {
    const index = await t.request('GET', '/openapi/v3');
    assert.ok(Object.keys(index.body.paths as object).includes('apis/discovery.k8s.io/v1'));
    const doc = await t.request('GET', '/openapi/v3/apis/discovery.k8s.io/v1');
    const schemas = (doc.body.components as { schemas: Record<string, unknown> }).schemas;
    assert.ok(schemas['io.k8s.api.discovery.v1.EndpointSlice']);
  });

  it('applies server-side with strict field validation and prints a Table', async () => {
    const body = {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 's1' },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.0.0.1'], conditions: { ready: true } }],
      ports: [{ name: 'http', port: 80 }],
    };
    const path = `${BASE}/s1?fieldManager=kubectl&fieldValidation=Strict`;
    // Unknown fields: a strict create is a 400; apply fails to type the patch, as upstream.
    const bad = await t.request('POST', `${BASE}?fieldValidation=Strict`, {
      body: { ...body, endpoints: [{ addresses: ['10.0.0.1'], bogus: 1 }] },
    });
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    assert.match(String(bad.body.message), /unknown field "endpoints\[0\]\.bogus"/);
    const ok = await t.request('PATCH', path, {
      body,
      contentType: 'application/apply-patch+yaml',
    });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    const table = await t.request('GET', BASE, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    const rows = table.body.rows as { cells: unknown[] }[];
    assert.deepEqual(rows[0]?.cells.slice(0, 4), ['s1', 'IPv4', '80', '10.0.0.1']);
  });
});
