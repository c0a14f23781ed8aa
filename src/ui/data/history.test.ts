import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { change, pod } from './fixtures.js';
import { HistoryReplay } from './history.js';
import type { Change } from './json.js';
import { ObjectStore } from './store.js';

const START = Date.parse('2026-01-01T00:00:00.000Z');

/** A random run: pods added, modified and deleted at non-decreasing times. */
const run = fc
  .array(
    fc.record({
      op: fc.constantFrom('ADDED', 'MODIFIED', 'DELETED'),
      pod: fc.integer({ min: 0, max: 7 }),
      dt: fc.integer({ min: 0, max: 5000 }),
      phase: fc.constantFrom('Pending', 'Running'),
    }),
    { maxLength: 120 },
  )
  .map((steps) => {
    let t = START;
    return steps.map((s, i): Change => {
      t += s.dt;
      return change(
        s.op as Change['type'],
        '',
        'pods',
        pod('ns', `p${s.pod}`, { phase: s.phase }),
        new Date(t).toISOString(),
        i + 1,
      );
    });
  });

function naive(entries: readonly Change[], ms: number): ObjectStore {
  const store = new ObjectStore();
  for (const e of entries) if (Date.parse(e.time) <= ms) store.apply(e);
  return store;
}

function snapshot(store: ObjectStore): string[] {
  return store
    .list('', 'pods')
    .map((p) => `${p.metadata.name}:${String(p.status?.phase)}`)
    .sort();
}

describe('HistoryReplay', () => {
  it('gives the same store at any time as replaying every entry up to it, for any checkpoint interval', () => {
    fc.assert(
      fc.property(
        run,
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.integer({ min: -1000, max: 700_000 }), { minLength: 1, maxLength: 8 }),
        (entries, interval, offsets) => {
          const h = new HistoryReplay(
            { start: new Date(START).toISOString(), seq: entries.length, entries },
            interval,
          );
          for (const off of offsets) {
            assert.deepEqual(
              snapshot(h.storeAt(START + off)),
              snapshot(naive(entries, START + off)),
            );
          }
        },
      ),
    );
  });

  it('extends with appended live changes and ignores ones it has', () => {
    const entries = [change('ADDED', '', 'pods', pod('ns', 'a'), '2026-01-01T00:00:01.000Z', 1)];
    const h = new HistoryReplay({ start: '2026-01-01T00:00:00.000Z', seq: 1, entries }, 2);
    h.append([
      entries[0] as Change,
      change('ADDED', '', 'pods', pod('ns', 'b'), '2026-01-01T00:00:02.000Z', 2),
    ]);
    assert.equal(h.length, 2);
    assert.deepEqual(snapshot(h.storeAt(Date.parse('2026-01-01T00:00:01.500Z'))), ['a:Running']);
    assert.deepEqual(snapshot(h.storeAt(Date.parse('2026-01-01T00:00:05.000Z'))), [
      'a:Running',
      'b:Running',
    ]);
  });

  it('hands out a latest store that later appends do not change', () => {
    const h = new HistoryReplay({ start: '2026-01-01T00:00:00.000Z', seq: 0, entries: [] });
    h.append([change('ADDED', '', 'pods', pod('ns', 'a'), '2026-01-01T00:00:01.000Z', 1)]);
    const latest = h.storeAt(Date.parse('2026-01-01T01:00:00.000Z'));
    h.append([change('ADDED', '', 'pods', pod('ns', 'b'), '2026-01-01T00:00:02.000Z', 2)]);
    assert.deepEqual(snapshot(latest), ['a:Running']);
  });

  it('scrubs 20,000 entries by replaying at most one checkpoint interval', () => {
    const entries = Array.from({ length: 20_000 }, (_, i) =>
      change(
        'MODIFIED',
        '',
        'pods',
        pod('ns', `p${i % 500}`),
        new Date(START + i * 10).toISOString(),
        i + 1,
      ),
    );
    const h = new HistoryReplay(
      { start: new Date(START).toISOString(), seq: 20_000, entries },
      1000,
    );
    assert.equal(h.countAt(START + 15_005), 1501);
    assert.equal(h.storeAfter(19_999).list('', 'pods').length, 500);
  });
});
