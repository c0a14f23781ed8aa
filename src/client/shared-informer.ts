/**
 * One list + watch per resource, fanned out to any number of handlers and read through a
 * lister (client-go `shared_informer.go`, without the DeltaFIFO: events are applied to the
 * store in stream order and handlers are called right away, synchronously, in the order they
 * were added).
 *
 * Notifications follow client-go's `processDeltas`:
 *
 * | reflector says                  | object in cache before | store         | handler call                      |
 * |---------------------------------|------------------------|---------------|-----------------------------------|
 * | ADDED / MODIFIED / listed       | no                     | insert        | `onAdd(obj, isInInitialList)`     |
 * | ADDED / MODIFIED / listed       | yes, other RV          | replace       | `onUpdate(old, obj)`              |
 * | ADDED / MODIFIED / listed       | yes, same RV           | replace       | none (nothing changed)            |
 * | DELETED                         | any                    | remove        | `onDelete(obj)`                   |
 * | absent from a relist            | yes                    | remove        | `onDelete(DeletedFinalStateUnknown)` |
 *
 * A relist (after a 410) cannot know an object's final state, so its delete carries a
 * {@link DeletedFinalStateUnknown} tombstone with the last state the cache had. Objects are
 * deep-frozen on the way in: handlers and listers share them, and a mutation would corrupt
 * the cache for everyone (style habit 5) — copy before editing.
 *
 * @module
 */
import { type LabelSelector, parseLabelSelector } from '../api/labels/selector.js';
import type { KubeObject } from '../api/object.js';
import type { Clock } from '../util/clock.js';
import type { ListerWatcher, WatchEvent } from './lister-watcher.js';
import { Reflector, type ReflectorLogger, type ReflectorOptions } from './reflector.js';
import {
  Indexer,
  type Indexers,
  keyOf,
  NAMESPACE_INDEX,
  namespaceIndexFunc,
  objectKey,
} from './store.js';

/** The last known state of an object whose deletion was missed (seen only through a relist). */
export class DeletedFinalStateUnknown<T extends KubeObject = KubeObject> {
  readonly key: string;
  readonly obj: T;
  constructor(key: string, obj: T) {
    this.key = key;
    this.obj = obj;
  }
}

/** The object of a delete notification, tombstone or not. */
export function deletedObject<T extends KubeObject>(deleted: T | DeletedFinalStateUnknown<T>): T {
  return deleted instanceof DeletedFinalStateUnknown ? deleted.obj : deleted;
}

/** Callbacks; each is optional. Exceptions are logged and do not stop the informer. */
export interface EventHandler<T extends KubeObject> {
  /** `isInInitialList`: the object came with the first list, or the replay on registration. */
  onAdd?(obj: T, isInInitialList: boolean): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T | DeletedFinalStateUnknown<T>): void;
}

export interface HandlerRegistration {
  /** True once the informer has synced (the replay of existing objects is synchronous). */
  hasSynced(): boolean;
  /** Stops notifications to this handler. */
  remove(): void;
}

/** Read access to the cache. Returned objects are frozen: copy before editing. */
export interface Lister<T extends KubeObject> {
  /** The object `name` in `namespace` (`""` for cluster-scoped), if cached. */
  get(namespace: string, name: string): T | undefined;
  /** Cached objects whose labels match `selector` (all when absent). */
  list(selector?: LabelSelector | string): T[];
  /** Cached objects in one namespace whose labels match `selector`. */
  listInNamespace(namespace: string, selector?: LabelSelector | string): T[];
  /** Cached objects whose index `name` yields `value`. */
  byIndex(name: string, value: string): T[];
}

export interface InformerLogger extends ReflectorLogger {
  error(fields: Record<string, unknown>, msg: string): void;
}

export interface SharedInformerOptions<T extends KubeObject>
  extends Pick<
    ReflectorOptions<T>,
    'pageSize' | 'minWatchTimeoutSeconds' | 'random' | 'backoff' | 'name' | 'activity'
  > {
  readonly listerWatcher: ListerWatcher<T>;
  readonly clock: Clock;
  /** Indexes besides the built-in {@link NAMESPACE_INDEX}. */
  readonly indexers?: Indexers<T>;
  readonly log?: InformerLogger;
  /**
   * Changes each listed or watched object before it is cached and handed to handlers
   * (client-go's `SetTransform`), e.g. {@link stripManagedFields}. It receives a freshly
   * decoded object the informer owns, so it may change it in place.
   */
  readonly transform?: (obj: T) => T;
}

export class SharedInformer<T extends KubeObject = KubeObject> {
  readonly #options: SharedInformerOptions<T>;
  readonly #indexer: Indexer<T>;
  readonly #handlers = new Set<EventHandler<T>>();
  readonly #reflector: Reflector<T>;
  readonly #syncWaiters = new Set<() => void>();
  #synced = false;
  #running = false;

  readonly lister: Lister<T>;

