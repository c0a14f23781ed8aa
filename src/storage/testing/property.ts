/**
 * The property half of the conformance suite: random create/update/delete/compact programs,
 * with watchers and snapshot lists started at random revisions, checked against a plain model
 * (a map plus the list of events it implies).
 *
 * Writes between two `sync` steps are issued without awaiting, so they land in shared
 * batches and compare-and-swap runs against the pending overlay; the model predicts every
 * outcome at the moment of the call, because that is when the contract sequences a write.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import {
  type Backend,
  CompactedError,
  KeyExistsError,
  KeyNotFoundError,
  type KeyValue,
  RevisionMismatchError,
  type StorageEvent,
} from '../backend.js';
import type { BackendFactory } from './conformance.js';

type Op =
  | { readonly kind: 'create'; readonly key: string }
  | { readonly kind: 'update'; readonly key: string; readonly stale: boolean }
  | {
      readonly kind: 'delete';
      readonly key: string;
      readonly stale: boolean;
      readonly encode: boolean;
    }
  | { readonly kind: 'compact'; readonly at: number }
  | { readonly kind: 'watch'; readonly prefix: string; readonly at: number }
  | { readonly kind: 'list'; readonly prefix: string; readonly at: number }
  | { readonly kind: 'sync' };

const keyArb = fc.constantFrom('/a/1', '/a/2', '/a/3', '/ab/1', '/b/1');
const prefixArb = fc.constantFrom('', '/a/', '/b/', '/ab');
/** A position in [0, 1] (as thousandths, so values spread evenly rather than near the ends). */
const fraction = fc.integer({ min: 0, max: 1000 }).map((n) => n / 1000);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('create' as const), key: keyArb }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      key: keyArb,
      stale: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('delete' as const),
      key: keyArb,
      stale: fc.boolean(),
      encode: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('compact' as const), at: fraction }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('watch' as const), prefix: prefixArb, at: fraction }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('list' as const), prefix: prefixArb, at: fraction }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('sync' as const) }) },
);

interface WatchRecord {
  readonly prefix: string;
  readonly after: number;
  readonly received: StorageEvent[];
}

/** Replays `events` up to `revision` into a key-ordered state. */
function stateAt(events: readonly StorageEvent[], revision: number, prefix: string): KeyValue[] {
  const state = new Map<string, KeyValue>();
  for (const e of events) {
    if (e.revision > revision) break;
    if (e.type === 'delete') state.delete(e.kv.key);
    else state.set(e.kv.key, e.kv);
  }
  return [...state.values()]
    .filter((kv) => kv.key.startsWith(prefix))
    .sort((x, y) => (x.key < y.key ? -1 : 1));
}

/** Runs one program against a backend and the model, asserting as it goes. */
class Program {
  readonly #b: Backend;
  readonly #latest = new Map<string, KeyValue>();
  readonly #events: StorageEvent[] = [];
  readonly #checks: Promise<void>[] = [];
  readonly #watches: WatchRecord[] = [];
  #compactedAtLeast = 0;

  constructor(b: Backend) {
    this.#b = b;
  }

  async run(ops: readonly Op[], historyLimit: number): Promise<void> {
    for (const op of ops) await this.#step(op);
    await this.#sync();
    assert.equal(this.#b.currentRevision(), this.#events.length);
    assert.deepEqual(this.#b.list('').items, stateAt(this.#events, Number.MAX_SAFE_INTEGER, ''));
    assert.ok(this.#b.stats().historySize <= historyLimit);
    for (const w of this.#watches) {
      const expected = this.#events.filter(
        (e) => e.revision > w.after && e.kv.key.startsWith(w.prefix),
      );
      assert.deepEqual(w.received, expected, `watch ${w.prefix}@${w.after}`);
    }
  }

  async #step(op: Op): Promise<void> {
    switch (op.kind) {
      case 'create':
        return this.#create(op.key);
      case 'update':
        return this.#update(op.key, op.stale);
      case 'delete':
        return this.#delete(op.key, op.stale, op.encode);
      case 'compact':
        await this.#sync();
        return this.#compact(op.at);
      case 'watch':
        return this.#watch(op.prefix, op.at);
      case 'list':
        return this.#list(op.prefix, op.at);
      case 'sync':
        return this.#sync();
    }
  }

  async #sync(): Promise<void> {
    await Promise.all(this.#checks.splice(0));
  }

  #expect(write: Promise<KeyValue>, outcome: KeyValue | (new (...a: never[]) => Error)): void {
    if (typeof outcome === 'function') this.#checks.push(assert.rejects(write, outcome));
    else this.#checks.push(write.then((kv) => assert.deepEqual(kv, outcome)));
  }

