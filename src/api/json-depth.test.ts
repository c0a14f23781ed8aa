import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  jsonDepthProblem,
  jsonTextDepth,
  MAX_DECODE_DEPTH,
  MAX_OBJECT_DEPTH,
  valueDepth,
  valueDepthProblem,
} from './json-depth.js';

const nested = (d: number, open = '{"a":', close = '}') =>
  open.repeat(d - 1) + (open === '[' ? '[]' : '{}') + close.repeat(d - 1);

describe('jsonTextDepth', () => {
  const cases: Array<[string, string, number]> = [
    ['a scalar', '1', 0],
    ['an empty object', '{}', 1],
    ['brackets inside strings', '{"a":"[[[{{{"}', 1],
    ['an escaped quote inside a string', '{"a":"\\"[[[","b":[1]}', 2],
    ['an escaped backslash before the closing quote', '{"a":"\\\\","b":[[1]]}', 3],
    ['siblings', '[[1],[2],[[3]]]', 3],
    ['objects, 500 deep', nested(500), 500],
    ['arrays, 501 deep', nested(501, '[', ']'), 501],
  ];
  for (const [name, text, depth] of cases) {
    it(name, () => assert.equal(jsonTextDepth(text).depth, depth));
  }

  it('stops at the first bracket past 10,000 and names it', () => {
    const scan = jsonTextDepth('['.repeat(MAX_DECODE_DEPTH + 5));
    assert.deepEqual(scan, { depth: MAX_DECODE_DEPTH + 1, opener: '[' });
  });

  it('agrees with JSON.parse + valueDepth on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), (v) => {
        assert.equal(jsonTextDepth(JSON.stringify(v)).depth, valueDepth(v));
      }),
      { seed: 13, numRuns: 300 },
    );
  });
});

describe('the depth limits', () => {
  const cases: Array<[string, number, RegExp | undefined]> = [
    ['500 levels are processed', MAX_OBJECT_DEPTH, undefined],
    ['501 levels: this server refuses', MAX_OBJECT_DEPTH + 1, /more than 500 levels deep/],
    ['9,999 levels: this server refuses', 9_999, /more than 500 levels deep.*allows 10000/],
    ['10,000 levels: this server refuses', 10_000, /more than 500 levels deep/],
    ['10,001 levels: upstream refuses', 10_001, /^invalid character '\{' exceeded max depth$/],
  ];
  for (const [name, depth, problem] of cases) {
    it(`JSON text: ${name}`, () => {
      const found = jsonDepthProblem(nested(depth));
      if (problem === undefined) assert.equal(found, undefined);
      else assert.match(found ?? '', problem);
    });
    it(`decoded value: ${name}`, () => {
      const found = valueDepthProblem(JSON.parse(nested(depth)));
      if (problem === undefined) assert.equal(found, undefined);
      else assert.match(found ?? '', /more than 500|exceeded max depth/);
    });
  }

  it('walks a value shared by many parents once per depth (a DAG, as YAML aliases make)', () => {
    let node: unknown = { leaf: 1 };
    for (let i = 0; i < 40; i++) node = [node, node];
    const start = performance.now();
    assert.equal(valueDepth(node), 41);
    assert.ok(performance.now() - start < 1000);
  });
});
