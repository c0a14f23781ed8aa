/**
 * Prefix listing over the current state, or over a past revision rebuilt from it.
 *
 * A past snapshot is the current state with every change after the requested revision undone:
 * the first event after revision R for a key carries the key's version at R in `prevKv` (or
 * says it did not exist, for a create). Only the events after R are read, never the whole
 * history, and never the history at all for a current list.
 *
 * @module
 */
import type { KeyValue, ListOptions, ListResult, StorageEvent } from '../backend.js';
import type { SortedKeys } from './sorted-keys.js';

/** What a list reads: the durable state and its key order. */
export interface ListSource {
  readonly state: ReadonlyMap<string, KeyValue>;
  readonly order: SortedKeys;
}

/** Versions at the snapshot revision of keys changed since (undefined: absent then). */
type Undo = Map<string, KeyValue | undefined>;

/** Collects, for each key under `prefix` changed after the snapshot, its version at the snapshot. */
export function undoSince(prefix: string, later: Iterable<StorageEvent>): Undo {
  const undo: Undo = new Map();
  for (const e of later) {
    const key = e.kv.key;
    if (!key.startsWith(prefix) || undo.has(key)) continue;
    undo.set(key, e.type === 'create' ? undefined : e.prevKv);
  }
  return undo;
}

/** Current keys under `prefix` after `startAfter`, ascending. */
function* current(src: ListSource, prefix: string, startAfter?: string): Generator<KeyValue> {
  for (const key of src.order.range(prefix, startAfter)) yield src.state.get(key)!;
}

/** The snapshot's keys under `prefix` after `startAfter`: current keys merged with undone ones. */
function* snapshot(
  src: ListSource,
  prefix: string,
  undo: Undo,
  startAfter?: string,
): Generator<KeyValue> {
  const restored: KeyValue[] = [];
  for (const kv of undo.values()) {
    if (kv && (startAfter === undefined || kv.key > startAfter)) restored.push(kv);
  }
  restored.sort((a, b) => (a.key < b.key ? -1 : 1));
  let r = 0;
  for (const key of src.order.range(prefix, startAfter)) {
    while (r < restored.length && restored[r]!.key < key) yield restored[r++]!;
    if (!undo.has(key)) yield src.state.get(key)!;
  }
  while (r < restored.length) yield restored[r++]!;
}

/** Takes up to `limit` matching items, then counts the matching rest. */
function paginate(
  items: Iterator<KeyValue>,
  options: ListOptions,
  countRest: ((lastKey: string) => number) | undefined,
): { items: KeyValue[]; more: boolean; remaining: number } {
  const limit = options.limit && options.limit > 0 ? options.limit : Number.POSITIVE_INFINITY;
  const filter = options.filter;
  const out: KeyValue[] = [];
  for (let next = items.next(); !next.done; next = items.next()) {
    const kv = next.value;
    if (filter && !filter(kv)) continue;
    if (out.length < limit) {
      out.push(kv);
      continue;
    }
    // One more match exists: the page is cut short.
    if (countRest) return { items: out, more: true, remaining: countRest(out.at(-1)!.key) };
    let remaining = 1;
    for (let rest = items.next(); !rest.done; rest = items.next()) {
      if (!filter || filter(rest.value)) remaining++;
    }
    return { items: out, more: true, remaining };
  }
  return { items: out, more: false, remaining: 0 };
}

/** Lists the current state (no history is read). */
export function listCurrent(
  src: ListSource,
  prefix: string,
  options: ListOptions,
  revision: number,
): ListResult {
  // Without a filter the rest is counted by rank in O(blocks) instead of walking it.
  const countRest = options.filter
    ? undefined
    : (lastKey: string) => src.order.countPrefix(prefix, lastKey);
  const page = paginate(current(src, prefix, options.startAfter), options, countRest);
  return { ...page, revision };
}

/** Lists the state as of `revision`, undoing `later` (the events after it, ascending). */
export function listAt(
  src: ListSource,
  prefix: string,
  options: ListOptions,
  revision: number,
  later: Iterable<StorageEvent>,
): ListResult {
  const undo = undoSince(prefix, later);
  const items = snapshot(src, prefix, undo, options.startAfter);
  return { ...paginate(items, options, undefined), revision };
}
