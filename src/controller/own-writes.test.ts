import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject } from '../api/object.js';
import { OwnWrites } from './own-writes.js';

const KEY = 'default/web-0';

function at(resourceVersion: string | undefined, uid = 'u1'): KubeObject {
  return {
    metadata: {
      name: 'web-0',
      namespace: 'default',
      uid,
      ...(resourceVersion === undefined ? {} : { resourceVersion }),
    },
  };
}

type Step =
  /** This component wrote `to` with `from` as precondition. */
  | { record: { from?: string; to?: string; uid?: string } }
  /** The cache holds `cached` (undefined: nothing); the answer's resourceVersion is `want`. */
  | { newest: { cached?: string; uid?: string }; want: string | undefined }
  | { forget: { uid?: string } };

interface Case {
  name: string;
  steps: Step[];
  /** Entries left at the end. */
  size: number;
}

const cases: Case[] = [
  {
    name: 'without a write, the cache answers',
    steps: [{ newest: { cached: '5' }, want: '5' }],
    size: 0,
  },
  {
    name: 'the write answers while the cache holds the version it replaced',
    steps: [
      { record: { from: '5', to: '6' } },
      { newest: { cached: '5' }, want: '6' },
      { newest: { cached: '5' }, want: '6' },
    ],
    size: 1,
  },
  {
    name: 'the write is forgotten once the cache has it',
    steps: [
      { record: { from: '5', to: '6' } },
      { newest: { cached: '6' }, want: '6' },
      { newest: { cached: '5' }, want: '5' },
    ],
    size: 0,
  },
  {
    name: 'a version the component did not write wins: someone wrote after it',
    steps: [{ record: { from: 'a', to: 'b' } }, { newest: { cached: 'c' }, want: 'c' }],
    size: 0,
  },
  {
    // Numbers would order "9" after "10"; equality does not care.
    name: 'resourceVersions are compared for equality only, never as numbers',
    steps: [
      { record: { from: '9', to: '10' } },
      { newest: { cached: '9' }, want: '10' },
      { newest: { cached: '10' }, want: '10' },
    ],
    size: 0,
  },
  {
    // A server whose versions are not increasing numbers (a different storage, a restore).
    name: 'a version that reads as a smaller number is still newer when the component did not write it',
    steps: [{ record: { from: '10', to: '11' } }, { newest: { cached: '2' }, want: '2' }],
    size: 0,
  },
  {
    name: 'two writes before the first echo: every replaced version is behind',
    steps: [
      { record: { from: 'r1', to: 'r2' } },
      { record: { from: 'r2', to: 'r3' } },
      { newest: { cached: 'r1' }, want: 'r3' },
      { newest: { cached: 'r2' }, want: 'r3' },
      { newest: { cached: 'r3' }, want: 'r3' },
    ],
    size: 0,
  },
  {
    name: 'a write from a version the component did not write starts a new chain',
    steps: [
      { record: { from: 'r1', to: 'r2' } },
      { record: { from: 'x', to: 'r3' } },
      { newest: { cached: 'r1' }, want: 'r1' },
    ],
    size: 0,
  },
  {
    name: 'the object gone from the cache: nothing, and the write is forgotten',
    steps: [
      { record: { from: '5', to: '6' } },
      { newest: {}, want: undefined },
      { newest: { cached: '5' }, want: '5' },
    ],
    size: 0,
  },
  {
    name: 'another incarnation at the key: the cache answers',
    steps: [
      { record: { from: '5', to: '6', uid: 'old' } },
      { newest: { cached: '5', uid: 'new' }, want: '5' },
    ],
    size: 0,
  },
  {
    name: 'a write without a precondition is not remembered',
    steps: [{ record: { to: '6' } }, { newest: { cached: '5' }, want: '5' }],
    size: 0,
  },
  {
    name: 'an answer without a resourceVersion is not remembered',
    steps: [{ record: { from: '5' } }, { newest: { cached: '5' }, want: '5' }],
    size: 0,
  },
  {
    name: 'forget drops the write',
    steps: [
      { record: { from: '5', to: '6' } },
      { forget: {} },
      { newest: { cached: '5' }, want: '5' },
    ],
    size: 0,
  },
  {
    name: 'forget of another incarnation keeps the write',
    steps: [
      { record: { from: '5', to: '6' } },
      { forget: { uid: 'other' } },
      { newest: { cached: '5' }, want: '6' },
    ],
    size: 1,
  },
];