  #record(event: StorageEvent): KeyValue {
    this.#events.push(event);
    if (event.type === 'delete') this.#latest.delete(event.kv.key);
    else this.#latest.set(event.kv.key, event.kv);
    return event.kv;
  }

  #create(key: string): void {
    const write = this.#b.create(key, (rv) => `${key}#${rv}`);
    if (this.#latest.has(key)) {
      this.#expect(write, KeyExistsError);
      return;
    }
    const revision = this.#events.length + 1;
    const kv = {
      key,
      value: `${key}#${revision}`,
      createRevision: revision,
      modRevision: revision,
    };
    this.#expect(write, this.#record({ type: 'create', revision, kv }));
  }

  /** The revision to send and the outcome class when the write must fail. */
  #precondition(key: string, stale: boolean) {
    const prevKv = this.#latest.get(key);
    if (!prevKv) return { expected: 1, error: KeyNotFoundError } as const;
    if (stale) return { expected: prevKv.modRevision - 1, error: RevisionMismatchError } as const;
    return { expected: prevKv.modRevision, prevKv } as const;
  }

  #update(key: string, stale: boolean): void {
    const pre = this.#precondition(key, stale);
    const write = this.#b.update(key, (rv) => `${key}#${rv}`, pre.expected);
    if (pre.error) {
      this.#expect(write, pre.error);
      return;
    }
    const revision = this.#events.length + 1;
    const kv = { ...pre.prevKv, value: `${key}#${revision}`, modRevision: revision };
    this.#expect(write, this.#record({ type: 'update', revision, kv, prevKv: pre.prevKv }));
  }

  #delete(key: string, stale: boolean, encode: boolean): void {
    const pre = this.#precondition(key, stale);
    const final = (rv: number) => `${key}#gone#${rv}`;
    const write = this.#b.delete(key, pre.expected, encode ? final : undefined);
    if (pre.error) {
      this.#expect(write, pre.error);
      return;
    }
    const revision = this.#events.length + 1;
    const value = encode ? final(revision) : pre.prevKv.value;
    const kv = { ...pre.prevKv, value, modRevision: revision };
    this.#expect(write, this.#record({ type: 'delete', revision, kv, prevKv: pre.prevKv }));
  }

  async #compact(at: number): Promise<void> {
    const target = Math.floor(at * this.#b.currentRevision());
    await this.#b.compact(target);
    this.#compactedAtLeast = Math.max(this.#compactedAtLeast, target);
    assert.ok(this.#b.compactedRevision() >= this.#compactedAtLeast);
  }

  #watch(prefix: string, at: number): void {
    const after = Math.floor(at * this.#b.currentRevision());
    const received: StorageEvent[] = [];
    try {
      this.#b.watch(prefix, after, (batch) => received.push(...batch));
    } catch (err) {
      assert.ok(err instanceof CompactedError, String(err));
      assert.ok(after < this.#b.compactedRevision());
      return;
    }
    assert.ok(after >= this.#b.compactedRevision());
    const replayed = this.#events.filter(
      (e) =>
        e.revision > after &&
        e.revision <= this.#b.currentRevision() &&
        e.kv.key.startsWith(prefix),
    );
    assert.deepEqual(received, replayed, 'history is replayed synchronously');
    this.#watches.push({ prefix, after, received });
  }

  #list(prefix: string, at: number): void {
    const floor = this.#b.compactedRevision();
    const revision = floor + Math.floor(at * (this.#b.currentRevision() - floor));
    const result = this.#b.list(prefix, { revision });
    assert.deepEqual(
      result.items,
      stateAt(this.#events, revision || this.#b.currentRevision(), prefix),
    );
  }
}

/** Registers the property test for one backend. */
export function runPropertySuite(name: string, factory: BackendFactory): void {
  it(`${name}: random programs match the model and every watcher sees exact history`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { minLength: 10, maxLength: 80, size: 'max' }),
        fc.integer({ min: 2, max: 24 }),
        async (ops, historyLimit) => {
          const b = await factory({ historyLimit });
          try {
            await new Program(b).run(ops, historyLimit);
          } finally {
            await b.close();
          }
        },
      ),
      { numRuns: 150 },
    );
  });
}
