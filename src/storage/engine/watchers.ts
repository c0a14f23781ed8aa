/**
 * Watch fan-out. Every committed batch goes to each watcher once, filtered by its prefix, in
 * commit order, so a watcher sees revisions ascending with no gap and no duplicate.
 *
 * Listeners are synchronous and must not throw (the contract says so); a listener that throws
 * anyway is stopped, because it has now missed events and continuing would hand it a gap. The
 * error is rethrown on a fresh microtask so the bug stays loud without corrupting the commit
 * that was being applied.
 *
 * @module
 */
import type { StorageEvent, Watcher, WatchListener } from '../backend.js';

interface Entry {
  readonly prefix: string;
  readonly listener: WatchListener;
}

/** Events of `events` whose key starts with `prefix` (the same array when all match). */
export function filterByPrefix(
  events: readonly StorageEvent[],
  prefix: string,
): readonly StorageEvent[] {
  if (prefix === '') return events;
  const out: StorageEvent[] = [];
  for (const e of events) if (e.kv.key.startsWith(prefix)) out.push(e);
  return out.length === events.length ? events : out;
}

export class WatcherSet {
  readonly #entries = new Set<Entry>();

  get size(): number {
    return this.#entries.size;
  }

  /** Registers a live watcher; `catchUp` events are delivered first, synchronously. */
  add(prefix: string, listener: WatchListener, catchUp: readonly StorageEvent[]): Watcher {
    const entry: Entry = { prefix, listener };
    this.#entries.add(entry);
    if (catchUp.length > 0) this.#call(entry, catchUp);
    return { stop: () => this.#entries.delete(entry) };
  }

  /** Hands one committed batch to every watcher. */
  deliver(events: readonly StorageEvent[]): void {
    // Iterating a Set visits entries added during the loop; snapshot so a watcher created by
    // a listener (which already caught up from history) does not receive this batch twice.
    for (const entry of [...this.#entries]) {
      if (!this.#entries.has(entry)) continue;
      const matching = filterByPrefix(events, entry.prefix);
      if (matching.length > 0) this.#call(entry, matching);
    }
  }

  /** Forgets every watcher (backend closed). */
  clear(): void {
    this.#entries.clear();
  }

  #call(entry: Entry, events: readonly StorageEvent[]): void {
    try {
      entry.listener(events);
    } catch (err) {
      this.#entries.delete(entry);
      queueMicrotask(() => {
        throw err;
      });
    }
  }
}
