import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { fieldErrorText } from '../../api/field-error.js';
import type { Schema } from '../../api/schema/types.js';
import { validateCustomObject, validateScaleReplicas } from './validate-object.js';

const obj = (spec: unknown) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w' },
  spec,
});
const withSpec = (spec: Schema): Schema => ({ type: 'object', properties: { spec } });
const texts = (o: unknown, s: Schema) => validateCustomObject(o, s).map(fieldErrorText);

interface Case {
  readonly name: string;
  readonly schema: Schema;
  readonly spec: unknown;
  readonly want: readonly string[];
}

const keywordCases: Case[] = [
  {
    name: 'type integer given a string',
    schema: withSpec({ type: 'object', properties: { replicas: { type: 'integer' } } }),
    spec: { replicas: 'three' },
    want: [
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ],
  },
  {
    name: 'type integer given a float',
    schema: withSpec({ type: 'object', properties: { replicas: { type: 'integer' } } }),
    spec: { replicas: 1.5 },
    want: [
      'spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"',
    ],
  },
  {
    name: 'type number accepts an integer',
    schema: withSpec({ type: 'object', properties: { ratio: { type: 'number' } } }),
    spec: { ratio: 2 },
    want: [],
  },
  {
    name: 'null in a non-nullable field',
    schema: withSpec({ type: 'object', properties: { name: { type: 'string' } } }),
    spec: { name: null },
    want: ['spec.name: Invalid value: "null": spec.name in body must be of type string: "null"'],
  },
  {
    name: 'null in a nullable field',
    schema: withSpec({ type: 'object', properties: { name: { type: 'string', nullable: true } } }),
    spec: { name: null },
    want: [],
  },
  {
    name: 'int-or-string given a boolean',
    schema: withSpec({
      type: 'object',
      properties: { port: { 'x-kubernetes-int-or-string': true } },
    }),
    spec: { port: true },
    want: [
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
    ],
  },
  {
    name: 'int-or-string accepts both',
    schema: withSpec({
      type: 'object',
      properties: {
        a: { 'x-kubernetes-int-or-string': true },
        b: { 'x-kubernetes-int-or-string': true },
      },
    }),
    spec: { a: 80, b: 'http' },
    want: [],
  },
  {
    name: 'required',
    schema: withSpec({
      type: 'object',
      required: ['size'],
      properties: { size: { type: 'string' } },
    }),
    spec: {},
    want: ['spec.size: Required value'],
  },
  {
    name: 'required at the root',
    schema: { type: 'object', required: ['spec'], properties: { spec: { type: 'object' } } },
    spec: undefined,
    want: ['spec: Required value'],
  },
  {
    name: 'enum',
    schema: withSpec({
      type: 'object',
      properties: { color: { type: 'string', enum: ['red', 'blue'] } },
    }),
    spec: { color: 'green' },
    want: ['spec.color: Unsupported value: "green": supported values: "red", "blue"'],
  },
  {
    name: 'enum of numbers',
    schema: withSpec({ type: 'object', properties: { n: { type: 'integer', enum: [1, 2] } } }),
    spec: { n: 3 },
    want: ['spec.n: Unsupported value: 3: supported values: "1", "2"'],
  },
  {
    name: 'pattern',
    schema: withSpec({
      type: 'object',
      properties: { id: { type: 'string', pattern: '^[a-z]+$' } },
    }),
    spec: { id: 'ABC' },
    want: ['spec.id: Invalid value: "ABC": spec.id in body should match \'^[a-z]+$\''],
  },
  {
    name: 'minimum',
    schema: withSpec({ type: 'object', properties: { replicas: { type: 'integer', minimum: 1 } } }),
    spec: { replicas: 0 },
    want: [
      'spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1',
    ],
  },
  {
    name: 'exclusive maximum',
    schema: withSpec({
      type: 'object',
      properties: { replicas: { type: 'integer', maximum: 10, exclusiveMaximum: true } },
    }),
    spec: { replicas: 10 },
    want: ['spec.replicas: Invalid value: 10: spec.replicas in body should be less than 10'],
  },
  {
    name: 'maximum on a float value prints the bound as a Go float',
    schema: withSpec({ type: 'object', properties: { r: { type: 'number', maximum: 1000000 } } }),
    spec: { r: 1000000.5 },
    want: [
      'spec.r: Invalid value: 1000000.5: spec.r in body should be less than or equal to 1e+06',
    ],
  },
  {
    name: 'multipleOf',
    schema: withSpec({ type: 'object', properties: { n: { type: 'integer', multipleOf: 5 } } }),
    spec: { n: 12 },
    want: ['spec.n: Invalid value: 12: spec.n in body should be a multiple of 5'],
  },
  {
    name: 'maxLength counts runes',
    schema: withSpec({ type: 'object', properties: { s: { type: 'string', maxLength: 3 } } }),
    spec: { s: 'äöü' },
    want: [],
  },
  {
    name: 'maxLength',
    schema: withSpec({ type: 'object', properties: { s: { type: 'string', maxLength: 3 } } }),
    spec: { s: 'abcd' },
    want: ['spec.s: Too long: may not be more than 3 bytes'],
  },
  {
    name: 'minLength',
    schema: withSpec({ type: 'object', properties: { s: { type: 'string', minLength: 1 } } }),
    spec: { s: '' },
    want: ['spec.s: Invalid value: "": spec.s in body should be at least 1 chars long'],
  },
  {
    name: 'maxItems',
    schema: withSpec({
      type: 'object',
      properties: { l: { type: 'array', maxItems: 3, items: { type: 'integer' } } },
    }),
    spec: { l: [1, 2, 3, 4] },
    want: ['spec.l: Too many: 4: must have at most 3 items'],
  },
  {
    name: 'minItems',
    schema: withSpec({
      type: 'object',
      properties: { l: { type: 'array', minItems: 1, items: { type: 'integer' } } },
    }),
    spec: { l: [] },
    want: ['spec.l: Invalid value: 0: spec.l in body should have at least 1 items'],
  },
  {
    name: 'items are validated with their index',
    schema: withSpec({
      type: 'object',
      properties: { l: { type: 'array', items: { type: 'integer' } } },
    }),
    spec: { l: [1, 'x'] },
    want: [
      'spec.l[1]: Invalid value: "string": spec.l[1] in body must be of type integer: "string"',
    ],
  },
  {
    name: 'uniqueItems',
    schema: withSpec({
      type: 'object',
      properties: { l: { type: 'array', uniqueItems: true, items: { type: 'integer' } } },
    }),
    spec: { l: [1, 1] },
    want: ['spec.l: Invalid value: "": spec.l in body shouldn\'t contain duplicates'],
  },
  {
    name: 'maxProperties',
    schema: withSpec({
      type: 'object',
      properties: {
        m: { type: 'object', maxProperties: 1, additionalProperties: { type: 'string' } },
      },
    }),
    spec: { m: { a: 'x', b: 'y' } },
    want: ['spec.m: Too many: 2: must have at most 1 item'],
  },
  {
    name: 'minProperties',
    schema: withSpec({
      type: 'object',
      properties: {
        m: { type: 'object', minProperties: 1, additionalProperties: { type: 'string' } },
      },
    }),
    spec: { m: {} },
    want: ['spec.m: Invalid value: 0: spec.m in body should have at least 1 properties'],
  },
  {
    name: 'additionalProperties values use dotted paths',
    schema: withSpec({
      type: 'object',
      properties: { m: { type: 'object', additionalProperties: { type: 'integer' } } },
    }),
    spec: { m: { a: 'x' } },
    want: ['spec.m.a: Invalid value: "string": spec.m.a in body must be of type integer: "string"'],
  },
  {
    name: 'format uuid',
    schema: withSpec({ type: 'object', properties: { id: { type: 'string', format: 'uuid' } } }),
    spec: { id: 'nope' },
    want: ['spec.id: Invalid value: "nope": spec.id in body must be of type uuid: "nope"'],
  },
  {
    name: 'format date-time',
    schema: withSpec({
      type: 'object',
      properties: { t: { type: 'string', format: 'date-time' } },
    }),
    spec: { t: '2024-02-30T10:00:00Z' },
    want: [
      'spec.t: Invalid value: "2024-02-30T10:00:00Z": spec.t in body must be of type date-time: "2024-02-30T10:00:00Z"',
    ],
  },
  {
    name: 'unknown and stripped formats are ignored',
    schema: withSpec({
      type: 'object',
      properties: { a: { type: 'string', format: 'foo' }, b: { type: 'integer', format: 'int32' } },
    }),
    spec: { a: 'anything', b: 99999999999 },
    want: [],
  },
  {
    name: 'anyOf reports the junctor at <nil> and the best branch',
    schema: withSpec({
      type: 'object',
      properties: { v: { type: 'integer', anyOf: [{ minimum: 10 }, { maximum: 2 }] } },
    }),
    spec: { v: 5 },
    want: [
      '<nil>: Invalid value: "": "spec.v" must validate at least one schema (anyOf)',
      'spec.v: Invalid value: 5: spec.v in body should be greater than or equal to 10',
    ],
  },
  {
    name: 'oneOf with two matches',
    schema: withSpec({
      type: 'object',
      properties: { v: { type: 'integer', oneOf: [{ minimum: 1 }, { maximum: 10 }] } },
    }),
    spec: { v: 5 },
    want: [
      '<nil>: Invalid value: "": "spec.v" must validate one and only one schema (oneOf). Found 2 valid alternatives',
    ],
  },
  {
    name: 'not',
    schema: withSpec({
      type: 'object',
      properties: { v: { type: 'string', not: { enum: ['x'] } } },
    }),
    spec: { v: 'x' },
    want: ['<nil>: Invalid value: "": "spec.v" must not validate the schema (not)'],
  },
  {
    name: 'allOf',
    schema: withSpec({
      type: 'object',
      properties: { v: { type: 'string', allOf: [{ maxLength: 1 }] } },
    }),
    spec: { v: 'xy' },
    want: [
      'spec.v: Too long: may not be more than 1 byte',
      '<nil>: Invalid value: "": "spec.v" must validate all the schemas (allOf). None validated',
    ],
  },
  {
    name: 'list-type set duplicates',
    schema: withSpec({
      type: 'object',
      properties: {
        l: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      },
    }),
    spec: { l: ['a', 'b', 'a', 'a'] },
    want: ['spec.l[2]: Duplicate value: "a"'],
  },
  {
    name: 'list-type map duplicates',
    schema: withSpec({
      type: 'object',
      properties: {
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
        },
      },
    }),
    spec: { ports: [{ name: 'http' }, { name: 'http' }] },
    want: ['spec.ports[1]: Duplicate value: {"name":"http"}'],
  },
  {
    name: 'embedded resource needs apiVersion and kind, metadata is checked',
    schema: withSpec({
      type: 'object',
      properties: {
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
      },
    }),
    spec: { template: { metadata: { name: 'a/b' } } },
    want: [
      'spec.template.apiVersion: Required value',
      'spec.template.kind: Required value',
      'spec.template.metadata.name: Invalid value: "a/b": may not contain \'/\'',
    ],
  },
  {
    name: 'embedded resource kind must look like a kind',
    schema: withSpec({
      type: 'object',
      properties: {
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
      },
    }),
    spec: { template: { apiVersion: 'a/b/c', kind: 'Foo_Bar' } },
    want: [
      'spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      "spec.template.kind: Invalid value: \"Foo_Bar\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ],
  },
];

