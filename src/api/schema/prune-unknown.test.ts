import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { type BuiltinSchemas, loadBuiltinSchemas } from './builtin/index.js';
import { SchemaNavigator } from './navigator.js';
import { pruneUnknownFields } from './prune-unknown.js';
import { arbitraryFromSchema } from './testing/arbitrary-object.js';
import type { Schema } from './types.js';
import { findUnknownFields } from './unknown-fields.js';

type Obj = Record<string, unknown>;

let builtin: BuiltinSchemas;
const kinds: Record<string, Schema | undefined> = {};
before(async () => {
  builtin = await loadBuiltinSchemas();
  kinds.Deployment = builtin.schemaFor({ group: 'apps', version: 'v1', kind: 'Deployment' });
  kinds.Pod = builtin.schemaFor({ group: '', version: 'v1', kind: 'Pod' });
  kinds.ControllerRevision = builtin.schemaFor({
    group: 'apps',
    version: 'v1',
    kind: 'ControllerRevision',
  });
  kinds.CustomResourceDefinition = builtin.schemaFor({
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
  });
  kinds.PodList = builtin.schemaFor({ group: '', version: 'v1', kind: 'PodList' });
});

interface Case {
  readonly name: string;
  readonly kind: string;
  readonly input: unknown;
  /** The object after pruning. */
  readonly want: unknown;
  /** The removed paths, in visiting order. */
  readonly removed: readonly string[];
}

const deployment = (spec: Obj, extra: Obj = {}): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec,
  ...extra,
});
const withContainer = (c: Obj): Obj =>
  deployment({ template: { spec: { containers: [{ name: 'c', image: 'i', ...c }] } } });

