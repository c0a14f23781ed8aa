import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Schema } from '../schema/types.js';
import { compileSchemaValidations } from './compile.js';
import { validateWithCel } from './validate.js';

const RULES = [
  'self.replicas >= 0',
  'self.name.startsWith("a") || size(self.name) > 2',
  'self.tags.all(t, t.matches("^[a-z]+$"))',
  'self.labels.exists(k, self.labels[k] == "x")',
  'has(self.ios) && type(self.ios) == string',
  'self.items.map(i, i.n).sum() < 100',
  'self.replicas == oldSelf.replicas',
  'quantity(self.name).isInteger()',
  'url(self.name).getHost() != ""',
  '1 / self.replicas > 0',
];

const SCHEMA: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      'x-kubernetes-validations': RULES.map((rule) => ({
        rule,
        messageExpression: 'self.name + "!"',
      })),
      properties: {
        replicas: { type: 'integer' },
        name: { type: 'string' },
        tags: {
          type: 'array',
          items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'size(self) < 5' }] },
        },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        ios: { 'x-kubernetes-int-or-string': true },
        items: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k'],
          items: {
            type: 'object',
            properties: { k: { type: 'string' }, n: { type: 'integer' } },
            'x-kubernetes-validations': [{ rule: 'self.n == oldSelf.n' }],
          },
        },
      },
    },
  },
};

/** Values that roughly fit the schema, and values that do not fit it at all. */
const anyJson = fc.jsonValue({ maxDepth: 3 });
const specValue = fc.record(
  {
    replicas: fc.oneof(fc.integer({ min: -3, max: 3 }), anyJson),
    name: fc.oneof(fc.string({ maxLength: 6 }), anyJson),
    tags: fc.oneof(fc.array(fc.string({ maxLength: 6 }), { maxLength: 4 }), anyJson),
    labels: fc.oneof(
      fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 })),
      anyJson,
    ),
    ios: fc.oneof(fc.integer(), fc.string(), anyJson),
    items: fc.oneof(
      fc.array(fc.record({ k: fc.constantFrom('a', 'b'), n: fc.integer({ min: 0, max: 60 }) }), {
        maxLength: 3,
      }),
      anyJson,
    ),
  },
  { requiredKeys: [] },
);
const object = fc.oneof(fc.record({ spec: specValue }), anyJson);

describe('validateWithCel properties', () => {
  const { compiled, errors } = compileSchemaValidations(SCHEMA);

  it('compiles the rules used below', () => assert.deepEqual(errors, []));

  it('never throws, and returns well-formed field errors', () => {
    fc.assert(
      fc.property(object, fc.option(object, { nil: undefined }), (obj, old) => {
        const errs = validateWithCel(compiled, obj, old);
        for (const e of errs) {
          assert.equal(typeof e.field, 'string');
          assert.equal(typeof e.detail, 'string');
          assert.notEqual(e.type, 'InternalError', e.detail);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(object, (obj) => {
        assert.deepEqual(
          validateWithCel(compiled, obj, undefined),
          validateWithCel(compiled, obj, undefined),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('reports nothing for an object without spec', () => {
    assert.deepEqual(validateWithCel(compiled, { metadata: { name: 'x' } }, undefined), []);
  });
});
