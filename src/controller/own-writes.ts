/**
 * Read-your-own-writes for a component that reads from an informer cache: it remembers the
 * object it last wrote under a key and, until the cache has that write, answers with it
 * instead of the older cached copy. Without this, an event on another object (a member pod of
 * the fleet, a timer of the pod) arrives before the watch echoes the write, the component plans
 * from the version its write replaced, and earns only a 409 (one per member event during a
 * roll-out in the operator before this existed).
 *
 * resourceVersions are opaque (upstream: compare them for equality only; the server alone
 * orders them), so nothing here orders them. Instead an entry keeps the resourceVersions its
 * writes replaced since the cache last caught up: a write made with the resourceVersion `r` as
 * its precondition means the version after `r` is the write's, so a cache still at `r` (or at
 * an earlier version this component itself replaced, when it wrote twice before the first
 * echo) is behind. A cache at the written version has caught up; a cache at any other version
 * holds something this component did not write, which came after its write (a write's
 * precondition fails against anything newer), so the cache wins. Either way the entry goes.
 *
 * Upstream's `MutationCache` (client-go `tools/cache/mutation_cache.go`) plays the same part with
 * an ordering of resourceVersions and an LRU with a TTL; entries here live only until the cache
 * catches up or the object goes, so they need neither.
 *
 * ```ts
 * const own = new OwnWrites<Pod>();
 * const pod = own.newest(key, lister.get(ns, name));   // the cache's, or my newer write
 * own.record(key, pod.metadata?.resourceVersion, await client.updateStatus(ref, next));
 * ```
 *
 * @module
 */
import type { KubeObject } from '../api/object.js';

interface Entry<T> {
  /** The server's answer to the last write. */
  readonly object: T;
  /** The resourceVersions this component's writes replaced since the cache last had one. */
  readonly replaced: ReadonlySet<string>;
}

const rvOf = (obj: KubeObject): string | undefined => obj.metadata?.resourceVersion;
const uidOf = (obj: KubeObject): string | undefined => obj.metadata?.uid;

/** One component's last writes, by key (`namespace/name`). */
export class OwnWrites<T extends KubeObject> {
  readonly #entries = new Map<string, Entry<T>>();

  /**
   * Remembers `written`, the server's answer to a write of `key` whose precondition was the
   * resourceVersion `from` (the version the write replaced). A write without a precondition
   * (`from` undefined) or an answer without a resourceVersion is not remembered: there is then
   * no telling which cached version it is newer than.
   */
  record(key: string, from: string | undefined, written: T): void {
    const to = rvOf(written);
    if (from === undefined || to === undefined) {
      this.#entries.delete(key);
      return;
    }
    const previous = this.#entries.get(key);
    // A write made from this component's own previous write continues its chain: the cache
    // may still be at any version that chain replaced.
    const chained =
      previous !== undefined &&
      rvOf(previous.object) === from &&
      uidOf(previous.object) === uidOf(written);
    const replaced = new Set(chained ? previous.replaced : []);
    replaced.add(from);
    this.#entries.set(key, { object: written, replaced });
  }

  /**
   * The newest copy of `key` known here: this component's last write while `cached` (the
   * informer's copy) is at a version that write replaced, else `cached`. The write is forgotten
   * once the cache has it or moved past it, or the object is gone from the cache or is another
   * incarnation (uid).
   */
  newest(key: string, cached: T | undefined): T | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return cached;
    const rv = cached === undefined ? undefined : rvOf(cached);
    if (
      cached !== undefined &&
      rv !== undefined &&
      entry.replaced.has(rv) &&
      uidOf(cached) === uidOf(entry.object)
    ) {
      return entry.object;
    }
    this.#entries.delete(key);
    return cached;
  }

  /** Forgets `key` (the object was deleted); with `uid`, only a write of that incarnation. */
  forget(key: string, uid?: string): void {
    const entry = this.#entries.get(key);
    if (entry !== undefined && (uid === undefined || uidOf(entry.object) === uid)) {
      this.#entries.delete(key);
    }
  }

  /** Writes remembered (the cache has not caught up with them yet). */
  get size(): number {
    return this.#entries.size;
  }
}
