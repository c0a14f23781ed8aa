/**
 * Serial execution for deterministic runs (`--seed` with `--clock virtual`): the cluster does
 * one thing at a time, and what it does next depends only on what is stored, never on which
 * HTTP response or watch event happened to arrive first.
 *
 * A *turn* is one of, in this order of preference:
 * 1. **events**: every watch event buffered since the last turn is applied to its informer's
 *    cache, in resourceVersion order (handlers run then, and queue their keys);
 * 2. **timer**: the earliest due timer fires (ties: the order they were set);
 * 3. **work**: the first source with work ready, by source name (work queues, the
 *    scheduler's activeQ), hands out one item (the smallest key).
 *
 * The clock grants a turn only when the cluster is quiescent (`virtual-clock.ts`), and
 * requests are sent one at a time in the order they were issued ({@link Turns.serialize}), so
 * a turn's writes reach the API server in the same order on every run. Caches change only
 * between turns, which is one of the interleavings a real cluster can show.
 *
 * @module
 */

import type { TurnGate } from '../../util/clock.js';

/** Something that can run one unit of work when given a turn. */
export interface TurnSource {
  /** True when it has an item ready and someone to run it. */
  ready(): boolean;
  /** Starts one item (synchronously hands it to a worker). */
  run(): void;
}

/** The due timers of this thread, one at a time. */
export interface TurnTimers {
  /** Fires the earliest due timer; false when none is due. */
  fireOne(): boolean;
}

export type TurnTaken = 'events' | 'timer' | 'work' | 'none';

interface Registered {
  readonly name: string;
  readonly seq: number;
  readonly source: TurnSource;
}

interface Buffered {
  readonly rv: string;
  readonly seq: number;
  readonly apply: () => void;
}

export class Turns implements TurnGate {
  #sources: Registered[] = [];
  #buffer: Buffered[] = [];
  #seq = 0;
  #chain: Promise<unknown> = Promise.resolve();

  /** Adds a source; sources take turns in name order (then registration order). */
  register(name: string, source: TurnSource): () => void {
    const entry = { name, seq: this.#seq++, source };
    this.#sources = [...this.#sources, entry].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : a.seq - b.seq,
    );
    return () => {
      this.#sources = this.#sources.filter((s) => s !== entry);
    };
  }

  /** Keeps an informer's event (`apply` updates its cache) for the next `events` turn. */
  deliver(rv: string, apply: () => void): void {
    this.#buffer.push({ rv, seq: this.#seq++, apply });
  }

  /** Runs `send` after every request issued before it has finished. */
  serialize<T>(send: () => Promise<T>): Promise<T> {
    const run = this.#chain.then(send, send);
    this.#chain = run.catch(() => undefined);
    return run;
  }

  /** Takes one turn (see the module comment); what ran. */
  take(timers: TurnTimers): TurnTaken {
    if (this.#buffer.length > 0) {
      const events = this.#buffer.sort((a, b) => compareRv(a.rv, b.rv) || a.seq - b.seq);
      this.#buffer = [];
      for (const e of events) e.apply();
      return 'events';
    }
    if (timers.fireOne()) return 'timer';
    const next = this.#sources.find((s) => s.source.ready());
    if (next === undefined) return 'none';
    next.source.run();
    return 'work';
  }
}

/** resourceVersions as the numbers they are here (opaque to clients, decimal in fleetyard). */
function compareRv(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
