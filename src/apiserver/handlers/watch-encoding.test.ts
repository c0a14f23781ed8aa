/**
 * Shared watch encodings are byte-identical to the ones each watcher would build for itself:
 * cached event lines for arbitrary objects and types, and a flush round's shared Buffers for
 * arbitrary batches (the same line objects, equal copies, different orders and lengths).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { KeyValue, StorageEvent } from '../../storage/backend.js';
import {
  BatchBytes,
  type EventType,
  freshBatchBytes,
  freshEventLine,
  type LineEncoder,
  sharedEventLine,
  watchLineFor,
} from './watch-encoding.js';

const TYPES: readonly EventType[] = ['ADDED', 'MODIFIED', 'DELETED'];

/** Object JSON with arbitrary text: HTML characters, line separators, astral characters. */
const objectJson = fc
  .record({
    name: fc.string({ unit: 'grapheme', maxLength: 12 }),
    data: fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 20 })),
    extra: fc.jsonValue({ maxDepth: 2 }),
  })
  .map((o) => JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', metadata: o, data: o.data }));

const kvArb: fc.Arbitrary<KeyValue> = fc
  .tuple(objectJson, fc.nat({ max: 1000 }))
  .map(([value, rev]) => ({ key: `/k/${rev}`, value, createRevision: 1, modRevision: rev + 1 }));

/** A copy with equal content that is a different string object. */
function copyOf(s: string): string {
  return [...s].join('');
}

describe('watch encoding: shared lines', () => {
  it('a cached line is the fresh line, for every object and type', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(kvArb, fc.constantFrom(...TYPES)), { maxLength: 20 }),
        (evs) => {
          for (const [kv, type] of evs) {
            assert.equal(sharedEventLine(type, kv), freshEventLine(type, kv));
            // A second watcher of the same event gets the same line, not a stale one of another type.
            for (const other of TYPES)
              assert.equal(sharedEventLine(other, kv), freshEventLine(other, kv));
            assert.equal(sharedEventLine(type, kv), freshEventLine(type, kv));
          }
        },
      ),
    );
  });

  it('a line is one JSON document ending with a newline', () => {
    fc.assert(
      fc.property(kvArb, fc.constantFrom(...TYPES), (kv, type) => {
        const line = sharedEventLine(type, kv);
        assert.ok(line.endsWith('\n'));
        assert.equal(line.indexOf('\n'), line.length - 1);
        assert.deepEqual(JSON.parse(line), { type, object: JSON.parse(kv.value) });
      }),
    );
  });
});

describe('watch encoding: shared batch bytes', () => {
  /** Watchers' pending lines drawn from one pool of lines, sometimes as equal copies. */
  const roundArb = fc
    .array(fc.string({ unit: 'binary', maxLength: 40 }), { minLength: 1, maxLength: 6 })
    .chain((pool) =>
      fc.array(
        fc.array(
          fc.tuple(fc.nat({ max: pool.length - 1 }), fc.boolean()).map(([i, copy]) => {
            const line = `${pool[i]}\n`;
            return copy ? copyOf(line) : line;
          }),
          { minLength: 1, maxLength: 8 },
        ),
        { minLength: 1, maxLength: 12 },
      ),
    );

  it("every watcher's bytes are what it would have encoded alone", () => {
    fc.assert(
      fc.property(roundArb, (watchers) => {
        const round = new BatchBytes();
        for (const lines of watchers) {
          const shared = round.encode(lines);
          assert.ok(shared.equals(freshBatchBytes(lines)));
          assert.ok(shared.equals(Buffer.from(lines.join(''), 'utf8')));
        }
      }),
    );
  });

  it('watchers holding the same lines share one Buffer; different lines never do', () => {
    fc.assert(
      fc.property(roundArb, (watchers) => {
        const round = new BatchBytes();
        const encoded = watchers.map((lines) => round.encode(lines));
        for (let i = 0; i < watchers.length; i++) {
          for (let j = 0; j < i; j++) {
            const a = watchers[i]!;
            const b = watchers[j]!;
            if (a.length === b.length && a.every((line, k) => line === b[k])) {
              assert.equal(encoded[i], encoded[j]);
            }
            if (!encoded[i]!.equals(encoded[j]!)) assert.notEqual(encoded[i], encoded[j]);
          }
        }
      }),
    );
  });
});

describe('watch encoding: which line a watcher gets', () => {
  const kv = (n: number, label: string): KeyValue => ({
    key: `/k/${n}`,
    value: JSON.stringify({ metadata: { name: `o${n}`, labels: { app: label } } }),
    createRevision: 1,
    modRevision: n,
  });
  const matchesA = (x: KeyValue): boolean => x.value.includes('"app":"a"');
  const encoder: LineEncoder = {
    line: (type, x) => `${type} ${x.modRevision}`,
    left: (prev, revision) => `LEFT ${prev.modRevision}@${revision}`,
  };
  const cases: ReadonlyArray<{ name: string; ev: StorageEvent; want: string | undefined }> = [
    {
      name: 'create matching',
      ev: { type: 'create', revision: 2, kv: kv(2, 'a') },
      want: 'ADDED 2',
    },
    {
      name: 'create not matching',
      ev: { type: 'create', revision: 2, kv: kv(2, 'b') },
      want: undefined,
    },
    {
      name: 'update staying in',
      ev: { type: 'update', revision: 3, kv: kv(3, 'a'), prevKv: kv(2, 'a') },
      want: 'MODIFIED 3',
    },
    {
      name: 'update coming in',
      ev: { type: 'update', revision: 3, kv: kv(3, 'a'), prevKv: kv(2, 'b') },
      want: 'ADDED 3',
    },
    {
      name: 'update leaving',
      ev: { type: 'update', revision: 3, kv: kv(3, 'b'), prevKv: kv(2, 'a') },
      want: 'LEFT 2@3',
    },
    {
      name: 'update staying out',
      ev: { type: 'update', revision: 3, kv: kv(3, 'b'), prevKv: kv(2, 'b') },
      want: undefined,
    },
    {
      name: 'delete of a match',
      ev: { type: 'delete', revision: 4, kv: kv(4, 'a'), prevKv: kv(3, 'a') },
      want: 'DELETED 4',
    },
    {
      name: 'delete whose final value stopped matching',
      ev: { type: 'delete', revision: 4, kv: kv(4, 'b'), prevKv: kv(3, 'a') },
      want: 'DELETED 4',
    },
    {
      name: 'delete of another',
      ev: { type: 'delete', revision: 4, kv: kv(4, 'b'), prevKv: kv(3, 'b') },
      want: undefined,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(watchLineFor(c.ev, matchesA, encoder), c.want);
    });
  }
});
