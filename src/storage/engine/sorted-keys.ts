/**
 * The ordered key index behind prefix lists: a sorted list of sorted blocks.
 *
 * A single sorted array costs O(n) per insert: at 100,000 keys a splice in the middle moves
 * ~400 KB, about 30 µs, which alone would eat half of a 57,000 writes/s budget. Blocks of at
 * most {@link BLOCK_MAX} keys bound each splice to ~8 KB while lookups stay two binary
 * searches (over block tails, then inside one block). Ranks (for `count` and `remaining`)
 * add up block sizes, O(n / 1024): 100 additions for 100,000 keys.
 *
 * Keys compare as JavaScript strings (UTF-16 code units), which equals byte order for the
 * ASCII keys the API server writes.
 *
 * @module
 */

/** A block splits in two when it grows past this many keys. */
const BLOCK_MAX = 1024;

/**
 * The smallest string greater than every string starting with `prefix`, or undefined when no
 * such bound exists (empty prefix, or a prefix of only U+FFFF code units).
 */
export function prefixEnd(prefix: string): string | undefined {
  let end = prefix;
  while (end.length > 0) {
    const last = end.charCodeAt(end.length - 1);
    if (last < 0xffff) return end.slice(0, -1) + String.fromCharCode(last + 1);
    end = end.slice(0, -1);
  }
  return undefined;
}

/** Index of the first element of sorted `xs` that is >= `key` (or > `key` when `after`). */
function search(xs: readonly string[], key: string, after: boolean): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const x = xs[mid]!;
    if (x < key || (after && x === key)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A set of strings kept in ascending order. */
export class SortedKeys {
  /** Non-empty sorted blocks; every key of block i is below every key of block i + 1. */
  #blocks: string[][] = [];
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Adds `key`; no-op when present. */
  add(key: string): void {
    if (this.#blocks.length === 0) {
      this.#blocks.push([key]);
      this.#size = 1;
      return;
    }
    const b = Math.min(this.#blockFor(key, false), this.#blocks.length - 1);
    const block = this.#blocks[b]!;
    const i = search(block, key, false);
    if (block[i] === key) return;
    block.splice(i, 0, key);
    this.#size++;
    if (block.length > BLOCK_MAX) this.#blocks.splice(b + 1, 0, block.splice(block.length >> 1));
  }

  /** Removes `key`; no-op when absent. */
  delete(key: string): void {
    const b = this.#blockFor(key, false);
    const block = this.#blocks[b];
    if (!block) return;
    const i = search(block, key, false);
    if (block[i] !== key) return;
    block.splice(i, 1);
    this.#size--;
    if (block.length === 0) this.#blocks.splice(b, 1);
  }

  /** How many keys are below `key` (or at most `key` when `after`). */
  rank(key: string, after = false): number {
    const b = this.#blockFor(key, after);
    let n = 0;
    for (let j = 0; j < b; j++) n += this.#blocks[j]!.length;
    const block = this.#blocks[b];
    return block ? n + search(block, key, after) : n;
  }

  /** How many keys start with `prefix` and are greater than `after` (when given). */
  countPrefix(prefix: string, after?: string): number {
    const end = prefixEnd(prefix);
    const hi = end === undefined ? this.#size : this.rank(end);
    const lo = after !== undefined && after >= prefix ? this.rank(after, true) : this.rank(prefix);
    return Math.max(0, hi - lo);
  }

  /** Keys starting with `prefix` and greater than `after` (when given), ascending. */
  *range(prefix: string, after?: string): Generator<string, void, undefined> {
    const fromAfter = after !== undefined && after >= prefix;
    const start = fromAfter ? after : prefix;
    const end = prefixEnd(prefix);
    const startBlock = this.#blockFor(start, fromAfter);
    for (let b = startBlock; b < this.#blocks.length; b++) {
      const block = this.#blocks[b]!;
      const first = b === startBlock ? search(block, start, fromAfter) : 0;
      for (let i = first; i < block.length; i++) {
        const key = block[i]!;
        if (end !== undefined && key >= end) return;
        yield key;
      }
    }
  }

  /** Index of the first block whose last key is >= `key` (> when `after`); may be length. */
  #blockFor(key: string, after: boolean): number {
    let lo = 0;
    let hi = this.#blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const block = this.#blocks[mid]!;
      const last = block[block.length - 1]!;
      if (last < key || (after && last === key)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
