/**
 * Hostile input: small requests with large effects (amplifying JSON patches, deep and wide
 * documents, YAML alias bombs, huge selectors, repeated parameters, long names), generated
 * with a fixed seed. Each must be answered below 500 within a bounded time and heap growth,
 * while a concurrent client's GET keeps being answered. The figures are printed at the end.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { startTestServer, type TestServer } from './testing/test-server.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const CM = '/api/v1/namespaces/default/configmaps';
const THINGS = '/apis/hostile.example.com/v1/namespaces/default/things';
/** Generous: the machine is shared (2 cores); requests take milliseconds to a second idle. */
const MAX_LATENCY_MS = 10_000;
const MAX_HEAP_GROWTH_MB = 256;

interface HostileCase {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly raw?: string;
  readonly contentType?: string;
  /** The statuses allowed (all below 500); default: any 4xx. */
  readonly expect?: readonly number[];
}

const nestedJson = (d: number) => `${'{"a":'.repeat(d - 1)}{}${'}'.repeat(d - 1)}`;
const nestedFlowYaml = (d: number) => `${'['.repeat(d)}${']'.repeat(d)}`;

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
    name: `custom resource ${d} deep (preserved unknown fields)`,
    method: 'POST',
    path: THINGS,
    raw: `{"apiVersion":"hostile.example.com/v1","kind":"Thing","metadata":{"name":"d"},"spec":${nestedJson(d - 1)}}`,
  },
  {
    name: `YAML create ${d} deep`,
    method: 'POST',
    path: CM,
    raw: `metadata: {name: y}\ndata: ${nestedFlowYaml(d - 1)}\n`,
    contentType: 'application/yaml',
  },
  {
    name: `merge patch ${d} deep`,
    method: 'PATCH',
    path: `${THINGS}/base`,
    raw: `{"spec":${nestedJson(d - 1)}}`,
    contentType: 'application/merge-patch+json',
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
  {
    name: `apply ${d} deep`,
    method: 'PATCH',
    path: `${THINGS}/base?fieldManager=fuzz`,
    raw: `{"apiVersion":"hostile.example.com/v1","kind":"Thing","metadata":{"name":"base"},"spec":${nestedJson(d - 1)}}`,
    contentType: 'application/apply-patch+yaml',
  },
  {
    name: `YAML apply ${d} deep`,
    method: 'PATCH',
    path: `${THINGS}/base?fieldManager=fuzz`,
    raw: `apiVersion: hostile.example.com/v1\nkind: Thing\nmetadata: {name: base}\nspec: {a: ${nestedFlowYaml(d - 2)}}\n`,
    contentType: 'application/apply-patch+yaml',
  },
];

const arbDeep = fc
  .tuple(fc.constantFrom(501, 2_000, 9_999, 10_000, 10_001, 50_000), fc.nat(7))
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

// 20k-60k fields (0.2-0.8 MB) are processed (201); 400k fields (5 MB) are past the 3 MiB
// body limit (413). A 200k-field custom resource (2.5 MB) is accepted too, in 2.4 s on an
// idle 2-core machine, mostly managed fields and validation: too slow to fuzz repeatedly.
const arbWide = fc.oneof(fc.integer({ min: 20_000, max: 60_000 }), fc.constant(400_000)).map(
  (n): HostileCase => ({
    name: `custom resource with ${n} fields`,
    method: 'POST',
    path: THINGS,
    raw: `{"apiVersion":"hostile.example.com/v1","kind":"Thing","metadata":{"name":"wide"},"spec":{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}}`,
    expect: n > 100_000 ? [413] : [201],
  }),
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
  arbWide,
  arbSelector,
  arbRepeatedQuery,
  arbLongName,
);

