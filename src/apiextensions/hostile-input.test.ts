/**
 * Hostile input on custom resources: documents nested past the depth limits on every decode
 * path a custom resource has (create, merge patch, apply in JSON and YAML), and wide documents
 * of 20k-400k fields, generated with a fixed seed on the API server's hostile-input bench
 * (`src/apiserver/testing/hostile-input.ts`). Each must be answered below 500 within a bounded
 * time and heap growth, while a concurrent client's GET keeps being answered. The resource
 * preserves unknown fields and has a CEL rule, so pruning, validation and CEL all see the
 * whole document.
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
} from '../apiserver/testing/hostile-input.js';
import { startTestServer, type TestServer } from '../apiserver/testing/test-server.js';
import { apiExtensions } from './index.js';

const CM = '/api/v1/namespaces/default/configmaps';
const THINGS = '/apis/hostile.example.com/v1/namespaces/default/things';

const deepCases = (d: number): HostileCase[] => [
  {
    name: `custom resource ${d} deep (preserved unknown fields)`,
    method: 'POST',
    path: THINGS,
    raw: `{"apiVersion":"hostile.example.com/v1","kind":"Thing","metadata":{"name":"d"},"spec":${nestedJson(d - 1)}}`,
  },
  {
    name: `merge patch ${d} deep`,
    method: 'PATCH',
    path: `${THINGS}/base`,
    raw: `{"spec":${nestedJson(d - 1)}}`,
    contentType: 'application/merge-patch+json',
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
  .tuple(fc.constantFrom(501, 2_000, 9_999, 10_000, 10_001, 50_000), fc.nat(3))
  .map(([d, i]) => ({ ...(deepCases(d)[i] as HostileCase), expect: [400] }));

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

const THING_CRD = {
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

describe('hostile input on custom resources', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ extensions: apiExtensions() });
    const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
    assert.equal((await t.request('POST', crds, { body: THING_CRD })).status, 201);
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
    await runHostileCases(t, fc.oneof(arbDeep, arbWide), {
      seed: 13_2024,
      numRuns: 12,
      getPath: `${CM}/c`,
      created: () => t.request('DELETE', `${THINGS}/wide`),
    });
  });

  const regressions: HostileCase[] = [
    ...deepCases(9_999).map((c) => ({ ...c, expect: [400] })),
    ...deepCases(10_001).map((c) => ({ ...c, expect: [400] })),
  ];
  for (const c of regressions) {
    it(`refuses ${c.name} with 400 (was 500: Maximum call stack size exceeded)`, () =>
      assertRefusedDeep(t, c));
  }
});
