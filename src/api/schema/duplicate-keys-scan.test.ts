import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { findDuplicateFields, hasDuplicateKeys } from './duplicate-fields.js';

describe('hasDuplicateKeys', () => {
  const cases: Array<[string, boolean]> = [
    ['{}', false],
    ['{"a":1,"b":2}', false],
    ['{"a":1,"a":2}', true],
    ['{"a":{"b":1},"c":{"b":2}}', false],
    ['{"a":{"b":1,"b":2}}', true],
    ['[{"a":1},{"a":1}]', false],
    ['{"a":["a","a"]}', false],
    ['{"a\\"b":1,"a\\"b":2}', true],
    ['{"\\u0061":1,"a":2}', true],
    ['{"k":"x\\\\","k2":"{\\"k\\":1,\\"k\\":2}"}', false],
    ['{"a":1 , "a" : 2}', true],
  ];
  for (const [text, expected] of cases) {
    it(`${text} → ${expected}`, () => assert.equal(hasDuplicateKeys(text), expected));
  }

  it('agrees with findDuplicateFields on arbitrary JSON texts', () => {
    const key = fc.constantFrom('a', 'b', 'c', 'a"b', 'ä', '\\');
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.string(),
        fc.integer(),
        fc.array(tie('v'), { maxLength: 3 }),
        fc.array(fc.tuple(key, tie('v')), { maxLength: 4 }),
      ),
    })).v;
    const render = (v: unknown): string => {
      if (
        Array.isArray(v) &&
        v.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string')
      )
        return `{${(v as [string, unknown][]).map(([k, x]) => `${JSON.stringify(k)}:${render(x)}`).join(',')}}`;
      if (Array.isArray(v)) return `[${v.map(render).join(',')}]`;
      return JSON.stringify(v);
    };
    fc.assert(
      fc.property(value, (v) => {
        const text = render(v);
        assert.equal(hasDuplicateKeys(text), findDuplicateFields(text).length > 0, text);
      }),
    );
  });
});
