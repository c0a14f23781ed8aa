import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { formatDuration, formatElapsed } from './format.js';
import { type Candidates, chooseFault, seededRandom } from './random-faults.js';
import type { FaultVerb } from './types.js';

describe('seededRandom', () => {
  test('the same seed gives the same sequence, another seed another one', () => {
    const take = (seed: number) => Array.from({ length: 8 }, seededRandom(seed));
    assert.deepEqual(take(7), take(7));
    assert.notDeepEqual(take(7), take(8));
  });

  test('property: values are in [0, 1)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (seed) => {
        const r = seededRandom(seed);
        for (let i = 0; i < 50; i++) {
          const v = r();
          assert.ok(v >= 0 && v < 1, `${v}`);
        }
      }),
    );
  });
});

describe('chooseFault', () => {
  const candidates: Candidates = {
    'node-down': ['fleetyard-node-1', 'fleetyard-node-2'],
    'node-up': [],
    'lose-volume': ['default/data-web-0'],
  };

  test('only verbs with a target are chosen; pods and claims carry their namespace', () => {
    const verbs: FaultVerb[] = ['node-down', 'node-up', 'lose-volume'];
    const seen = new Set<string>();
    const random = seededRandom(1);
    for (let i = 0; i < 50; i++) {
      const c = chooseFault(verbs, candidates, random);
      assert.ok(c);
      seen.add(`${c.verb} ${c.namespace ?? ''}/${c.target}`);
    }
    assert.deepEqual([...seen].sort(), [
      'lose-volume default/data-web-0',
      'node-down /fleetyard-node-1',
      'node-down /fleetyard-node-2',
    ]);
  });

  test('nothing possible: undefined', () => {
    assert.equal(chooseFault(['node-up'], candidates, seededRandom(1)), undefined);
  });

  test('property: the choice depends only on the seed and the candidates', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), (seed) => {
        const run = () => {
          const r = seededRandom(seed);
          return Array.from({ length: 10 }, () =>
            chooseFault(['node-down', 'lose-volume'], candidates, r),
          );
        };
        assert.deepEqual(run(), run());
      }),
    );
  });
});

describe('format', () => {
  const durations: [number, string][] = [
    [0, '0ms'],
    [500, '500ms'],
    [1000, '1s'],
    [1500, '1.5s'],
    [90_000, '1m30s'],
    [900_000, '15m'],
    [3_605_000, '1h5s'],
    [86_400_000, '24h'],
  ];
  for (const [ms, text] of durations)
    test(`formatDuration(${ms})`, () => assert.equal(formatDuration(ms), text));

  const elapsed: [number, string][] = [
    [0, '+00:00:00.000'],
    [900_000, '+00:15:00.000'],
    [90_061_001, '+25:01:01.001'],
    [-1000, '-00:00:01.000'],
  ];
  for (const [ms, text] of elapsed)
    test(`formatElapsed(${ms})`, () => assert.equal(formatElapsed(ms), text));
});
