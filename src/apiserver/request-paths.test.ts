/**
 * A request reaches exactly the key its path names, or none: dot segments, encoded slashes,
 * empty segments and double encodings never address a neighbouring object (the `%2e%2e`
 * finding deleted Namespace `victim` through a ConfigMap path).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import fc from 'fast-check';
import { startTestServer, type TestServer } from './testing/test-server.js';

const CM_ROOT = '/core/configmaps/';

let t: TestServer;

/** Every stored key with its revision: what a request changed is the difference. */
function snapshot(): Map<string, number> {
  const out = new Map<string, number>();
  for (const kv of t.backend.list('/').items) out.set(kv.key, kv.modRevision);
  return out;
}

function changedKeys(before: Map<string, number>, after: Map<string, number>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).sort();
}

async function ensureFixtures(): Promise<void> {
  const ns = await t.request('GET', '/api/v1/namespaces/victim');
  if (ns.status === 404) {
    await t.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'victim' } } });
  }
  for (const [namespace, name] of [
    ['victim', 'a'],
    ['default', 'a'],
    ['default', 'victim'],
  ] as const) {
    const path = `/api/v1/namespaces/${namespace}/configmaps`;
    if ((await t.request('GET', `${path}/${name}`)).status === 404) {
      const r = await t.request('POST', path, { body: { metadata: { name }, data: { k: 'v' } } });
      assert.equal(r.status, 201, r.text);
    }
  }
}

interface Case {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly message?: string;
}

const MERGE = 'application/merge-patch+json';
const LABEL = JSON.stringify({ metadata: { labels: { touched: 'yes' } } });

const cases: Case[] = [
  {
    name: 'encoded dot-dot name (the finding)',
    method: 'DELETE',
    path: '/api/v1/namespaces/victim/configmaps/%2e%2e',
    status: 400,
    message: `Name parameter invalid: "..": may not be '..'`,
  },
  {
    name: 'literal dot-dot name',
    method: 'DELETE',
    path: '/api/v1/namespaces/victim/configmaps/..',
    status: 400,
    message: `Name parameter invalid: "..": may not be '..'`,
  },
  {
    name: 'merge patch to dot-dot',
    method: 'PATCH',
    path: '/api/v1/namespaces/victim/configmaps/..',
    status: 400,
  },
  {
    name: 'dot name',
    method: 'GET',
    path: '/api/v1/namespaces/victim/configmaps/.',
    status: 400,
    message: `Name parameter invalid: ".": may not be '.'`,
  },
  {
    name: 'dot-dot namespace',
    method: 'GET',
    path: '/api/v1/namespaces/../configmaps',
    status: 400,
    message: `Namespace parameter invalid: "..": may not be '..'`,
  },
  {
    name: 'percent in a name (double encoding)',
    method: 'DELETE',
    path: '/api/v1/namespaces/victim/configmaps/%252e%252e',
    status: 400,
    message: `Name parameter invalid: "%2e%2e": may not contain '%'`,
  },
  {
    name: 'encoded slash splits the segment',
    method: 'DELETE',
    path: '/api/v1/namespaces/victim/configmaps/a%2F..',
    status: 404,
  },
  {
    name: 'dot-dot subresource path up to the namespace',
    method: 'DELETE',
    path: '/api/v1/namespaces/victim/configmaps/a/../..',
    status: 404,
  },
  {
    name: 'empty namespace segment',
    method: 'DELETE',
    path: '/api/v1/namespaces//configmaps/a',
    status: 404,
  },
  {
    name: 'double slash before the name',
    method: 'DELETE',
    path: '/api/v1/namespaces/default/configmaps//victim',
    status: 404,
  },
  {
    name: 'malformed escape',
    method: 'GET',
    path: '/api/v1/namespaces/%zz/configmaps',
    status: 400,
  },
  {
    name: 'a trailing slash is the same resource (upstream trims it)',
    method: 'GET',
    path: '/api/v1/namespaces/default/configmaps/a/',
    status: 200,
  },
];

describe('request paths address exactly one key', () => {
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });
  beforeEach(ensureFixtures);

  for (const c of cases) {
    it(`${c.method} ${c.path}: ${c.name}`, async () => {
      const before = snapshot();
      const r = await t.request(
        c.method,
        c.path,
        c.method === 'PATCH' ? { raw: LABEL, contentType: MERGE } : {},
      );
      assert.equal(r.status, c.status, r.text);
      if (c.message !== undefined) {
        assert.equal(r.body.kind, 'Status');
        assert.equal(r.body.reason, 'BadRequest');
        assert.equal(r.body.message, c.message);
      }
      assert.deepEqual(changedKeys(before, snapshot()), []);
      assert.equal((await t.request('GET', '/api/v1/namespaces/victim')).status, 200);
    });
  }

  it('a valid delete changes its own key and nothing else', async () => {
    const before = snapshot();
    const r = await t.request('DELETE', '/api/v1/namespaces/victim/configmaps/a');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(changedKeys(before, snapshot()), [`${CM_ROOT}victim/a`]);
  });

  it('property: a hostile namespace/name pair changes only the key its decoded segments name', async () => {
    // Pieces that have each addressed a wrong key in some server: dot segments raw and
    // encoded, encoded and doubled slashes, double encoding, and plain names that exist.
    const piece = fc.constantFrom(
      '.',
      '..',
      '%2e',
      '%2E%2e',
      '%2f',
      '%2F..',
      '%252e%252e',
      '%25',
      '/',
      '',
      'a',
      'victim',
      'default',
      'configmaps',
      'namespaces',
    );
    const segment = fc.array(piece, { minLength: 1, maxLength: 3 }).map((p) => p.join(''));
    // Mostly a real namespace, so a name that escapes its segment has something to hit.
    const namespace = fc.oneof(
      { arbitrary: fc.constantFrom('victim', 'default'), weight: 3 },
      { arbitrary: segment, weight: 1 },
    );
    const method = fc.constantFrom('GET', 'DELETE', 'PATCH', 'PUT');
    await fc.assert(
      fc.asyncProperty(method, namespace, segment, async (m, ns, name) => {
        await ensureFixtures();
        const path = `/api/v1/namespaces/${ns}/configmaps/${name}`;
        const before = snapshot();
        const body =
          m === 'PATCH'
            ? { raw: LABEL, contentType: MERGE }
            : m === 'PUT'
              ? { body: { metadata: { name: 'a', namespace: 'victim' }, data: { k: 'w' } } }
              : {};
        const r = await t.request(m, path, body);
        assert.ok(r.status < 500, `${m} ${path}: ${r.status} ${r.text}`);
        const changed = changedKeys(before, snapshot());
        if (changed.length === 0) return;
        // Something changed: it must be what the path names, segment for segment. Trailing
        // slashes are trimmed as upstream trims them, so `configmaps//` is the collection.
        const decodedNs = decodeURIComponent(ns);
        const decodedName = decodeURIComponent(name).replace(/\/+$/, '');
        if (decodedName === '') {
          const outside = changed.filter((k) => !k.startsWith(`${CM_ROOT}${decodedNs}/`));
          assert.deepEqual(outside, [], `${m} ${path}`);
          return;
        }
        assert.deepEqual(changed, [`${CM_ROOT}${decodedNs}/${decodedName}`], `${m} ${path}`);
      }),
      { seed: 1301, numRuns: 300 },
    );
  });
});