describe('hostile input', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'things.hostile.example.com' },
      spec: {
        group: 'hostile.example.com',
        scope: 'Namespaced',
        names: { plural: 'things', singular: 'thing', kind: 'Thing' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    'x-kubernetes-preserve-unknown-fields': true,
                    'x-kubernetes-validations': [{ rule: 'size(self) >= 0' }],
                  },
                },
              },
            },
          },
        ],
      },
    };
    assert.equal(
      (
        await t.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
          body: crd,
        })
      ).status,
      201,
    );
    for (let i = 0; i < 100 && (await t.request('GET', THINGS)).status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(
      (await t.request('POST', CM, { body: { metadata: { name: 'c' }, data: { a: 'b' } } })).status,
      201,
    );
    const base = {
      apiVersion: 'hostile.example.com/v1',
      kind: 'Thing',
      metadata: { name: 'base' },
      spec: {},
    };
    assert.equal((await t.request('POST', THINGS, { body: base })).status, 201);
  });
  after(() => t.close());

  it('answers every hostile request below 500, in bounded time and heap, without starving a GET', async () => {
    let worstLatency = 0;
    let worstHeap = 0;
    let worstName = '';
    let cases = 0;
    // The concurrent client: one GET at a time, as long as the fuzzing runs.
    let running = true;
    let gets = 0;
    let worstGet = 0;
    const getter = (async () => {
      while (running) {
        const start = performance.now();
        const r = await t.request('GET', `${CM}/c`);
        assert.equal(r.status, 200);
        worstGet = Math.max(worstGet, performance.now() - start);
        gets++;
        await new Promise((res) => setTimeout(res, 20));
      }
    })();
    const started = performance.now();
    try {
      await fc.assert(
        fc.asyncProperty(arbCase, async (c) => {
          gc();
          const heapBefore = process.memoryUsage().heapUsed;
          const start = performance.now();
          const r = await t.request(c.method, c.path, {
            ...(c.raw !== undefined ? { raw: c.raw } : {}),
            ...(c.contentType !== undefined ? { contentType: c.contentType } : {}),
          });
          const latency = performance.now() - start;
          const heap = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
          cases++;
          if (latency > worstLatency) {
            worstLatency = latency;
            worstName = c.name;
          }
          worstHeap = Math.max(worstHeap, heap);
          assert.ok(r.status < 500, `${c.name}: ${r.status} ${r.text.slice(0, 300)}`);
          if (c.expect)
            assert.ok(
              c.expect.includes(r.status),
              `${c.name}: ${r.status} ${r.text.slice(0, 300)}`,
            );
          else assert.ok(r.status >= 400, `${c.name}: ${r.status}`);
          assert.ok(latency < MAX_LATENCY_MS, `${c.name}: ${latency} ms`);
          assert.ok(heap < MAX_HEAP_GROWTH_MB, `${c.name}: heap grew ${heap} MB`);
          if (r.status === 201) await t.request('DELETE', `${THINGS}/wide`);
        }),
        { seed: 13_2024, numRuns: 60, endOnFailure: true },
      );
    } finally {
      running = false;
      await getter;
    }
    const total = performance.now() - started;
    assert.ok(gets > 0, 'the concurrent GET was never answered');
    assert.ok(worstGet < MAX_LATENCY_MS, `a concurrent GET waited ${worstGet} ms`);
    console.log(
      `hostile input: ${cases} cases in ${Math.round(total)} ms; worst latency ${Math.round(worstLatency)} ms (${worstName}); worst heap growth ${worstHeap.toFixed(1)} MB per request; ${gets} concurrent GETs, worst ${Math.round(worstGet)} ms`,
    );
  });

  const regressions: HostileCase[] = [
    ...deepCases(9_999).map((c) => ({ ...c, expect: [400] })),
    ...deepCases(10_001).map((c) => ({ ...c, expect: [400] })),
  ];
  for (const c of regressions) {
    it(`refuses ${c.name} with 400 (was 500: Maximum call stack size exceeded)`, async () => {
      const r = await t.request(c.method, c.path, {
        ...(c.raw !== undefined ? { raw: c.raw } : {}),
        ...(c.contentType !== undefined ? { contentType: c.contentType } : {}),
      });
      assert.equal(r.status, 400, r.text.slice(0, 300));
      assert.match(
        String(r.body.message),
        c.name.includes('10001') ? /exceeded max depth/ : /more than 500 levels deep/,
      );
    });
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
