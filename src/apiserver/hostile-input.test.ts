/**
 * Hostile input on built-in kinds: small requests with large effects (amplifying JSON
 * patches, deep documents, YAML alias bombs, huge selectors, repeated parameters, long names),
 * generated with a fixed seed, on the bench of `testing/hostile-input.ts`. Each must be
 * answered below 500 within a bounded time and heap growth, while a concurrent client's GET
 * keeps being answered. Custom resources (deep and wide) are apiextensions' suite
 * (`src/apiextensions/hostile-input.test.ts`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import {
  assertRefusedDeep,
  type HostileCase,
  nestedFlowYaml,
  nestedJson,
  runHostileCases,
} from './testing/hostile-input.js';
import { startTestServer, type TestServer } from './testing/test-server.js';

const CM = '/api/v1/namespaces/default/configmaps';

function laughs(levels: number): string {
  let text = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol}\ndata:\n';
  text += '  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n';
  for (let i = 1; i < levels; i++) {
    text += `  a${i}: &a${i} [${Array(10)
      .fill(`*a${i - 1}`)
      .join(', ')}]\n`;
  }
  return text;
}

const deepCases = (d: number): HostileCase[] => [
  {
    name: `create ${d} deep`,
    method: 'POST',
    path: CM,
    raw: `{"metadata":{"name":"d"},"data":${nestedJson(d - 1)}}`,
  },
  {
    name: `YAML create ${d} deep`,
    method: 'POST',
    path: CM,
    raw: `metadata: {name: y}\ndata: ${nestedFlowYaml(d - 1)}\n`,
    contentType: 'application/yaml',
  },
  {
    name: `strategic patch ${d} deep`,
    method: 'PATCH',
    path: `${CM}/c`,
    raw: `{"data":${nestedJson(d - 1)}}`,
    contentType: 'application/strategic-merge-patch+json',
  },
  {
    name: `JSON patch ${d} deep`,
    method: 'PATCH',
    path: `${CM}/c`,
    raw: `[{"op":"add","path":"/x","value":${nestedJson(d - 2)}}]`,
    contentType: 'application/json-patch+json',
  },
];

const arbDeep = fc
  .tuple(fc.constantFrom(501, 2_000, 9_999, 10_000, 10_001, 50_000), fc.nat(3))
  .map(([d, i]) => ({ ...(deepCases(d)[i] as HostileCase), expect: [400] }));

const arbAmplifyingPatch = fc
  .record({
    bytes: fc.integer({ min: 500, max: 2_000 }),
    copies: fc.integer({ min: 30, max: 60 }),
    self: fc.boolean(),
  })
  .map(({ bytes, copies, self }): HostileCase => {
    const ops: unknown[] = [
      { op: 'add', path: '/metadata/annotations', value: { a: 'x'.repeat(bytes) } },
    ];
    for (let i = 0; i < copies; i++) {
      ops.push(
        self
          ? { op: 'copy', from: '', path: `/metadata/labels` }
          : { op: 'copy', from: '/metadata', path: `/data/k${i}` },
      );
    }
    return {
      name: `add ${bytes} B then ${copies} copies`,
      method: 'PATCH',
      path: `${CM}/c`,
      raw: JSON.stringify(ops),
      contentType: 'application/json-patch+json',
      expect: [422],
    };
  });

const arbDeepeningPatch = fc.integer({ min: 510, max: 2_000 }).map((n): HostileCase => {
  const ops = Array.from({ length: n }, () => ({
    op: 'copy',
    from: '/metadata',
    path: '/metadata/labels',
  }));
  return {
    name: `${n} copies deepening the object`,
    method: 'PATCH',
    path: `${CM}/c`,
    raw: JSON.stringify(ops),
    contentType: 'application/json-patch+json',
    expect: [422],
  };
});

const arbAliasBomb = fc.tuple(fc.integer({ min: 4, max: 12 }), fc.boolean()).map(
  ([levels, apply]): HostileCase =>
    apply
      ? {
          name: `apply alias bomb ${levels}`,
          method: 'PATCH',
          path: `${CM}/lol?fieldManager=fuzz`,
          raw: laughs(levels),
          contentType: 'application/apply-patch+yaml',
          expect: [400],
        }
      : {
          name: `YAML alias bomb ${levels}`,
          method: 'POST',
          path: CM,
          raw: laughs(levels),
          contentType: 'application/yaml',
          expect: [400],
        },
);

const arbSelector = fc
  .tuple(fc.integer({ min: 1_000, max: 20_000 }), fc.constantFrom('labelSelector', 'fieldSelector'))
  .map(([n, param]): HostileCase => {
    const value =
      param === 'labelSelector'
        ? `a in (${Array.from({ length: n }, (_, i) => `v${i}`).join(',')})`
        : Array.from({ length: n }, (_, i) => `metadata.name!=n${i}`).join(',');
    return {
      name: `${param} of ${n} terms`,
      method: 'GET',
      path: `${CM}?${param}=${encodeURIComponent(value)}`,
      expect: [200, 400],
    };
  });

const arbRepeatedQuery = fc.integer({ min: 100, max: 5_000 }).map(
  (n): HostileCase => ({
    name: `limit repeated ${n} times`,
    method: 'GET',
    path: `${CM}?${Array(n).fill('limit=1').join('&')}`,
    expect: [200, 400],
  }),
);

const arbLongName = fc.integer({ min: 254, max: 100_000 }).map(
  (n): HostileCase => ({
    name: `a ${n}-character name`,
    method: 'POST',
    path: CM,
    raw: JSON.stringify({ metadata: { name: 'n'.repeat(n) } }),
    expect: [422],
  }),
);

const arbCase = fc.oneof(
  arbDeep,
  arbAmplifyingPatch,
  arbDeepeningPatch,
  arbAliasBomb,
  arbSelector,
  arbRepeatedQuery,
  arbLongName,
);

describe('hostile input', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    assert.equal(
      (await t.request('POST', CM, { body: { metadata: { name: 'c' }, data: { a: 'b' } } })).status,
      201,
    );
  });
  after(() => t.close());

  it('answers every hostile request below 500, in bounded time and heap, without starving a GET', async () => {
    await runHostileCases(t, arbCase, { seed: 13_2024, numRuns: 50, getPath: `${CM}/c` });
  });

  const regressions: HostileCase[] = [
    ...deepCases(9_999).map((c) => ({ ...c, expect: [400] })),
    ...deepCases(10_001).map((c) => ({ ...c, expect: [400] })),
  ];
  for (const c of regressions) {
    it(`refuses ${c.name} with 400 (was 500: Maximum call stack size exceeded)`, () =>
      assertRefusedDeep(t, c));
  }

  it('refuses one add and 40 copies of the growing object onto itself (was: out of memory)', async () => {
    const ops: unknown[] = [{ op: 'add', path: '/data/seed', value: 'x'.repeat(1_000) }];
    for (let i = 0; i < 40; i++) ops.push({ op: 'copy', from: '', path: `/x${i}` });
    const r = await t.request('PATCH', `${CM}/c`, {
      raw: JSON.stringify(ops),
      contentType: 'application/json-patch+json',
    });
    assert.equal(r.status, 422);
    assert.equal(r.body.reason, 'Invalid');
    assert.equal(r.body.message, 'the server rejected our request due to an error in our request');
  });
});
