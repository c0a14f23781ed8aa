/**
 * Typed reads of a shared informer. Informers hold what the server listed and watched, plain
 * `KubeObject`s (one informer per resource serves every controller, typed or not); a controller
 * reads its kinds through these views, which narrow each object with `asKind` as it is handed
 * out: the one place between the cache and typed code where an object's kind is checked.
 *
 * `asKind` checks identity, not every field (~0.2 µs an object), so a view costs a pass over
 * what a read returns and no copy of the objects themselves.
 *
 * @module
 */
import { asKind, type KindName, type Kinds } from '../api/model/index.js';
import type { KubeObject } from '../api/object.js';
import {
  DeletedFinalStateUnknown,
  type EventHandler,
  type HandlerRegistration,
  type Lister,
  type SharedInformer,
} from '../client/shared-informer.js';

/** `lister`'s objects as `kind`: each read narrows what it returns. */
export function kindLister<N extends KindName>(
  lister: Lister<KubeObject>,
  kind: N,
): Lister<Kinds[N]> {
  const narrow = (obj: KubeObject): Kinds[N] => asKind(obj, kind);
  return {
    get: (namespace, name) => {
      const obj = lister.get(namespace, name);
      return obj === undefined ? undefined : narrow(obj);
    },
    list: (selector) => lister.list(selector).map(narrow),
    listInNamespace: (namespace, selector) =>
      lister.listInNamespace(namespace, selector).map(narrow),
    byIndex: (name, value) => lister.byIndex(name, value).map(narrow),
  };
}

/**
 * A handler for an informer of `kind` that hands `handler` typed objects (a delete tombstone's
 * last state too). Only the callbacks `handler` has are wrapped.
 */
export function kindHandler<N extends KindName>(
  kind: N,
  handler: EventHandler<Kinds[N]>,
): EventHandler<KubeObject> {
  const narrow = (obj: KubeObject): Kinds[N] => asKind(obj, kind);
  const wrapped: EventHandler<KubeObject> = {};
  if (handler.onAdd !== undefined) {
    wrapped.onAdd = (obj, isInInitialList) => handler.onAdd?.(narrow(obj), isInInitialList);
  }
  if (handler.onUpdate !== undefined) {
    wrapped.onUpdate = (oldObj, newObj) => handler.onUpdate?.(narrow(oldObj), narrow(newObj));
  }
  if (handler.onDelete !== undefined) {
    wrapped.onDelete = (deleted) =>
      handler.onDelete?.(
        deleted instanceof DeletedFinalStateUnknown
          ? new DeletedFinalStateUnknown(deleted.key, narrow(deleted.obj))
          : narrow(deleted),
      );
  }
  return wrapped;
}

/** A shared informer read as one kind: its typed lister and handlers, and the informer itself. */
export interface KindInformer<N extends KindName> {
  /** The shared informer (for `waitForSync`, `hasSynced`). */
  readonly informer: SharedInformer<KubeObject>;
  readonly lister: Lister<Kinds[N]>;
  addEventHandler(handler: EventHandler<Kinds[N]>): HandlerRegistration;
}

/** `informer` read as `kind` (see {@link kindLister}, {@link kindHandler}). */
export function kindInformer<N extends KindName>(
  informer: SharedInformer<KubeObject>,
  kind: N,
): KindInformer<N> {
  return {
    informer,
    lister: kindLister(informer.lister, kind),
    addEventHandler: (handler) => informer.addEventHandler(kindHandler(kind, handler)),
  };
}
