import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type JsonSchema, SUPPORTED_KEYWORDS, validateJsonSchema } from './json-schema.js';
import { SCENARIO_SCHEMA } from './parse.js';

const schema: JsonSchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1 },
    timeout: { $ref: '#/$defs/duration' },
    count: { type: 'integer', minimum: 0, maximum: 9 },
    mode: { type: 'string', enum: ['a', 'b'] },
    list: { type: 'array', minItems: 1, items: { type: 'string' } },
    crash: { type: 'string' },
    exitCode: { type: 'integer' },
  },
  dependentRequired: { exitCode: ['crash'] },
  $defs: {
    duration: { title: 'a Go duration such as 30s', type: 'string', pattern: '^[0-9]+(s|m)$' },
  },
};

describe('validateJsonSchema', () => {
  const cases: [string, unknown, string[]][] = [
    ['valid', { name: 'x', timeout: '5m', count: 3, mode: 'a', list: ['q'] }, []],
    ['missing required', {}, [': missing required field "name"']],
    ['wrong type', { name: 5 }, ['name: must be a string, got 5']],
    ['empty string', { name: '' }, ['name: must not be empty']],
    [
      'pattern with title',
      { name: 'x', timeout: '5 minutes' },
      ['timeout: must be a Go duration such as 30s, got "5 minutes"'],
    ],
    [
      'ref type with title',
      { name: 'x', timeout: 5 },
      ['timeout: must be a Go duration such as 30s, got 5'],
    ],
    ['integer', { name: 'x', count: 1.5 }, ['count: must be an integer, got 1.5']],
    ['minimum', { name: 'x', count: -1 }, ['count: must be at least 0, got -1']],
    ['maximum', { name: 'x', count: 10 }, ['count: must be at most 9, got 10']],
    ['enum', { name: 'x', mode: 'c' }, ['mode: must be one of "a", "b", got "c"']],
    ['empty list', { name: 'x', list: [] }, ['list: must not be empty']],
    ['list item', { name: 'x', list: ['a', 3] }, ['list.1: must be a string, got 3']],
    [
      'unknown field with hint',
      { name: 'x', tmeout: '5s' },
      ['tmeout: unknown field "tmeout" (did you mean "timeout"?)'],
    ],
    ['unknown field without hint', { name: 'x', zzzzzz: 1 }, ['zzzzzz: unknown field "zzzzzz"']],
    ['dependent', { name: 'x', exitCode: 1 }, ['exitCode: applies to "crash" only']],
    ['not a mapping', [1], [': must be a mapping, got a list']],
  ];
  for (const [title, value, want] of cases) {
    test(title, () => {
      const got = validateJsonSchema(schema, value).map((e) => `${e.path.join('.')}: ${e.message}`);
      assert.deepEqual(got, want);
    });
  }

  const oneOf: JsonSchema = {
    type: 'object',
    properties: { a: {}, b: {}, c: {} },
    oneOf: [{ required: ['a'] }, { required: ['b'] }, { required: ['c'] }],
  };
  const junctors: [string, unknown, string[]][] = [
    ['exactly one', { a: 1 }, []],
    ['none', {}, ['needs exactly one of the fields a, b, c']],
    ['two', { a: 1, c: 2 }, ['has "a" and "c", but only one of them may be given']],
  ];
  for (const [title, value, want] of junctors) {
    test(`oneOf of required keys: ${title}`, () => {
      assert.deepEqual(
        validateJsonSchema(oneOf, value).map((e) => e.message),
        want,
      );
    });
  }

  test('anyOf of required keys: at least one', () => {
    const s: JsonSchema = { type: 'object', anyOf: [{ required: ['min'] }, { required: ['max'] }] };
    assert.deepEqual(validateJsonSchema(s, { min: 1, max: 2 }), []);
    assert.deepEqual(
      validateJsonSchema(s, {}).map((e) => e.message),
      ['needs at least one of the fields min, max'],
    );
  });
});

describe('scenario.schema.json', () => {
  test('uses only keywords the validator implements', () => {
    const unsupported: string[] = [];
    const walk = (s: unknown, path: string): void => {
      if (typeof s !== 'object' || s === null) return;
      if (Array.isArray(s)) {
        for (const [i, x] of s.entries()) walk(x, `${path}[${i}]`);
        return;
      }
      // Under these, keys are names (of properties, definitions), not keywords.
      const names = ['.properties', '.$defs', '.dependentRequired'].some((n) => path.endsWith(n));
      for (const [k, v] of Object.entries(s)) {
        if (!names && !SUPPORTED_KEYWORDS.has(k)) unsupported.push(`${path}.${k}`);
        walk(v, `${path}.${k}`);
      }
    };
    walk(SCENARIO_SCHEMA, '#');
    assert.deepEqual(unsupported, []);
  });

  test('every $ref resolves', () => {
    const refs = JSON.stringify(SCENARIO_SCHEMA).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const ref of refs) {
      const name = ref.replace(/^"\$ref":"#\/\$defs\//, '').replace(/"$/, '');
      assert.ok(SCENARIO_SCHEMA.$defs?.[name], `${ref} resolves`);
    }
  });
});
