import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { seededRandom, uuidFrom } from './seeded-random.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('seededRandom', () => {
  it('repeats a stream for the same seed and name', () => {
    fc.assert(
      fc.property(fc.integer(), fc.string(), (seed, name) => {
        const a = seededRandom(seed, name);
        const b = seededRandom(seed, name);
        for (let i = 0; i < 20; i++) assert.equal(a(), b());
      }),
    );
  });

  it('stays in [0, 1)', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const r = seededRandom(seed);
        for (let i = 0; i < 100; i++) {
          const x = r();
          assert.ok(x >= 0 && x < 1, String(x));
        }
      }),
    );
  });

  it('gives other seeds and other names other streams', () => {
    const first = (seed: number, name: string) => {
      const r = seededRandom(seed, name);
      return [r(), r(), r()].join();
    };
    const seen = new Set([first(1, 'a'), first(2, 'a'), first(1, 'b'), first(1, '')]);
    assert.equal(seen.size, 4);
  });

  it('spreads values evenly (each tenth gets 10 % ± 1 % of 100,000 draws)', () => {
    const r = seededRandom(42, 'spread');
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 100_000; i++) buckets[Math.floor(r() * 10)]!++;
    for (const n of buckets) assert.ok(n > 9_000 && n < 11_000, String(buckets));
  });
});

describe('uuidFrom', () => {
  it('makes version-4 UUIDs, the same ones for the same stream', () => {
    const a = seededRandom(7, 'uid');
    const b = seededRandom(7, 'uid');
    for (let i = 0; i < 50; i++) {
      const u = uuidFrom(a);
      assert.match(u, UUID_V4);
      assert.equal(u, uuidFrom(b));
    }
  });
});