const builtinCases: readonly Case[] = [
  {
    name: 'valid object unchanged',
    kind: 'Deployment',
    input: withContainer({}),
    want: withContainer({}),
    removed: [],
  },
  {
    name: 'top-level spec field',
    kind: 'Deployment',
    input: deployment({ replicas: 2, foo: { bar: 1 } }),
    want: deployment({ replicas: 2 }),
    removed: ['spec.foo'],
  },
  {
    name: 'field of a list element (nested containers)',
    kind: 'Deployment',
    input: withContainer({ imagee: 'x', ports: [{ containerPort: 80, hostPortt: 1 }] }),
    want: withContainer({ ports: [{ containerPort: 80 }] }),
    removed: [
      'spec.template.spec.containers[0].imagee',
      'spec.template.spec.containers[0].ports[0].hostPortt',
    ],
  },
  {
    name: 'root field',
    kind: 'Deployment',
    input: deployment({}, { foo: 1 }),
    want: deployment({}),
    removed: ['foo'],
  },
  {
    name: 'metadata checked as ObjectMeta',
    kind: 'Deployment',
    input: deployment({}, { metadata: { name: 'web', foo: 'x', labels: { foo: 'kept' } } }),
    want: deployment({}, { metadata: { name: 'web', labels: { foo: 'kept' } } }),
    removed: ['metadata.foo'],
  },
  {
    name: 'pod template metadata',
    kind: 'Deployment',
    input: deployment({ template: { metadata: { labelz: {}, annotations: { a: 'b' } } } }),
    want: deployment({ template: { metadata: { annotations: { a: 'b' } } } }),
    removed: ['spec.template.metadata.labelz'],
  },
  {
    name: 'maps of strings and quantities take any key',
    kind: 'Deployment',
    input: withContainer({ resources: { limits: { cpu: '1', 'example.com/gpu': 2 } } }),
    want: withContainer({ resources: { limits: { cpu: '1', 'example.com/gpu': 2 } } }),
    removed: [],
  },
  {
    name: 'int-or-string values and their struct',
    kind: 'Deployment',
    input: deployment({
      strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1, extra: 1 } },
    }),
    want: deployment({ strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } } }),
    removed: ['spec.strategy.rollingUpdate.extra'],
  },
  {
    name: 'int-or-string holding an object is not walked',
    kind: 'Deployment',
    input: deployment({ strategy: { rollingUpdate: { maxSurge: { odd: 1 } } } }),
    want: deployment({ strategy: { rollingUpdate: { maxSurge: { odd: 1 } } } }),
    removed: [],
  },
  {
    name: 'declared nulls kept, undeclared nulls removed',
    kind: 'Deployment',
    input: deployment({ replicas: null, selector: null, foo: null }, { status: null }),
    want: deployment({ replicas: null, selector: null }, { status: null }),
    removed: ['spec.foo'],
  },
  {
    name: 'status is declared like any field',
    kind: 'Deployment',
    input: deployment(
      {},
      { status: { replicas: 1, conditions: [{ type: 'Available', bogus: 1 }] } },
    ),
    want: deployment({}, { status: { replicas: 1, conditions: [{ type: 'Available' }] } }),
    removed: ['status.conditions[0].bogus'],
  },
  {
    name: 'prototype names are not declared',
    kind: 'Deployment',
    input: deployment(JSON.parse('{"constructor":{"a":1},"__proto__":{"b":2},"paused":true}')),
    want: deployment({ paused: true }),
    removed: ['spec.constructor', 'spec.__proto__'],
  },
  {
    name: 'Pod: volumes, probes and env',
    kind: 'Pod',
    input: {
      metadata: { name: 'p' },
      spec: {
        containers: [
          {
            name: 'c',
            env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'x', bad: 1 } } }],
            livenessProbe: { httpGet: { port: 'http', path: '/', nope: true } },
          },
        ],
        volumes: [{ name: 'v', emptyDir: {}, unknownSource: {} }],
      },
    },
    want: {
      metadata: { name: 'p' },
      spec: {
        containers: [
          {
            name: 'c',
            env: [{ name: 'A', valueFrom: { fieldRef: { fieldPath: 'x' } } }],
            livenessProbe: { httpGet: { port: 'http', path: '/' } },
          },
        ],
        volumes: [{ name: 'v', emptyDir: {} }],
      },
    },
    removed: [
      'spec.containers[0].env[0].valueFrom.fieldRef.bad',
      'spec.containers[0].livenessProbe.httpGet.nope',
      'spec.volumes[0].unknownSource',
    ],
  },
  {
    name: 'embedded RawExtension keeps anything',
    kind: 'ControllerRevision',
    input: { revision: 1, data: { any: { thing: [1, { x: 2 }] } }, extra: 1 },
    want: { revision: 1, data: { any: { thing: [1, { x: 2 }] } } },
    removed: ['extra'],
  },
  {
    name: 'list items are pruned as their kind',
    kind: 'PodList',
    input: { items: [{ kind: 'Pod', metadata: { name: 'p', x: 1 }, whatever: 1 }], bad: 1 },
    want: { items: [{ kind: 'Pod', metadata: { name: 'p' } }] },
    removed: ['items[0].metadata.x', 'items[0].whatever', 'bad'],
  },
  {
    name: 'CRD schema nests through JSONSchemaProps maps',
    kind: 'CustomResourceDefinition',
    input: {
      spec: {
        versions: [
          {
            name: 'v1',
            schema: { openAPIV3Schema: { properties: { a: { typo: 1, type: 'string' } } } },
          },
        ],
      },
    },
    want: {
      spec: {
        versions: [
          { name: 'v1', schema: { openAPIV3Schema: { properties: { a: { type: 'string' } } } } },
        ],
      },
    },
    removed: ['spec.versions[0].schema.openAPIV3Schema.properties.a.typo'],
  },
];

function runCase(input: unknown, schema: Schema | undefined, nav: SchemaNavigator) {
  const value = structuredClone(input);
  const removed: string[] = [];
  const changed = pruneUnknownFields(value, schema, nav, removed);
  return { value, removed, changed };
}

