/**
 * A binary min-heap of items with string keys (upstream `internal/heap`): the scheduling queue's
 * activeQ (ordered by priority, then enqueue time) and backoffQ (ordered by backoff expiry)
 * need pop-the-first, and also delete-or-update-by-key when a pod changes or goes away, each
 * in O(log n).
 *
 * @module
 */

export class KeyedHeap<T extends object> {
  readonly #items: T[] = [];
  readonly #index = new Map<string, number>();
  readonly #keyOf: (item: T) => string;
  readonly #less: (a: T, b: T) => boolean;

  /** `less(a, b)`: a comes out before b. */
  constructor(keyOf: (item: T) => string, less: (a: T, b: T) => boolean) {
    this.#keyOf = keyOf;
    this.#less = less;
  }

  get size(): number {
    return this.#items.length;
  }

  has(key: string): boolean {
    return this.#index.has(key);
  }

  get(key: string): T | undefined {
    const i = this.#index.get(key);
    return i === undefined ? undefined : this.#items[i];
  }

  /** The item at heap position `i`, which the callers keep within bounds. */
  #at(i: number): T {
    const item = this.#items[i];
    if (item === undefined) throw new RangeError(`heap position ${i} of ${this.#items.length}`);
    return item;
  }

  peek(): T | undefined {
    return this.#items[0];
  }

  /** Adds `item`, or replaces the item with the same key and restores the order. */
  addOrUpdate(item: T): void {
    const key = this.#keyOf(item);
    const i = this.#index.get(key);
    if (i !== undefined) {
      this.#items[i] = item;
      this.#fix(i);
      return;
    }
    this.#items.push(item);
    this.#index.set(key, this.#items.length - 1);
    this.#up(this.#items.length - 1);
  }

  /** Removes the item with `key`; returns it if it was there. */
  delete(key: string): T | undefined {
    const i = this.#index.get(key);
    if (i === undefined) return undefined;
    const item = this.#at(i);
    this.#removeAt(i);
    return item;
  }

  pop(): T | undefined {
    if (this.#items.length === 0) return undefined;
    const item = this.#at(0);
    this.#removeAt(0);
    return item;
  }

  /** The items in no particular order. */
  values(): readonly T[] {
    return this.#items;
  }

  #removeAt(i: number): void {
    const last = this.#items.length - 1;
    const item = this.#at(i);
    this.#index.delete(this.#keyOf(item));
    if (i !== last) {
      this.#place(i, this.#at(last));
      this.#items.pop();
      this.#fix(i);
    } else {
      this.#items.pop();
    }
  }

  #place(i: number, item: T): void {
    this.#items[i] = item;
    this.#index.set(this.#keyOf(item), i);
  }

  #fix(i: number): void {
    if (!this.#up(i)) this.#down(i);
  }

  #up(start: number): boolean {
    let i = start;
    const item = this.#at(i);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = this.#at(parent);
      if (!this.#less(item, p)) break;
      this.#place(i, p);
      i = parent;
    }
    this.#place(i, item);
    return i !== start;
  }

  #down(start: number): void {
    let i = start;
    const n = this.#items.length;
    const item = this.#at(i);
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let child = l;
      if (r < n && this.#less(this.#at(r), this.#at(l))) child = r;
      const c = this.#at(child);
      if (!this.#less(c, item)) break;
      this.#place(i, c);
      i = child;
    }
    this.#place(i, item);
  }
}
