import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { prefixEnd, SortedKeys } from './sorted-keys.js';

describe('prefixEnd', () => {
  it('returns the smallest string above every extension of the prefix', () => {
    assert.equal(prefixEnd('/a/'), '/a0');
    assert.equal(prefixEnd('a\uffff'), 'b');
    assert.equal(prefixEnd(''), undefined);
    assert.equal(prefixEnd('\uffff\uffff'), undefined);
  });
});

describe('SortedKeys', () => {
  it('matches a sorted-array model across block splits and removals', () => {
    const keyArb = fc
      .tuple(fc.constantFrom('/a/', '/b/', '/ab/', ''), fc.integer({ min: 0, max: 2999 }))
      .map(([p, n]) => `${p}${n.toString(36)}`);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.array(fc.tuple(fc.boolean(), keyArb), { maxLength: 300 }),
        fc.constantFrom('', '/a/', '/a', '/b/', '/c'),
        fc.option(keyArb, { nil: undefined }),
        (seed, ops, prefix, after) => {
          const keys = new SortedKeys();
          const model = new Set<string>();
          // 4,000 seeded pseudo-random adds (a Lehmer generator) force several 1,024-key block
          // splits; the generated ops then add and delete around them.
          let x = seed;
          for (let i = 0; i < 4000; i++) {
            x = (x * 48271) % 2147483647;
            const key = `${['/a/', '/b/', '/ab/', ''][x % 4]}${(x % 3000).toString(36)}`;
            keys.add(key);
            model.add(key);
          }
          for (const [add, key] of ops) {
            if (add) {
              keys.add(key);
              model.add(key);
            } else {
              keys.delete(key);
              model.delete(key);
            }
          }
          const sorted = [...model].sort();
          assert.equal(keys.size, sorted.length);
          assert.deepEqual([...keys.range('')], sorted);
          const expected = sorted.filter(
            (k) => k.startsWith(prefix) && (after === undefined || k > after),
          );
          assert.deepEqual([...keys.range(prefix, after)], expected);
          assert.equal(keys.countPrefix(prefix, after), expected.length);
          const probe = after ?? prefix;
          assert.equal(keys.rank(probe), sorted.filter((k) => k < probe).length);
          assert.equal(keys.rank(probe, true), sorted.filter((k) => k <= probe).length);
          for (const key of sorted) keys.delete(key);
          assert.deepEqual([keys.size, [...keys.range('')]], [0, []]);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('ignores duplicate adds and absent deletes', () => {
    const keys = new SortedKeys();
    keys.add('b');
    keys.add('a');
    keys.add('b');
    keys.delete('zz');
    assert.deepEqual([...keys.range('')], ['a', 'b']);
    assert.equal(keys.size, 2);
  });
});