describe('pruneUnknownFields (built-in kinds)', () => {
  for (const c of builtinCases) {
    it(c.name, () => {
      const got = runCase(c.input, kinds[c.kind], builtin.navigator);
      assert.deepEqual(got.value, c.want);
      assert.deepEqual(got.removed, c.removed);
      assert.equal(got.changed, c.removed.length > 0);
    });
  }

  it('reports nothing without a `removed` list, but still prunes', () => {
    const value = deployment({ foo: 1 });
    assert.equal(pruneUnknownFields(value, kinds.Deployment, builtin.navigator), true);
    assert.deepEqual(value, deployment({}));
  });

  it('scalars and null roots are left alone', () => {
    for (const v of [null, 1, 'x', true, undefined]) {
      assert.equal(pruneUnknownFields(v, kinds.Deployment, builtin.navigator), false);
    }
  });
});

describe('pruneUnknownFields (custom resource schema)', () => {
  const nav = new SchemaNavigator();
  const schema: Schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          known: { type: 'string' },
          port: { 'x-kubernetes-int-or-string': true },
          matrix: {
            type: 'array',
            items: {
              type: 'array',
              items: { type: 'object', properties: { x: { type: 'integer' } } },
            },
          },
          free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          openStruct: {
            type: 'object',
            'x-kubernetes-preserve-unknown-fields': true,
            properties: { inner: { type: 'object', properties: { a: { type: 'string' } } } },
          },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          byName: {
            type: 'object',
            additionalProperties: { type: 'object', properties: { v: { type: 'string' } } },
          },
          embedded: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            properties: { spec: { type: 'object' } },
          },
          embeddedFree: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            'x-kubernetes-preserve-unknown-fields': true,
          },
          empty: { type: 'object' },
        },
      },
    },
  };
  const cases: readonly Omit<Case, 'kind'>[] = [
    {
      name: 'root apiVersion, kind and metadata',
      input: {
        apiVersion: 'a/v1',
        kind: 'K',
        metadata: { name: 'x', foo: 1 },
        spec: { known: 'k' },
      },
      want: { apiVersion: 'a/v1', kind: 'K', metadata: { name: 'x' }, spec: { known: 'k' } },
      removed: ['metadata.foo'],
    },
    {
      name: 'nested lists of lists',
      input: { spec: { matrix: [[{ x: 1, y: 2 }], [], [{ z: 3 }]] } },
      want: { spec: { matrix: [[{ x: 1 }], [], [{}]] } },
      removed: ['spec.matrix[0][0].y', 'spec.matrix[2][0].z'],
    },
    {
      name: 'int-or-string',
      input: { spec: { port: 'http' } },
      want: { spec: { port: 'http' } },
      removed: [],
    },
    {
      name: 'preserve-unknown-fields keeps everything below',
      input: { spec: { free: { a: { b: [1, { c: 2 }] } } } },
      want: { spec: { free: { a: { b: [1, { c: 2 }] } } } },
      removed: [],
    },
    {
      name: 'preserve-unknown-fields with properties still prunes declared children',
      input: { spec: { openStruct: { extra: { y: 1 }, inner: { a: 'a', b: 'b' } } } },
      want: { spec: { openStruct: { extra: { y: 1 }, inner: { a: 'a' } } } },
      removed: ['spec.openStruct.inner.b'],
    },
    {
      name: 'map of strings',
      input: { spec: { labels: { any: 'x', other: 'y' } } },
      want: { spec: { labels: { any: 'x', other: 'y' } } },
      removed: [],
    },
    {
      name: 'map of structs prunes the values',
      input: { spec: { byName: { a: { v: '1', w: 2 }, b: { v: '2' } } } },
      want: { spec: { byName: { a: { v: '1' }, b: { v: '2' } } } },
      removed: ['spec.byName.a.w'],
    },
    {
      name: 'embedded resource',
      input: {
        spec: {
          embedded: {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: 'p', bad: 1 },
            spec: {},
            other: 1,
          },
        },
      },
      want: {
        spec: { embedded: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} } },
      },
      removed: ['spec.embedded.metadata.bad', 'spec.embedded.other'],
    },
    {
      name: 'free-form embedded resource still checks metadata',
      input: {
        spec: { embeddedFree: { kind: 'X', metadata: { name: 'p', bad: 1 }, anything: { a: 1 } } },
      },
      want: { spec: { embeddedFree: { kind: 'X', metadata: { name: 'p' }, anything: { a: 1 } } } },
      removed: ['spec.embeddedFree.metadata.bad'],
    },
    {
      name: 'object without properties keeps nothing',
      input: { spec: { empty: { a: 1, b: null } } },
      want: { spec: { empty: {} } },
      removed: ['spec.empty.a', 'spec.empty.b'],
    },
    {
      name: 'no schema: only metadata is checked',
      input: { metadata: { name: 'x', foo: 1 }, anything: { a: 1 } },
      want: { metadata: { name: 'x' }, anything: { a: 1 } },
      removed: ['metadata.foo'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const root = c.name.startsWith('no schema') ? undefined : schema;
      const got = runCase(c.input, root, nav);
      assert.deepEqual(got.value, c.want);
      assert.deepEqual(got.removed, c.removed);
      assert.equal(got.changed, c.removed.length > 0);
      assert.deepEqual(findUnknownFields(c.input, root, nav), c.removed, 'agrees with the finder');
    });
  }
});

