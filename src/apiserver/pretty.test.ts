/**
 * Response bytes as kube-apiserver's JSON serializer writes them: compact with a closing
 * newline (`json.Encoder`), or indented by two spaces without one (`json.MarshalIndent`) when
 * `pretty` parses as true with Go's strconv.ParseBool or, without `pretty`, when the
 * User-Agent is curl, Wget or a browser. `/version` is always indented (WriteRawJSON).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './testing/test-server.js';

let t: TestServer;
const CM = '/api/v1/namespaces/default/configmaps/cm';
const indented = (text: string): boolean =>
  text.startsWith('{\n  "kind": ') && !text.endsWith('\n');
const compact = (text: string): boolean => text.startsWith('{"kind":') && text.endsWith('}\n');

describe('pretty and compact JSON', () => {
  before(async () => {
    t = await startTestServer();
    await t.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'cm' }, data: { html: '<b>&</b>' } },
    });
  });
  after(() => t.close());

  const table: [string, string, Record<string, string>, (text: string) => boolean][] = [
    ['no pretty, a client agent', CM, { 'user-agent': 'kubectl/v1.33.0' }, compact],
    ['pretty=true', `${CM}?pretty=true`, {}, indented],
    ['pretty=True (Python)', `${CM}?pretty=True`, {}, indented],
    ['pretty=1', `${CM}?pretty=1`, {}, indented],
    ['pretty=yes is no bool to ParseBool', `${CM}?pretty=yes`, {}, compact],
    ['pretty=false over curl', `${CM}?pretty=false`, { 'user-agent': 'curl/8.5.0' }, compact],
    ['curl without pretty', CM, { 'user-agent': 'curl/8.5.0' }, indented],
    ['Wget', CM, { 'user-agent': 'Wget/1.21' }, indented],
    ['a browser', CM, { 'user-agent': 'Mozilla/5.0 (X11)' }, indented],
    [
      'an empty pretty falls back to the agent',
      `${CM}?pretty=`,
      { 'user-agent': 'curl/8' },
      indented,
    ],
    ['a list', '/api/v1/namespaces/default/configmaps?pretty=true', {}, indented],
    ['an error', '/api/v1/namespaces/default/configmaps/nope?pretty=true', {}, indented],
    ['an error, compact', '/api/v1/namespaces/default/configmaps/nope', {}, compact],
  ];
  for (const [name, path, headers, shape] of table) {
    it(name, async () => {
      const r = await t.request('GET', path, { headers });
      assert.ok(shape(r.text), r.text);
    });
  }

  it("escapes <, > and & as Go's encoder does, in both shapes", async () => {
    const plain = await t.request('GET', CM);
    assert.match(plain.text, /"html":"\\u003cb\\u003e\\u0026\\u003c\/b\\u003e"/);
    const pretty = await t.request('GET', `${CM}?pretty=true`);
    assert.match(pretty.text, /"html": "\\u003cb\\u003e\\u0026\\u003c\/b\\u003e"/);
    assert.deepEqual((JSON.parse(pretty.text) as { data: object }).data, { html: '<b>&</b>' });
  });

  it('/version is indented whatever the request asks', async () => {
    const r = await t.request('GET', '/version?pretty=false');
    assert.ok(r.text.startsWith('{\n  "major": '), r.text);
    assert.ok(!r.text.endsWith('\n'));
  });
});
