/**
 * Status bodies byte for byte as kube-apiserver writes them: Go's struct order and `omitempty`
 * (no `"group": ""` for core resources; `details` before `code`). Clients compare these strings
 * (the official Python client's e2e tests do). Issue 14, item 2.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './testing/test-server.js';

let t: TestServer;

describe('Status bodies in upstream byte order', () => {
  before(async () => {
    t = await startTestServer();
    await t.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'here' } },
    });
  });
  after(() => t.close());

  it('404 for a core resource: no group, details before code', async () => {
    const r = await t.request('GET', '/api/v1/namespaces/default/configmaps/nope');
    assert.equal(
      r.text,
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"nope\\" not found","reason":"NotFound","details":{"name":"nope","kind":"configmaps"},"code":404}\n',
    );
  });

  it('404 for a grouped resource: the group between name and kind', async () => {
    const r = await t.request('GET', '/apis/apps/v1/namespaces/default/deployments/nope');
    assert.equal(
      r.text,
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \\"nope\\" not found","reason":"NotFound","details":{"name":"nope","group":"apps","kind":"deployments"},"code":404}\n',
    );
  });

  it('409 AlreadyExists', async () => {
    const r = await t.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'here' } },
    });
    assert.equal(
      r.text,
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"here\\" already exists","reason":"AlreadyExists","details":{"name":"here","kind":"configmaps"},"code":409}\n',
    );
  });

  it("Go's HTML-safe escapes: <, > and & as \\u003c, \\u003e and \\u0026", async () => {
    const r = await t.request('GET', '/api/v1/namespaces/default/configmaps/%3Ca%26b%3E');
    assert.equal(
      r.text,
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"\\u003ca\\u0026b\\u003e\\" not found","reason":"NotFound","details":{"name":"\\u003ca\\u0026b\\u003e","kind":"configmaps"},"code":404}\n',
    );
  });

  it('404 for a path that names nothing: empty details kept as {}', async () => {
    const r = await t.request('GET', '/api/v1/nothing-here');
    assert.equal(
      r.text,
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404}\n',
    );
  });

  it('422 Invalid: causes in reason, message, field order', async () => {
    const r = await t.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'Bad_Name' } },
    });
    const order = Object.keys(JSON.parse(r.text) as object);
    assert.deepEqual(order, [
      'kind',
      'apiVersion',
      'metadata',
      'status',
      'message',
      'reason',
      'details',
      'code',
    ]);
    assert.match(
      r.text,
      /"details":\{"name":"Bad_Name","kind":"ConfigMap","causes":\[\{"reason":"FieldValueInvalid","message":"Invalid value: [^"]*\\"Bad_Name\\"[^}]*","field":"metadata.name"\}\]\},"code":422\}\n$/,
    );
  });

  it('a DELETE that removes the object at once: Success with its uid, no group, no code', async () => {
    const uid = (await t.request('GET', '/api/v1/namespaces/default/configmaps/here')).body
      .metadata as { uid: string };
    const r = await t.request('DELETE', '/api/v1/namespaces/default/configmaps/here');
    assert.equal(
      r.text,
      `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"here","kind":"configmaps","uid":"${uid.uid}"}}\n`,
    );
  });
});