/** Every object (not list) in a tree, in depth-first order. */
function objectsIn(v: unknown, out: Obj[] = []): Obj[] {
  if (Array.isArray(v)) for (const x of v) objectsIn(x, out);
  else if (typeof v === 'object' && v !== null) {
    out.push(v as Obj);
    for (const x of Object.values(v)) objectsIn(x, out);
  }
  return out;
}

/** Keys likely to be unknown, plus declared names so that injection also hits known fields. */
const injectedKey = fc.constantFrom(
  'zz',
  'foo',
  'x.io/y',
  'metadata',
  'apiVersion',
  'kind',
  'status',
  'name',
  'spec',
  'containers',
  // Inherited from Object.prototype, never declared (`__proto__` is left out: assigning it
  // sets the prototype instead of adding a key).
  'constructor',
  'toString',
);
const injectedValue = fc.constantFrom<unknown>(null, 1, 'x', { a: { b: 1 } }, [{ c: 1 }], []);
const injections = fc.array(fc.tuple(fc.nat(), injectedKey, injectedValue), {
  minLength: 1,
  maxLength: 8,
});

const sorted = (xs: readonly string[]) => [...xs].sort();

describe('pruneUnknownFields properties (real Deployment and Pod schemas)', () => {
  for (const kind of ['Deployment', 'Pod']) {
    it(`${kind}: an object without unknown fields is unchanged`, () => {
      fc.assert(
        fc.property(
          arbitraryFromSchema(kinds[kind], builtin.navigator, { maxDepth: 10 }),
          (obj) => {
            const copy = structuredClone(obj);
            assert.equal(pruneUnknownFields(copy, kinds[kind], builtin.navigator), false);
            assert.deepEqual(copy, obj);
          },
        ),
        { numRuns: 60 },
      );
    });

    it(`${kind}: prunes exactly what findUnknownFields finds, and then it finds nothing`, () => {
      const arb = fc.tuple(
        arbitraryFromSchema(kinds[kind], builtin.navigator, { maxDepth: 10 }),
        injections,
      );
      fc.assert(
        fc.property(arb, ([generated, inject]) => {
          // fast-check shares values between runs and within one value (three `{}` list elements
          // may be one object): copy through JSON so that every position is its own object.
          const obj = JSON.parse(JSON.stringify(generated)) as unknown;
          const objects = objectsIn(obj);
          for (const [at, key, value] of inject) {
            const target = objects[at % objects.length];
            if (target) target[key] = structuredClone(value);
          }
          const expected = findUnknownFields(obj, kinds[kind], builtin.navigator);
          const removed: string[] = [];
          const changed = pruneUnknownFields(obj, kinds[kind], builtin.navigator, removed);
          assert.deepEqual(sorted(removed), sorted(expected));
          assert.equal(changed, expected.length > 0);
          assert.deepEqual(findUnknownFields(obj, kinds[kind], builtin.navigator), []);
        }),
        { numRuns: 100 },
      );
    });
  }
});
