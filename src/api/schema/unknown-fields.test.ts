import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type BuiltinSchemas, loadBuiltinSchemas } from './builtin/index.js';
import { parseJsonMembers } from './duplicate-fields.js';
import { SchemaNavigator } from './navigator.js';
import type { Schema } from './types.js';
import { findStrictJsonErrors, findUnknownFields } from './unknown-fields.js';

let builtin: BuiltinSchemas;
let deployment: Schema | undefined;
before(async () => {
  builtin = await loadBuiltinSchemas();
  deployment = builtin.schemaFor({ group: 'apps', version: 'v1', kind: 'Deployment' });
});

const container = (extra: Record<string, unknown>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'x', labels: { app: 'a' } },
  spec: { template: { spec: { containers: [{ name: 'c', image: 'i', ...extra }] } } },
});

describe('findUnknownFields (built-in Deployment)', () => {
  const cases: [string, unknown, string[]][] = [
    ['valid', container({}), []],
    [
      'typo in a container',
      container({ imagee: 'x' }),
      ['spec.template.spec.containers[0].imagee'],
    ],
    ['metadata', { metadata: { labelz: {} } }, ['metadata.labelz']],
    ['root', { spec: {}, foo: 1 }, ['foo']],
    ['map keys are free', { metadata: { labels: { anything: 'x' } } }, []],
    [
      'quantities and int-or-string',
      container({ resources: { limits: { cpu: '1' } }, ports: [{ containerPort: 80 }] }),
      [],
    ],
    ['unknown value not walked', { spec: { foo: { bar: 1 } } }, ['spec.foo']],
    ['document order', { spec: { b: 1, paused: true, a: 2 } }, ['spec.b', 'spec.a']],
    [
      'int-or-string strategy',
      { spec: { strategy: { rollingUpdate: { maxSurge: '25%', extra: 1 } } } },
      ['spec.strategy.rollingUpdate.extra'],
    ],
  ];
  for (const [name, value, expected] of cases) {
    it(name, () =>
      assert.deepEqual(findUnknownFields(value, deployment, builtin.navigator), expected),
    );
  }

  it('sortKeys visits keys as Go-marshalled JSON orders them', () => {
    const value = {
      spec: {
        unknownDupe: 1,
        unknown1: 1,
        template: { spec: { containers: [{ unknownNested: 1 }] } },
      },
    };
    assert.deepEqual(findUnknownFields(value, deployment, builtin.navigator, { sortKeys: true }), [
      'spec.template.spec.containers[0].unknownNested',
      'spec.unknown1',
      'spec.unknownDupe',
    ]);
  });

  it('Object.prototype names are unknown in built-in structs, maps still accept them', () => {
    const body = JSON.parse(
      '{"metadata":{"labels":{"constructor":"x"},"__proto__":{}},"spec":{"toString":1,"constructor":{"a":1}}}',
    );
    assert.deepEqual(findUnknownFields(body, deployment, builtin.navigator), [
      'metadata.__proto__',
      'spec.toString',
      'spec.constructor',
    ]);
  });

  it('opaque RawExtension accepts anything', () => {
    const cr = builtin.schemaFor({ group: 'apps', version: 'v1', kind: 'ControllerRevision' });
    assert.deepEqual(findUnknownFields({ data: { any: { thing: 1 } } }, cr, builtin.navigator), []);
  });

  it('CRD schemas nest through JSONSchemaProps maps', () => {
    const crd = builtin.schemaFor({
      group: 'apiextensions.k8s.io',
      version: 'v1',
      kind: 'CustomResourceDefinition',
    });
    const body = {
      spec: {
        versions: [{ name: 'v1', schema: { openAPIV3Schema: { properties: { a: { typo: 1 } } } } }],
      },
    };
    assert.deepEqual(findUnknownFields(body, crd, builtin.navigator), [
      'spec.versions[0].schema.openAPIV3Schema.properties.a.typo',
    ]);
  });
});