describe('validateCustomObject: keywords with upstream messages', () => {
  for (const c of keywordCases) {
    it(c.name, () => {
      const o =
        c.spec === undefined ? { apiVersion: 'example.com/v1', kind: 'Widget' } : obj(c.spec);
      assert.deepEqual(texts(o, c.schema), c.want);
    });
  }
});

describe('validateCustomObject: cause types', () => {
  it('uses FieldValueTypeInvalid for type errors and FieldValueNotSupported for enums', () => {
    const s = withSpec({
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'string', enum: ['x'] } },
    });
    const types = validateCustomObject(obj({ a: 'x', b: 'y' }), s).map((e) => e.type);
    assert.deepEqual(types, ['FieldValueTypeInvalid', 'FieldValueNotSupported']);
  });
  it('accepts anything without a schema', () => {
    assert.deepEqual(validateCustomObject(obj({ a: 1 }), undefined), []);
  });
});

describe('validateScaleReplicas', () => {
  const scale = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' };
  it('rejects negative and non-integer replicas at the JSON path', () => {
    const errs = validateScaleReplicas(
      { spec: { replicas: -1 }, status: { replicas: 'x' } },
      scale,
    ).map(fieldErrorText);
    assert.deepEqual(errs, [
      '.spec.replicas: Invalid value: -1: should be a non-negative integer',
      '.status.replicas: Invalid value: 0: .status.replicas accessor error: x is of the type string, expected int64',
    ]);
  });
});

