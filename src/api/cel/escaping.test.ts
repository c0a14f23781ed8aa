import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { escapeProperty, unescapeProperty } from './escaping.js';
import { parseGoDurationNanos } from './library/go-duration.js';

describe('escapeProperty', () => {
  const CASES: readonly (readonly [string, string | undefined])[] = [
    ['replicas', 'replicas'],
    ['x-y', 'x__dash__y'],
    ['a.b', 'a__dot__b'],
    ['a/b', 'a__slash__b'],
    ['a__b', 'a__underscores__b'],
    ['_x', '_x'],
    ['namespace', '__namespace__'],
    ['in', '__in__'],
    ['true', '__true__'],
    ['-x', '__dash__x'],
    ['1x', undefined],
    ['', undefined],
    ['a b', undefined],
    ['a:b', undefined],
  ];
  for (const [name, want] of CASES) {
    it(`${JSON.stringify(name)} → ${String(want)}`, () => assert.equal(escapeProperty(name), want));
  }

  it('round-trips every escapable name', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-zA-Z_./-][a-zA-Z0-9_./-]{0,12}$/), (name) => {
        const escaped = escapeProperty(name);
        assert.ok(escaped !== undefined);
        assert.match(escaped, /^[a-zA-Z_][a-zA-Z0-9_]*$/);
        assert.equal(unescapeProperty(escaped), name);
      }),
    );
  });
});

describe('parseGoDurationNanos', () => {
  const CASES: readonly (readonly [string, bigint | undefined])[] = [
    ['0', 0n],
    ['1s', 1_000_000_000n],
    ['1.5h', 5_400_000_000_000n],
    ['2h45m', 9_900_000_000_000n],
    ['-300ms', -300_000_000n],
    ['1µs', 1_000n],
    ['1us1ns', 1_001n],
    ['', undefined],
    ['1', undefined],
    ['1x', undefined],
    ['.s', undefined],
    ['3000000h', undefined],
  ];
  for (const [text, want] of CASES) {
    it(`${JSON.stringify(text)}`, () => assert.equal(parseGoDurationNanos(text), want));
  }
});
