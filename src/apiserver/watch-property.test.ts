/**
 * Watch correctness through the HTTP API, property-based: random writes, watchers that start
 * at random revisions and reconnect from the last revision they saw. Each must see exactly
 * the history after its start, in order, without duplicates or gaps, or be told 410.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { startTestServer, type TestServer, type WatchEvent } from './testing/test-server.js';

const CM = '/api/v1/namespaces/default/configmaps';

type Op = { kind: 'create' | 'update' | 'delete'; name: string } | { kind: 'watch'; at: number };

interface Change {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  name: string;
  rv: number;
}

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constantFrom('create', 'update', 'delete'),
      name: fc.constantFrom('a', 'b', 'c', 'd'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('watch'), at: fc.nat({ max: 1000 }) }) },
) as fc.Arbitrary<Op>;

async function apply(t: TestServer, op: Op, log: Change[]): Promise<void> {
  if (op.kind === 'watch') return;
  const path = `${CM}/${op.name}`;
  let r: Awaited<ReturnType<TestServer['request']>>;
  if (op.kind === 'create')
    r = await t.request('POST', CM, { body: { metadata: { name: op.name }, data: { n: '0' } } });
  else if (op.kind === 'update') {
    r = await t.request('PATCH', path, {
      body: { data: { n: String(log.length) } },
      contentType: 'application/merge-patch+json',
    });
  } else r = await t.request('DELETE', path);
  if (r.status >= 300) return; // AlreadyExists / NotFound: nothing happened
  const rv =
    op.kind === 'delete'
      ? t.backend.currentRevision()
      : Number((r.body.metadata as { resourceVersion: string }).resourceVersion);
  const type = op.kind === 'create' ? 'ADDED' : op.kind === 'update' ? 'MODIFIED' : 'DELETED';
  log.push({ type, name: op.name, rv });
}

/** Watches from `start`, reconnecting once halfway, until it has seen everything up to `end`. */
async function observe(t: TestServer, start: number, end: number): Promise<Change[] | 'expired'> {
  const seen: Change[] = [];
  let from = start;
  for (let round = 0; round < 2 && from < end; round++) {
    const w = await t.watch(`${CM}?watch=true&resourceVersion=${from}`);
    const want = (events: WatchEvent[]) =>
      events.some((e) => e.type === 'ERROR') || lastRv(events) >= end;
    await waitUntil(w.events, want);
    w.close();
    if (w.events.some((e) => e.type === 'ERROR')) {
      assert.equal(w.events.at(-1)?.object.code, 410);
      return 'expired';
    }
    // Reconnect halfway through, from the last revision actually seen.
    const cut = round === 0 ? Math.ceil(w.events.length / 2) : w.events.length;
    for (const e of w.events.slice(0, cut)) {
      seen.push({
        type: e.type as Change['type'],
        name: String(e.object.metadata?.name),
        rv: Number(e.object.metadata?.resourceVersion),
      });
    }
    from = seen.at(-1)?.rv ?? from;
    if (round === 0 && cut === w.events.length) break;
  }
  return seen;
}

function lastRv(events: WatchEvent[]): number {
  return Number(events.at(-1)?.object.metadata?.resourceVersion ?? 0);
}

async function waitUntil(events: WatchEvent[], done: (e: WatchEvent[]) => boolean): Promise<void> {
  const deadline = Date.now() + 3000;
  while (!done(events)) {
    if (Date.now() > deadline)
      throw new Error(`watch stalled at ${JSON.stringify(events.map((e) => e.type))}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('watch through the API (property)', () => {
  it('delivers exactly the history after each start, in order, or 410', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 5, max: 30 }),
        async (ops, historyLimit) => {
          const t = await startTestServer({ historyLimit });
          try {
            const base = t.backend.currentRevision();
            const log: Change[] = [];
            const starts: number[] = [base];
            for (const op of ops) {
              if (op.kind === 'watch')
                starts.push(base + (op.at % (t.backend.currentRevision() - base + 1)));
              await apply(t, op, log);
            }
            const end = t.backend.currentRevision();
            if (log.length === 0) return;
            for (const start of starts) {
              const got = await observe(t, start, end);
              const expected = log.filter((c) => c.rv > start);
              if (got === 'expired') {
                assert.ok(
                  start < t.backend.compactedRevision(),
                  `410 only for compacted starts (${start} vs ${t.backend.compactedRevision()})`,
                );
                continue;
              }
              assert.deepEqual(got, expected, `start ${start}`);
            }
          } finally {
            await t.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