describe('findUnknownFields (custom resource schema)', () => {
  const nav = new SchemaNavigator();
  const schema: Schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          known: { type: 'string' },
          port: { 'x-kubernetes-int-or-string': true },
          ports: {
            type: 'array',
            items: { type: 'object', properties: { containerPort: { type: 'integer' } } },
          },
          free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          embedded: {
            type: 'object',
            'x-kubernetes-embedded-resource': true,
            properties: { spec: { type: 'object' } },
          },
          empty: { type: 'object' },
        },
      },
    },
  };
  const cases: [string, unknown, string[]][] = [
    [
      'apiVersion, kind, metadata known at root',
      { apiVersion: 'a/v1', kind: 'K', metadata: { name: 'x' } },
      [],
    ],
    ['metadata checked as ObjectMeta', { metadata: { name: 'x', foo: 1 } }, ['metadata.foo']],
    [
      'nested list',
      { spec: { ports: [{ containerPort: 1, unknownNested: 'v' }] } },
      ['spec.ports[0].unknownNested'],
    ],
    ['int-or-string', { spec: { port: 'http' } }, []],
    ['preserve-unknown-fields', { spec: { free: { a: { b: 1 } } } }, []],
    ['additionalProperties', { spec: { labels: { x: 'y' } } }, []],
    [
      'embedded resource',
      {
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
      ['spec.embedded.metadata.bad', 'spec.embedded.other'],
    ],
    [
      'object without properties prunes everything',
      { spec: { empty: { a: 1 } } },
      ['spec.empty.a'],
    ],
    [
      'Object.prototype names are not declared',
      { spec: JSON.parse('{"constructor":{"a":1},"toString":1,"__proto__":{"b":2},"known":"k"}') },
      ['spec.constructor', 'spec.toString', 'spec.__proto__'],
    ],
    [
      'Object.prototype names in metadata (shallow ObjectMeta)',
      { metadata: JSON.parse('{"name":"x","hasOwnProperty":1,"__proto__":{}}') },
      ['metadata.hasOwnProperty', 'metadata.__proto__'],
    ],
  ];
  for (const [name, value, expected] of cases) {
    it(name, () => assert.deepEqual(findUnknownFields(value, schema, nav), expected));
  }
});

describe('findStrictJsonErrors', () => {
  it('interleaves unknown and duplicate fields in document order (upstream invalidBodyJSON)', () => {
    const text = `{
      "apiVersion": "apps/v1", "kind": "Deployment",
      "metadata": {"name": "x", "labels": {"app": "nginx"}},
      "spec": {
        "unknown1": "val1", "unknownDupe": "valDupe", "unknownDupe": "valDupe2",
        "paused": true, "paused": false,
        "selector": {"matchLabels": {"app": "nginx"}},
        "template": {"metadata": {"labels": {"app": "nginx"}}, "spec": {"containers": [{
          "name": "nginx", "image": "nginx:latest", "unknownNested": "val1",
          "imagePullPolicy": "Always", "imagePullPolicy": "Never"}]}}}}`;
    assert.deepEqual(findStrictJsonErrors(parseJsonMembers(text), deployment, builtin.navigator), [
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
      'duplicate field "spec.paused"',
      'unknown field "spec.template.spec.containers[0].unknownNested"',
      'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
    ]);
  });

  it('reports repeated map keys and keys inside free-form values', () => {
    const text =
      '{"metadata":{"labels":{"a":"1","a":"2"}},"spec":{"template":{"metadata":{"annotations":{"b":"1","b":"2"}}}}}';
    assert.deepEqual(findStrictJsonErrors(parseJsonMembers(text), deployment, builtin.navigator), [
      'duplicate field "metadata.labels.a"',
      'duplicate field "spec.template.metadata.annotations.b"',
    ]);
  });

  it('caps at 100 errors', () => {
    const body = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`f${i}`, i]));
    const errors = findStrictJsonErrors(
      parseJsonMembers(JSON.stringify({ spec: body })),
      deployment,
      builtin.navigator,
    );
    assert.equal(errors.length, 100);
  });
});
