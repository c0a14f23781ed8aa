/**
 * A list written in Buffers is byte for byte the single-string rendering it replaced
 * (`sendJson(res, 200, renderList(def, result))`: the joined list, HTML-safe escapes, a
 * closing newline), for arbitrary items and metadata and any group size; and through the
 * real request path, for arbitrary stored objects, pages and selectors.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { goHtmlSafe } from '../../api/managed-fields/go-json.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { listPrefix } from '../store/keys.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { listJson, renderList } from './list.js';
import { listBodyChunks } from './list-body.js';

/** What `sendJson` wrote for a list's text on a request without pretty printing. */
function singleString(text: string): Buffer {
  return Buffer.from(`${goHtmlSafe(text)}\n`, 'utf8');
}

/** JSON text with the characters the escapes touch, line separators and astral characters. */
const textArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom('<b>', 'a&b', '\u2028\u2029', '😀', 'plain'),
);
const itemArb = fc
  .record({ name: textArb, data: fc.dictionary(textArb, textArb, { maxKeys: 4 }) })
  .map((o) =>
    JSON.stringify({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: o.name },
      data: o.data,
    }),
  );

const DEF: Pick<ResourceDefinition, 'listKind' | 'group' | 'version'> = {
  listKind: 'ConfigMapList',
  group: '',
  version: 'v1',
};

describe('list body in Buffers', () => {
  it('concatenated, the Buffers are the single string, for any items and group size', () => {
    fc.assert(
      fc.property(
        fc.array(itemArb, { maxLength: 30 }),
        fc.record({
          resourceVersion: fc.nat().map(String),
          continue: fc.option(textArb, { nil: undefined }),
        }),
        fc.integer({ min: 1, max: 400 }),
        (items, metadata, chunkChars) => {
          const def = DEF as ResourceDefinition;
          const text = listJson(def, metadata, items);
          const head = text.slice(0, text.length - items.join(',').length - 2);
          const chunks = listBodyChunks(head, items, chunkChars);
          assert.ok(Buffer.concat(chunks).equals(singleString(text)));
          // Groups hold whole items: no Buffer ends inside a character.
          for (const c of chunks)
            assert.equal(Buffer.from(c.toString('utf8'), 'utf8').length, c.length);
        },
      ),
    );
  });
});

describe('list body through the API', () => {
  let t: TestServer;
  let def: ResourceDefinition;
  before(async () => {
    t = await startTestServer();
    def = t.server.registry.get('', 'v1', 'configmaps')!;
  });
  after(async () => {
    await t.close();
  });

  /** GET with the raw body bytes. */
  const get = (
    path: string,
  ): Promise<{ status: number; length: string | undefined; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const base = new URL(t.url);
      const req = request({ host: base.hostname, port: base.port, path }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            length: res.headers['content-length'],
            body: Buffer.concat(parts),
          }),
        );
      });
      req.on('error', reject);
      req.end();
    });

  async function createObjects(
    ns: string,
    objects: ReadonlyArray<[string, string]>,
  ): Promise<void> {
    const created = await t.request('POST', '/api/v1/namespaces', {
      body: { metadata: { name: ns } },
    });
    assert.equal(created.status, 201, created.text);
    for (const [i, [value, app]] of objects.entries()) {
      const body = { metadata: { name: `cm-${i}`, labels: { app } }, data: { value } };
      const r = await t.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body });
      assert.equal(r.status, 201, r.text);
    }
  }

  /** Every page's bytes against the same page rendered as one string at the list's revision. */
  async function checkPages(ns: string, limit: number, selector: string): Promise<void> {
    let cont = '';
    for (let page = 0; page < 20; page++) {
      const q = `limit=${limit}${selector ? `&labelSelector=${selector}` : ''}${cont ? `&continue=${cont}` : ''}`;
      const res = await get(`/api/v1/namespaces/${ns}/configmaps?${q}`);
      assert.equal(res.status, 200, res.body.toString());
      const listed = JSON.parse(res.body.toString('utf8')) as {
        metadata: { resourceVersion: string; continue?: string };
      };
      const result = t.backend.list(listPrefix(def, ns), {
        revision: Number(listed.metadata.resourceVersion),
        limit,
        ...(selector ? { filter: (kv) => kv.value.includes('"app":"a"') } : {}),
        ...(page > 0 ? { startAfter: startAfterOf(cont) } : {}),
      });
      assert.ok(res.body.equals(singleString(renderList(def, result))));
      assert.equal(res.length, String(res.body.length));
      cont = listed.metadata.continue ?? '';
      if (cont === '') return;
    }
  }

  it('answers the bytes of the single-string rendering, whole and in pages', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        // Some values large enough that a page spans several 64 KiB Buffers.
        fc.array(
          fc.tuple(
            fc.oneof(
              textArb,
              textArb.map((s) => `${s}<&>`.repeat(6000)),
            ),
            fc.constantFrom('a', 'b'),
          ),
          { minLength: 1, maxLength: 12 },
        ),
        fc.integer({ min: 0, max: 5 }),
        fc.constantFrom('', 'app%3Da'),
        async (objects, limit, selector) => {
          const ns = `list-${round++}`;
          await createObjects(ns, objects);
          await checkPages(ns, limit, selector);
        },
      ),
      { numRuns: 15 },
    );
  });

  it('pretty-printed lists keep the joined path', async () => {
    await t.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'pretty' }, data: { html: '<&>' } },
    });
    const res = await get('/api/v1/namespaces/default/configmaps?pretty=true');
    const text = res.body.toString('utf8');
    assert.ok(text.includes('\n  "items": ['), text.slice(0, 200));
    assert.ok(text.includes('\\u003c\\u0026\\u003e'));
    assert.equal(res.length, String(res.body.length));
  });
});

/** The key a continue token resumes after (the handler's own decoding, restated). */
function startAfterOf(token: string): string {
  const t = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { start: string };
  return t.start;
}
