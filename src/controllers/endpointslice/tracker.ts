/**
 * Remembers this controller's own slice writes per Service until the informer's cache shows
 * them (upstream `endpointSliceTracker`): a reconcile planned from a cache that still lacks a
 * slice it created, or still holds one it deleted, would create duplicates.
 *
 * A written slice is seen once the cache holds it at that resourceVersion or a later one (this
 * server's resourceVersions are one increasing counter); a deleted one once it is absent.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';

function rvOf(obj: KubeObject | undefined): bigint {
  const rv = obj?.metadata?.resourceVersion;
  return rv !== undefined && /^[0-9]+$/.test(rv) ? BigInt(rv) : 0n;
}

export class WriteTracker {
  /** Service key → slice uid → the resourceVersion written, or `deleted`. */
  readonly #expected = new Map<string, Map<string, bigint | 'deleted'>>();

  #of(key: string): Map<string, bigint | 'deleted'> {
    let m = this.#expected.get(key);
    if (m === undefined) {
      m = new Map();
      this.#expected.set(key, m);
    }
    return m;
  }

  /** A create or update answered with `slice`. */
  wrote(key: string, slice: KubeObject): void {
    const uid = slice.metadata?.uid;
    if (uid !== undefined) this.#of(key).set(uid, rvOf(slice));
  }

  /** A delete (or a 404 for it). */
  deleted(key: string, slice: KubeObject): void {
    const uid = slice.metadata?.uid;
    if (uid !== undefined) this.#of(key).set(uid, 'deleted');
  }

  /** The Service is gone: nothing more to wait for. */
  forget(key: string): void {
    this.#expected.delete(key);
  }

  /**
   * Why `cached` (the Service's slices in the cache) is older than the writes made, or
   * undefined when it is current. Expectations the cache has caught up with are dropped.
   */
  stale(key: string, cached: readonly KubeObject[]): string | undefined {
    const expected = this.#expected.get(key);
    if (expected === undefined) return undefined;
    const byUid = new Map(cached.map((s) => [s.metadata?.uid ?? '', s]));
    for (const [uid, want] of expected) {
      const seen = byUid.get(uid);
      if (want === 'deleted') {
        if (seen !== undefined) return `slice ${seen.metadata?.name} was deleted`;
      } else if (seen === undefined || rvOf(seen) < want) {
        return `slice ${uid} was written at resourceVersion ${want}`;
      }
      expected.delete(uid);
    }
    if (expected.size === 0) this.#expected.delete(key);
    return undefined;
  }
}
