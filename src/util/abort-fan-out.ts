/**
 * Many callbacks on one AbortSignal through a single listener. Node's EventTarget walks its
 * listener list on every `addEventListener` (to refuse duplicates) and `removeEventListener`,
 * so each of the 1,000 simulated nodes keeping its own listener on the kubelet's shared stop
 * signal made every request on that signal (the API client adds and removes one per request)
 * walk 1,000 entries: 5 % of the controller thread while 1,000 nodes ran pods. Here a signal
 * gets one listener, and callbacks live in a Set (O(1) to add and remove).
 *
 * @module
 */

const fans = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `fn` once when `signal` aborts (at once, synchronously, if it has already); returns
 * the function that unsubscribes it.
 */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  if (signal.aborted) {
    fn();
    return () => {};
  }
  let callbacks = fans.get(signal);
  if (callbacks === undefined) {
    const set = new Set<() => void>();
    callbacks = set;
    fans.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        fans.delete(signal);
        for (const cb of [...set]) cb();
      },
      { once: true },
    );
  }
  const entry = (): void => fn();
  callbacks.add(entry);
  return () => {
    callbacks.delete(entry);
  };
}

const children = new WeakMap<AbortSignal, Map<string, AbortController>>();

/**
 * A signal that aborts when `parent` does, one per (`parent`, `key`) and reused. The API
 * client adds (and removes) an abort listener on the signal of each request it sends; with
 * one shared signal, 1,000 nodes renewing their Leases in the same instant made each add walk
 * up to 1,000 listeners. A node's requests on its own child signal find at most a few.
 */
export function childSignal(parent: AbortSignal, key: string): AbortSignal {
  let byKey = children.get(parent);
  if (byKey === undefined) {
    const map = new Map<string, AbortController>();
    byKey = map;
    children.set(parent, map);
    onAbort(parent, () => {
      for (const c of map.values()) c.abort(parent.reason);
    });
  }
  let child = byKey.get(key);
  if (child === undefined) {
    child = new AbortController();
    if (parent.aborted) child.abort(parent.reason);
    byKey.set(key, child);
  }
  return child.signal;
}