describe('validateCustomObject: properties', () => {
  const json = fc.jsonValue({ maxDepth: 4 });
  const schemaArb: fc.Arbitrary<Schema> = fc.letrec<{ s: Schema }>((tie) => ({
    s: fc.oneof(
      { depthSize: 'small' },
      fc.record(
        {
          type: fc.constantFrom('object', 'array', 'string', 'integer', 'number', 'boolean'),
          nullable: fc.boolean(),
          enum: fc.array(json, { maxLength: 3 }),
          pattern: fc.constantFrom('^a', '[', '(?i)x', 'a{2}'),
          minimum: fc.integer(),
          multipleOf: fc.constantFrom(0.5, 2, -1, 0.1),
          maxLength: fc.nat(5),
          format: fc.constantFrom(
            'uuid',
            'date-time',
            'byte',
            'email',
            'hostname',
            'cidr',
            'mac',
            'uri',
          ),
          'x-kubernetes-list-type': fc.constantFrom('set', 'map', 'atomic'),
          'x-kubernetes-embedded-resource': fc.boolean(),
          'x-kubernetes-int-or-string': fc.boolean(),
        },
        { requiredKeys: [] },
      ),
      fc.record(
        {
          type: fc.constant('object'),
          properties: fc.dictionary(fc.string({ maxLength: 3 }), tie('s'), { maxKeys: 3 }),
          additionalProperties: fc.oneof(fc.boolean(), tie('s')),
          required: fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
          anyOf: fc.array(tie('s'), { maxLength: 2 }),
          oneOf: fc.array(tie('s'), { maxLength: 2 }),
        },
        { requiredKeys: [] },
      ),
      fc.record({ type: fc.constant('array'), items: tie('s') }, { requiredKeys: [] }),
    ) as fc.Arbitrary<Schema>,
  })).s;

  it('never throws on arbitrary JSON and arbitrary schemas', () => {
    fc.assert(
      fc.property(json, schemaArb, (value, schema) => {
        const errs = validateCustomObject(value, schema);
        assert.ok(Array.isArray(errs));
        for (const e of errs) assert.equal(typeof fieldErrorText(e), 'string');
      }),
      { numRuns: 300 },
    );
  });

  it('a value that validates keeps validating after a round trip through JSON', () => {
    fc.assert(
      fc.property(json, schemaArb, (value, schema) => {
        const a = validateCustomObject(value, schema).map(fieldErrorText);
        const b = validateCustomObject(JSON.parse(JSON.stringify(value ?? null)), schema).map(
          fieldErrorText,
        );
        assert.deepEqual(b, a);
      }),
      { numRuns: 100 },
    );
  });
});
