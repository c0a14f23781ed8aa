import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  canonicalQuantity,
  compareQuantities,
  formatQuantity,
  mustParseQuantity,
  parseQuantity,
  QUANTITY_FORMAT_ERROR,
  QUANTITY_SUFFIX_ERROR,
  roundUpToMilli,
} from './quantity.js';

describe('resource quantities', () => {
  // Canonical forms as upstream's Quantity.String() prints them.
  const canonical: [string | number, string][] = [
    ['100m', '100m'],
    ['0.1', '100m'],
    ['1', '1'],
    [2, '2'],
    ['1000', '1k'],
    ['1500', '1500'],
    ['1.5', '1500m'],
    ['1Gi', '1Gi'],
    ['1024Mi', '1Gi'],
    ['1.5Gi', '1536Mi'],
    ['1536', '1536'],
    ['512Ki', '512Ki'],
    ['0.5Ki', '512'],
    ['1e3', '1e3'],
    ['1E3', '1e3'],
    ['129e6', '129e6'],
    [128974848, '128974848'],
    ['0', '0'],
    ['0Gi', '0'],
    ['-1', '-1'],
    ['+5m', '5m'],
    ['1E', '1E'],
    ['.5', '500m'],
    ['1n', '1n'],
    ['0.0000000001', '1n'],
  ];
  for (const [input, want] of canonical) {
    it(`formats ${JSON.stringify(input)} as ${want}`, () =>
      assert.equal(formatQuantity(mustParseQuantity(input)), want));
  }

  const invalid: [string, string][] = [
    ['', QUANTITY_FORMAT_ERROR],
    ['abc', QUANTITY_FORMAT_ERROR],
    ['1.5.5', QUANTITY_FORMAT_ERROR],
    ['1K', QUANTITY_SUFFIX_ERROR],
    ['1e', QUANTITY_SUFFIX_ERROR],
    ['1 Gi', QUANTITY_FORMAT_ERROR],
  ];
  for (const [input, error] of invalid) {
    it(`rejects ${JSON.stringify(input)}`, () =>
      assert.deepEqual(parseQuantity(input), { ok: false, error }));
  }

  it('compares across formats', () => {
    assert.equal(compareQuantities(mustParseQuantity('1Gi'), mustParseQuantity('1073741824')), 0);
    assert.equal(compareQuantities(mustParseQuantity('500m'), mustParseQuantity('1')), -1);
    assert.equal(compareQuantities(mustParseQuantity('2'), mustParseQuantity('1500m')), 1);
  });

  it('rounds up to milli-units for resource lists', () => {
    assert.equal(formatQuantity(roundUpToMilli(mustParseQuantity('100u'))), '1m');
    assert.equal(canonicalQuantity('0.0001', true), '1m');
    assert.equal(canonicalQuantity('250m', true), '250m');
    assert.equal(canonicalQuantity({}, true), undefined);
  });

  it('keeps canonical strings canonical (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.constantFrom('', 'm', 'k', 'Ki', 'Mi', 'Gi', 'M', 'G'),
        (n, suffix) => {
          const once = canonicalQuantity(`${n}${suffix}`);
          assert.ok(once !== undefined);
          const twice = canonicalQuantity(once);
          assert.equal(twice, once);
          assert.equal(
            compareQuantities(mustParseQuantity(once), mustParseQuantity(`${n}${suffix}`)),
            0,
          );
        },
      ),
    );
  });
});
