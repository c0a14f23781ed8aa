import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Schema } from '../../api/schema/types.js';
import { applyDefaults } from './defaults.js';

const schema: Schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', default: 1 },
        mode: { type: 'string', default: 'fast', nullable: true },
        name: { type: 'string' },
        nested: {
          type: 'object',
          properties: { inner: { type: 'string', default: 'x' } },
        },
        withDefault: {
          type: 'object',
          default: {},
          properties: { a: { type: 'integer', default: 7 } },
        },
        list: {
          type: 'array',
          items: {
            type: 'object',
            default: { k: 'v' },
            properties: { k: { type: 'string' }, n: { type: 'integer', default: 0 } },
          },
        },
        map: { type: 'object', additionalProperties: { type: 'string', default: 'dflt' } },
      },
    },
  },
};

interface Case {
  readonly name: string;
  readonly input: unknown;
  readonly want: unknown;
}

const cases: Case[] = [
  {
    name: 'defaults fill absent fields; nested defaults need their parent',
    input: { spec: {} },
    want: { spec: { replicas: 1, mode: 'fast', withDefault: { a: 7 } } },
  },
  {
    name: 'no spec, no nested defaults',
    input: { metadata: { name: 'a' } },
    want: { metadata: { name: 'a' } },
  },
  {
    name: 'an existing parent gets its nested defaults',
    input: { spec: { nested: {}, replicas: 3 } },
    want: { spec: { nested: { inner: 'x' }, replicas: 3, mode: 'fast', withDefault: { a: 7 } } },
  },
  {
    name: 'null: non-nullable is defaulted, nullable is kept, no default is dropped',
    input: { spec: { replicas: null, mode: null, name: null } },
    want: { spec: { replicas: 1, mode: null, withDefault: { a: 7 } } },
  },
  {
    name: 'list items and map values that are null take their default',
    input: { spec: { list: [null, { k: 'a' }], map: { a: null, b: 'c' } } },
    want: {
      spec: {
        replicas: 1,
        mode: 'fast',
        withDefault: { a: 7 },
        list: [
          { k: 'v', n: 0 },
          { k: 'a', n: 0 },
        ],
        map: { a: 'dflt', b: 'c' },
      },
    },
  },
];

describe('applyDefaults', () => {
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(applyDefaults(structuredClone(c.input), schema), c.want);
    });
  }

  it('copies defaults, so objects never share them', () => {
    const a = applyDefaults({ spec: {} } as { spec: { withDefault: { a: number } } }, schema);
    a.spec.withDefault.a = 99;
    const b = applyDefaults({ spec: {} } as { spec: { withDefault: { a: number } } }, schema);
    assert.equal(b.spec.withDefault.a, 7);
  });

  it('is idempotent', () => {
    const spec = fc.dictionary(
      fc.constantFrom('replicas', 'mode', 'name', 'nested', 'withDefault', 'list', 'map', 'other'),
      fc.jsonValue({ maxDepth: 3 }),
    );
    fc.assert(
      fc.property(fc.option(spec, { nil: undefined }), (s) => {
        const input = JSON.parse(JSON.stringify(s === undefined ? {} : { spec: s }));
        const once = applyDefaults(input, schema);
        const twice = applyDefaults(structuredClone(once), schema);
        assert.deepEqual(twice, once);
      }),
      { numRuns: 300 },
    );
  });
});