  constructor(options: SharedInformerOptions<T>) {
    this.#options = options;
    this.#indexer = new Indexer<T>({ [NAMESPACE_INDEX]: namespaceIndexFunc, ...options.indexers });
    this.#reflector = new Reflector<T>({
      ...options,
      name: options.name ?? 'informer',
      sink: {
        replace: (items) => this.#replace(items),
        apply: (event) => this.#apply(event),
      },
    });
    this.lister = listerOf(this.#indexer);
  }

  /** Lists and watches until `signal` aborts; resolves then. Runs once per informer. */
  async run(signal: AbortSignal): Promise<void> {
    if (this.#running) throw new Error(`${this.#name}: already running`);
    this.#running = true;
    await this.#reflector.run(signal);
  }

  /** Adds indexes to the cache (see {@link Indexer.addIndexers}); listers see them at once. */
  addIndexers(indexers: Indexers<T>): void {
    this.#indexer.addIndexers(indexers);
  }

  /** True once the first list is in the cache and its handlers have been called. */
  hasSynced(): boolean {
    return this.#synced;
  }

  /** Resolves true when synced, false if `signal` aborts first. */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    if (this.#synced) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (ok: boolean): void => {
        this.#syncWaiters.delete(onSync);
        signal?.removeEventListener('abort', onAbort);
        resolve(ok);
      };
      const onSync = (): void => done(true);
      const onAbort = (): void => done(false);
      this.#syncWaiters.add(onSync);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The resume point: resourceVersion of the last list, event or bookmark. */
  lastSyncResourceVersion(): string {
    return this.#reflector.lastSyncResourceVersion();
  }

  /**
   * Adds a handler; it is first told about every cached object (`onAdd(obj, true)`), so a
   * handler added late sees the same world as one added before `run`.
   */
  addEventHandler(handler: EventHandler<T>): HandlerRegistration {
    this.#handlers.add(handler);
    for (const obj of this.#indexer.list())
      this.#call(handler, 'onAdd', () => handler.onAdd?.(obj, true));
    return {
      hasSynced: () => this.#synced && this.#handlers.has(handler),
      remove: () => {
        this.#handlers.delete(handler);
      },
    };
  }

  #transform(obj: T): T {
    return this.#options.transform === undefined ? obj : this.#options.transform(obj);
  }

  get #name(): string {
    return this.#options.name ?? 'informer';
  }

  #replace(items: readonly T[]): void {
    const seen = new Set<string>();
    for (const raw of items) {
      const obj = deepFreeze(this.#transform(raw));
      seen.add(objectKey(obj));
      this.#upsert(obj, !this.#synced);
    }
    for (const key of this.#indexer.keys()) {
      if (seen.has(key)) continue;
      const old = this.#indexer.remove(key)!;
      this.#notifyDelete(new DeletedFinalStateUnknown(key, old));
    }
    if (!this.#synced) {
      this.#synced = true;
      for (const waiter of [...this.#syncWaiters]) waiter();
    }
  }

  #apply(event: WatchEvent<T>): void {
    const obj = deepFreeze(this.#transform(event.object));
    if (event.type === 'DELETED') {
      this.#indexer.remove(objectKey(obj));
      this.#notifyDelete(obj);
      return;
    }
    this.#upsert(obj, false);
  }

  #upsert(obj: T, initial: boolean): void {
    const old = this.#indexer.upsert(obj);
    if (old === undefined) {
      for (const h of [...this.#handlers]) this.#call(h, 'onAdd', () => h.onAdd?.(obj, initial));
    } else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion) {
      for (const h of [...this.#handlers]) this.#call(h, 'onUpdate', () => h.onUpdate?.(old, obj));
    }
  }

  #notifyDelete(deleted: T | DeletedFinalStateUnknown<T>): void {
    for (const h of [...this.#handlers]) this.#call(h, 'onDelete', () => h.onDelete?.(deleted));
  }

  /** Runs one callback; a throwing handler is logged and must not break the cache. */
  #call(handler: EventHandler<T>, what: string, fn: () => void): void {
    if (!this.#handlers.has(handler)) return;
    try {
      fn();
    } catch (err) {
      this.#options.log?.error({ informer: this.#name, handler: what, err }, 'handler failed');
    }
  }
}

function listerOf<T extends KubeObject>(indexer: Indexer<T>): Lister<T> {
  const matching = (items: T[], selector: LabelSelector | string | undefined): T[] => {
    if (selector === undefined) return items;
    const sel = typeof selector === 'string' ? parseLabelSelector(selector) : selector;
    if (sel.isEmpty()) return items;
    return items.filter((o) => sel.matches(o.metadata?.labels));
  };
  return {
    get: (namespace, name) => indexer.getByKey(keyOf(namespace, name)),
    list: (selector) => matching(indexer.list(), selector),
    listInNamespace: (namespace, selector) =>
      matching(indexer.byIndex(NAMESPACE_INDEX, namespace), selector),
    byIndex: (name, value) => indexer.byIndex(name, value),
  };
}

/** Freezes `obj` and everything reachable from it; returns it. */
/**
 * Drops `metadata.managedFields`, in place: what kube-controller-manager's informers do since
 * 1.28 (kubernetes#118455) and the scheduler's pod informer, since no controller reads them and
 * they are a third to a half of a pod's JSON. An update sent from such a copy keeps the stored
 * managedFields (the API server treats absent managedFields as unchanged).
 */
export function stripManagedFields<T extends KubeObject>(obj: T): T {
  if (obj.metadata?.managedFields !== undefined) delete obj.metadata.managedFields;
  return obj;
}

export function deepFreeze<V>(obj: V): V {
  if (typeof obj !== 'object' || obj === null || Object.isFrozen(obj)) return obj;
  Object.freeze(obj);
  for (const value of Object.values(obj)) deepFreeze(value);
  return obj;
}
