/** The ASCII shortcut gives exactly node's UTF-8 encoding, for any string. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { utf8Bytes } from './utf8-bytes.js';

describe('utf8Bytes', () => {
  it("is Buffer.from(s, 'utf8') for any string", () => {
    const strings = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme-ascii' }),
      // Lone surrogates and Latin-1 characters, which Latin-1 would write as one byte.
      fc
        .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 20 })
        .map((cs) => String.fromCharCode(...cs)),
    );
    fc.assert(
      fc.property(strings, (s) => {
        assert.ok(utf8Bytes(s).equals(Buffer.from(s, 'utf8')));
      }),
    );
  });

  const cases: ReadonlyArray<readonly [string, string]> = [
    ['', ''],
    ['{"a":"b"}', '7b2261223a2262227d'],
    ['é', 'c3a9'],
    ['\u2028', 'e280a8'],
    ['\ud800', 'efbfbd'],
    ['😀', 'f09f9880'],
  ];
  for (const [s, hex] of cases) {
    it(`encodes ${JSON.stringify(s)}`, () => {
      assert.equal(utf8Bytes(s).toString('hex'), hex);
    });
  }
});
