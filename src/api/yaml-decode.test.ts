import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeYamlText, EXCESSIVE_ALIASING, yamlTextDepth } from './yaml-decode.js';

const forms: Record<string, (d: number) => string> = {
  'flow sequences': (d) => `${'['.repeat(d)}${']'.repeat(d)}`,
  'flow mappings': (d) => `${'{a: '.repeat(d)}1${'}'.repeat(d)}`,
  'compact block sequences': (d) => `${'- '.repeat(d)}x\n`,
  'block mappings': (d) =>
    `${Array.from({ length: d }, (_, i) => `${' '.repeat(i)}a:`).join('\n')} 1\n`,
};

function laughs(levels: number): string {
  let text = 'a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n';
  for (let i = 1; i < levels; i++) {
    text += `a${i}: &a${i} [${Array(10)
      .fill(`*a${i - 1}`)
      .join(', ')}]\n`;
  }
  return text;
}

describe('decodeYamlText depth', () => {
  for (const [name, make] of Object.entries(forms)) {
    it(`${name}: measures the nesting exactly`, () => {
      for (const d of [1, 2, 7]) assert.equal(yamlTextDepth(make(d)).depth, d);
    });
    it(`${name}: 500 levels decode, 501 and 10,001 are refused without overflowing`, () => {
      assert.doesNotThrow(() => decodeYamlText(make(500)));
      assert.throws(() => decodeYamlText(make(501)), /nested more than 500 levels deep/);
      if (name !== 'block mappings') {
        // (block mappings 10,001 deep need 50 MB of indentation, past any body limit)
        assert.throws(() => decodeYamlText(make(10_001)), /exceeded max depth of 10000/);
        assert.throws(() => decodeYamlText(make(9_999)), /nested more than 500 levels deep/);
      }
    });
  }

  it('refuses depth built by aliases nested in anchors', () => {
    let text = `a0: &a0 ${'['.repeat(200)}${']'.repeat(200)}\n`;
    for (let i = 1; i < 4; i++)
      text += `a${i}: &a${i} ${'['.repeat(200)}*a${i - 1}${']'.repeat(200)}\n`;
    assert.throws(() => decodeYamlText(text), /nested more than 500 levels deep/);
  });
});

describe('decodeYamlText aliases', () => {
  const cases: Array<[string, string]> = [
    ['billion laughs (10^9 lols)', laughs(10)],
    ['one anchor used 101 times', `a: &a [1]\nb: [${Array(101).fill('*a').join(', ')}]\n`],
    [
      '100 anchors of 300 nodes, each used 100 times (passes maxAliasCount)',
      Array.from({ length: 100 }, (_, i) => `k${i}: &k${i} [${Array(300).fill('1').join(',')}]\n`)
        .concat(
          Array.from(
            { length: 100 },
            (_, i) => `u${i}: [${Array(100).fill(`*k${i}`).join(',')}]\n`,
          ),
        )
        .join(''),
    ],
  ];
  for (const [name, text] of cases) {
    it(`refuses ${name} quickly`, () => {
      const start = performance.now();
      assert.throws(() => decodeYamlText(text), { message: EXCESSIVE_ALIASING });
      assert.ok(performance.now() - start < 2000);
    });
  }

  it('accepts a few aliases, each use its own copy', () => {
    const v = decodeYamlText('a: &x {b: 1}\nc: *x\nd: *x\n') as Record<string, { b: number }>;
    assert.deepEqual(v, { a: { b: 1 }, c: { b: 1 }, d: { b: 1 } });
    assert.notEqual(v.a, v.c);
    assert.notEqual(v.c, v.d);
  });

  it('reports syntax errors with the library text', () => {
    assert.throws(() => decodeYamlText('a: [1'), /Flow sequence|flow collection|Missing/i);
  });
});
