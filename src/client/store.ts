/**
 * The informer's keyed cache with secondary indexes (client-go `thread_safe_store.go` +
 * `index.go`). Objects are keyed `namespace/name` (`name` for cluster-scoped ones); each named
 * index maps an object to zero or more index values and keeps value → keys sets up to date
 * on every write, so `byIndex('namespace', 'default')` costs the size of its answer, not of
 * the cache.
 *
 * The store hands out the objects it holds; callers must not mutate them (the informer
 * freezes them before they get here).
 *
 * @module
 */
import type { KubeObject } from '../api/object.js';

/** Maps an object to its index values (client-go `IndexFunc`). */
export type IndexFunc<T> = (obj: T) => readonly string[];

/** Named index functions. */
export type Indexers<T> = Readonly<Record<string, IndexFunc<T>>>;

/** The name of the by-namespace index every informer has (client-go `NamespaceIndex`). */
export const NAMESPACE_INDEX = 'namespace';

/** Indexes objects by `metadata.namespace` (cluster-scoped objects under `""`). */
export function namespaceIndexFunc(obj: KubeObject): readonly string[] {
  return [obj.metadata?.namespace ?? ''];
}

/** `namespace/name`, or `name` for a cluster-scoped object (client-go `MetaNamespaceKeyFunc`). */
export function objectKey(obj: KubeObject): string {
  const name = obj.metadata?.name;
  if (typeof name !== 'string' || name === '') {
    throw new TypeError('object has no metadata.name');
  }
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${name}` : name;
}

/** The key of `name` in `namespace` (`""` or absent for cluster-scoped). */
export function keyOf(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/** The inverse of {@link keyOf}: `[namespace, name]`, namespace `''` for cluster-scoped keys. */
export function splitKey(key: string): [string, string] {
  const slash = key.indexOf('/');
  return slash < 0 ? ['', key] : [key.slice(0, slash), key.slice(slash + 1)];
}

/** The keyed store with indexes. Not safe to mutate while iterating results of `list()`. */
export class Indexer<T extends KubeObject = KubeObject> {
  readonly #items = new Map<string, T>();
  #indexers: Indexers<T>;
  /** index name → index value → keys */
  readonly #indices = new Map<string, Map<string, Set<string>>>();

  constructor(indexers: Indexers<T> = {}) {
    this.#indexers = indexers;
    for (const name of Object.keys(indexers)) this.#indices.set(name, new Map());
  }

  /**
   * Adds indexes (client-go's `AddIndexers`); existing objects are indexed at once. A name
   * already in use is refused, as upstream, since two functions cannot share one index.
   */
  addIndexers(indexers: Indexers<T>): void {
    for (const name of Object.keys(indexers)) {
      if (this.#indices.has(name)) {
        if (this.#indexers[name] === indexers[name]) continue;
        throw new RangeError(`indexer conflict: ${name}`);
      }
      this.#indices.set(name, new Map());
      const fn = indexers[name]!;
      const index = this.#indices.get(name)!;
      for (const [key, obj] of this.#items) {
        for (const value of fn(obj)) {
          let keys = index.get(value);
          if (keys === undefined) {
            keys = new Set();
            index.set(value, keys);
          }
          keys.add(key);
        }
      }
    }
    this.#indexers = { ...this.#indexers, ...indexers };
  }

  /** Inserts or replaces the object under its key; returns the object it replaced. */
  upsert(obj: T): T | undefined {
    const key = objectKey(obj);
    const old = this.#items.get(key);
    this.#items.set(key, obj);
    this.#reindex(key, old, obj);
    return old;
  }

  /** Removes the object under `key`; returns it. */
  remove(key: string): T | undefined {
    const old = this.#items.get(key);
    if (old === undefined) return undefined;
    this.#items.delete(key);
    this.#reindex(key, old, undefined);
    return old;
  }

  getByKey(key: string): T | undefined {
    return this.#items.get(key);
  }

  /** Every object, in insertion order of first add. */
  list(): T[] {
    return [...this.#items.values()];
  }

  keys(): string[] {
    return [...this.#items.keys()];
  }

  get size(): number {
    return this.#items.size;
  }

  /** Objects whose index `name` yields `value`; throws for an unknown index, as upstream. */
  byIndex(name: string, value: string): T[] {
    const out: T[] = [];
    for (const key of this.indexKeys(name, value)) {
      const obj = this.#items.get(key);
      if (obj !== undefined) out.push(obj);
    }
    return out;
  }

  /** Keys whose index `name` yields `value`. */
  indexKeys(name: string, value: string): string[] {
    const index = this.#indices.get(name);
    if (index === undefined) throw new RangeError(`index with name ${name} does not exist`);
    return [...(index.get(value) ?? [])];
  }

  /** The index names this store maintains. */
  indexNames(): string[] {
    return Object.keys(this.#indexers);
  }

  #reindex(key: string, old: T | undefined, now: T | undefined): void {
    for (const [name, fn] of Object.entries(this.#indexers)) {
      const index = this.#indices.get(name)!;
      const before = old === undefined ? [] : fn(old);
      const after = now === undefined ? [] : fn(now);
      for (const value of before) {
        if (after.includes(value)) continue;
        const keys = index.get(value);
        keys?.delete(key);
        // Drop empty sets so a churn of short-lived values does not grow the map for ever.
        if (keys?.size === 0) index.delete(value);
      }
      for (const value of after) {
        let keys = index.get(value);
        if (keys === undefined) {
          keys = new Set();
          index.set(value, keys);
        }
        keys.add(key);
      }
    }
  }
}