/** One object's history on the server, the cache's place in it, and this component's writes. */
class World {
  readonly #names: readonly string[];
  readonly #history: string[];
  readonly #own = new OwnWrites<KubeObject>();
  /** Index in the history of the cache's copy, and of this component's last write (-1: none). */
  #cache = 0;
  #mine = -1;

  constructor(names: readonly string[]) {
    this.#names = names;
    this.#history = [names[0] ?? ''];
  }

  get full(): boolean {
    return this.#history.length >= this.#names.length;
  }

  advance(by: number): void {
    this.#cache = Math.min(this.#history.length - 1, this.#cache + by);
  }

  otherWrites(): void {
    this.#history.push(this.#next());
  }

  /** Reads, then writes from what it read: refused (409) unless that is the head. */
  iWrite(): void {
    const from = this.read();
    if (from !== this.#history.length - 1) return;
    const written = this.#next();
    this.#history.push(written);
    this.#mine = this.#history.length - 1;
    this.#own.record(KEY, this.#history[from], at(written));
  }

  /** The position in the history of what a read answers, checked against the model. */
  read(): number {
    const got = this.#own.newest(KEY, at(this.#history[this.#cache]));
    const position = this.#history.indexOf(got?.metadata?.resourceVersion ?? '');
    assert.ok(position >= this.#cache, 'never older than the cache');
    assert.equal(position, Math.max(this.#cache, this.#mine));
    return position;
  }

  #next(): string {
    return this.#names[this.#history.length] ?? '';
  }
}

describe('OwnWrites', () => {
  for (const c of cases) {
    it(c.name, () => {
      const own = new OwnWrites<KubeObject>();
      for (const step of c.steps) {
        if ('record' in step) {
          own.record(KEY, step.record.from, at(step.record.to, step.record.uid));
        } else if ('forget' in step) {
          own.forget(KEY, step.forget.uid);
        } else {
          const cached =
            step.newest.cached === undefined ? undefined : at(step.newest.cached, step.newest.uid);
          assert.equal(own.newest(KEY, cached)?.metadata?.resourceVersion, step.want);
        }
      }
      assert.equal(own.size, c.size);
    });
  }

  it('keeps keys apart', () => {
    const own = new OwnWrites<KubeObject>();
    own.record('default/a', '1', at('2'));
    assert.equal(own.newest('default/b', at('1'))?.metadata?.resourceVersion, '1');
    assert.equal(own.newest('default/a', at('1'))?.metadata?.resourceVersion, '2');
  });

  /**
   * A model of one object's history: the server appends versions (this component's writes, each
   * made from the copy it read and refused unless that copy is the head, and other writers'),
   * the cache follows behind in order. Whatever happens, a read answers the newer of the cache
   * and this component's last successful write, and never anything older than the cache.
   * Versions are random distinct strings (numbers among them), so no order can be read from them.
   */
  it('answers the newer of the cache and the last own write (property)', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('advance' as const), by: fc.nat({ max: 3 }) }),
      fc.record({ kind: fc.constant('other' as const) }),
      fc.record({ kind: fc.constant('mine' as const) }),
    );
    const versions = fc.uniqueArray(fc.oneof(fc.string(), fc.nat().map(String)), {
      minLength: 40,
      maxLength: 40,
    });
    fc.assert(
      fc.property(versions, fc.array(op, { maxLength: 30 }), (names, ops) => {
        const world = new World(names);
        for (const o of ops) {
          if (world.full) break;
          if (o.kind === 'advance') world.advance(o.by);
          else if (o.kind === 'other') world.otherWrites();
          else world.iWrite();
          world.read();
        }
      }),
    );
  });
});
