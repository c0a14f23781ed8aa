import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { queryBool } from './query-bool.js';

describe('queryBool (upstream Convert_Slice_string_To_bool)', () => {
  const cases: [string, boolean | undefined][] = [
    ['', undefined],
    ['x=true', true],
    ['x=True', true],
    ['x=TRUE', true],
    ['x=1', true],
    ['x=', true],
    ['x', true],
    ['x=yes', true],
    ['x=false', false],
    ['x=False', false],
    ['x=FALSE', false],
    ['x=0', false],
    ['x=0&x=true', false],
    ['x=true&x=0', true],
  ];
  for (const [query, want] of cases) {
    it(`?${query} is ${want}`, () => {
      assert.equal(queryBool(new URLSearchParams(query), 'x'), want);
    });
  }
});

describe('boolean query parameters on the wire', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  const CM = '/api/v1/namespaces/default/configmaps';

  for (const value of ['True', '1', '']) {
    it(`watch=${value} opens a watch (the Python client sends watch=True)`, async () => {
      const w = await t.watch(`${CM}?watch=${value}&timeoutSeconds=5`);
      assert.equal(w.status, 200);
      const r = await t.request('POST', CM, {
        body: { metadata: { generateName: 'w-' } },
      });
      assert.equal(r.status, 201, r.text);
      const [event] = await w.waitFor(1, 2000);
      assert.equal(event?.type, 'ADDED');
      w.close();
    });
  }

  for (const value of ['False', '0']) {
    it(`watch=${value} lists`, async () => {
      const r = await t.request('GET', `${CM}?watch=${value}`);
      assert.equal(r.status, 200);
      assert.equal(r.body.kind, 'ConfigMapList');
    });
  }
});
