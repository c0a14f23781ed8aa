/**
 * The value column of a delete record (format 2): the delete event's final value written as an
 * edit of the previous version's value, so a tombstone costs tens of bytes instead of a whole
 * object.
 *
 * etcd's delete stores only key and revision, and its watchers rebuild the DELETED object from
 * the previous version. Here the final value is whatever the delete's encoder produced: the API
 * server stamps the deletion revision into `metadata.resourceVersion`, and a delete that removed
 * the last finalizer carries that change too. Both are small edits of the previous value, so
 * the record keeps the common prefix and suffix lengths and the differing middle:
 * `<prefix>:<suffix>:<middle>`. A 5 KiB object deleted at revision 123,456 gives a record of
 * about 20 characters. Recovery applies it to the previous version, which compaction keeps for
 * as long as the tombstone is kept (it removes both together).
 *
 * @module
 */

/** Encodes `final` as an edit of `previous`. */
export function encodeDeleteDelta(previous: string, final: string): string {
  const max = Math.min(previous.length, final.length);
  let prefix = 0;
  while (prefix < max && previous.charCodeAt(prefix) === final.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < max - prefix &&
    previous.charCodeAt(previous.length - 1 - suffix) ===
      final.charCodeAt(final.length - 1 - suffix)
  ) {
    suffix++;
  }
  return `${prefix}:${suffix}:${final.slice(prefix, final.length - suffix)}`;
}

/** Rebuilds the final value from `previous` and a record made by {@link encodeDeleteDelta}. */
export function applyDeleteDelta(previous: string, delta: string): string {
  const first = delta.indexOf(':');
  const second = delta.indexOf(':', first + 1);
  const prefix = Number(delta.slice(0, first));
  const suffix = Number(delta.slice(first + 1, second));
  if (
    first < 0 ||
    second < 0 ||
    !Number.isSafeInteger(prefix) ||
    !Number.isSafeInteger(suffix) ||
    prefix + suffix > previous.length
  ) {
    throw new Error(`storage: malformed delete record ${JSON.stringify(delta.slice(0, 40))}`);
  }
  return (
    previous.slice(0, prefix) + delta.slice(second + 1) + previous.slice(previous.length - suffix)
  );
}
