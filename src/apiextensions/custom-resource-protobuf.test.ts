/**
 * A protobuf body to a custom resource gets upstream's 400 (the decode into an unstructured
 * object fails), not a 'no protobuf decoding' text of our own; the same body for a built-in
 * kind decodes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer, type TestServer } from '../apiserver/testing/test-server.js';
import { apiExtensions } from './index.js';
import { WIDGET_CRD_NAME, widgetCrd } from './testing/widget-crd.js';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';

function varint(n: number): Buffer {
  const out: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 128)) out.push((n % 128) | 0x80);
  out.push(n);
  return Buffer.from(out);
}

function field(no: number, payload: Buffer | string): Buffer {
  const bytes = Buffer.from(payload);
  return Buffer.concat([varint(no * 8 + 2), varint(bytes.length), bytes]);
}

/** `k8s\0` + runtime.Unknown{typeMeta{apiVersion, kind}, raw: {metadata{name}}}. */
function namedObject(apiVersion: string, kind: string, name: string): Buffer {
  return Buffer.concat([
    Buffer.from('k8s\0', 'latin1'),
    field(1, Buffer.concat([field(1, apiVersion), field(2, kind)])),
    field(2, field(1, field(1, name))),
  ]);
}

describe('protobuf bodies to custom resources', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ extensions: apiExtensions() });
    assert.equal((await t.request('POST', CRDS, { body: widgetCrd() })).status, 201);
    for (let i = 0; i < 200; i++) {
      const r = await t.request('GET', '/apis/example.com/v1/namespaces/default/widgets');
      if (r.status === 200) return;
      await sleep(10);
    }
    throw new Error(`${WIDGET_CRD_NAME} not served`);
  });
  after(() => t.close());

  it('answer 400 as upstream: an unstructured object has no protobuf form', async () => {
    const r = await t.request('POST', '/apis/example.com/v1/namespaces/default/widgets', {
      raw: namedObject('example.com/v1', 'Widget', 'w'),
      contentType: PROTOBUF,
    });
    assert.equal(r.status, 400);
    assert.equal(
      r.body.message,
      'Widget in version "v1" cannot be handled as a Widget: object *unstructured.Unstructured does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message',
    );
    assert.equal(r.body.reason, 'BadRequest');
  });

  it('a built-in kind decodes the same body', async () => {
    const r = await t.request('POST', '/api/v1/namespaces/default/configmaps', {
      raw: namedObject('v1', 'ConfigMap', 'cm'),
      contentType: PROTOBUF,
    });
    assert.equal(r.status, 201, r.text);
  });
});
