/**
 * Namespace lifecycle, the part upstream splits between the NamespaceLifecycle admission
 * plugin and the namespace controller:
 *
 * - nothing can be created in a namespace that does not exist (404) or is being deleted (403);
 * - `default`, `kube-system` and `kube-public` cannot be deleted;
 * - a deleted namespace (marked Terminating, held by its `kubernetes` spec finalizer) has
 *   everything in it deleted, and once it is empty the finalizer is removed and it goes.
 *
 * @module
 */
import { forbidden, notFound, StatusError } from '../api/errors.js';
import { getArr, getObj } from '../api/kinds/json.js';
import type { ResourceDefinition } from '../api/resource.js';
import type { Backend, KeyValue, StorageEvent, Watcher } from '../storage/backend.js';
import type { Clock } from '../util/clock.js';
import type { ResourceRegistry } from './registry.js';
import { listPrefix, objectKey, resourcePrefix } from './store/keys.js';
import { parseStoredObject } from './store/object-json.js';
import type { Admission, ObjectStore } from './store/object-store.js';

export const BUILTIN_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);
const NAMESPACES = { group: '', plural: 'namespaces', namespaced: false } as const;
/** While content remains (objects held by finalizers), look again this often. */
const RETRY_MS = 1000;

export function namespaceAdmission(backend: Backend): Admission {
  return {
    admitCreate(def, namespace, obj) {
      if (!def.namespaced) return;
      const kv = backend.getLatest(objectKey(NAMESPACES, '', namespace));
      if (kv === undefined) throw notFound({ group: '', resource: 'namespaces' }, namespace);
      if (isTerminating(kv)) {
        const e = forbidden(
          { group: def.group, resource: def.plural },
          obj.metadata?.name ?? '',
          `unable to create new content in namespace ${namespace} because it is being terminated`,
        );
        e.status.details = {
          ...e.status.details,
          causes: [
            {
              reason: 'NamespaceTerminating',
              message: `namespace ${namespace} is being terminated`,
              field: 'metadata.namespace',
            },
          ],
        };
        throw e;
      }
    },
    admitDelete(def, _namespace, name) {
      if (def.group === '' && def.plural === 'namespaces' && IMMORTAL_NAMESPACES.has(name)) {
        throw forbidden(
          { group: '', resource: 'namespaces' },
          name,
          'this namespace may not be deleted',
        );
      }
    },
  };
}

/** Whether a stored namespace is being deleted, parsed once per stored version. */
const terminating = new WeakMap<KeyValue, boolean>();

function isTerminating(kv: KeyValue): boolean {
  let t = terminating.get(kv);
  if (t === undefined) {
    t = Boolean(parseStoredObject(kv.value).metadata?.deletionTimestamp);
    terminating.set(kv, t);
  }
  return t;
}

export interface NamespaceControllerOptions {
  readonly store: ObjectStore;
  readonly registry: ResourceRegistry;
  readonly clock: Clock;
  readonly onError?: (namespace: string, error: unknown) => void;
}

/** Empties and then finalizes namespaces that are being deleted. */
export class NamespaceController {
  readonly #o: NamespaceControllerOptions;
  readonly #backend: Backend;
  #watcher: Watcher | undefined;
  readonly #queued = new Set<string>();
  readonly #running = new Set<string>();
  readonly #timers = new Map<string, () => void>();
  #stopped = false;

  constructor(options: NamespaceControllerOptions) {
    this.#o = options;
    this.#backend = options.store.backend;
  }

  start(): void {
    const prefix = listPrefix(NAMESPACES, '');
    const current = this.#backend.list(prefix);
    for (const kv of current.items) this.#consider(kv.value);
    this.#watcher = this.#backend.watch(prefix, current.revision, (events) =>
      this.#onEvents(events),
    );
  }

  stop(): void {
    this.#stopped = true;
    this.#watcher?.stop();
    for (const cancel of this.#timers.values()) cancel();
    this.#timers.clear();
  }

  #onEvents(events: readonly StorageEvent[]): void {
    for (const ev of events) if (ev.type !== 'delete') this.#consider(ev.kv.value);
  }

  #consider(json: string): void {
    const ns = parseStoredObject(json);
    const name = ns.metadata?.name;
    if (name && ns.metadata?.deletionTimestamp) this.#enqueue(name);
  }

  #enqueue(name: string): void {
    if (this.#stopped) return;
    if (this.#running.has(name)) {
      this.#queued.add(name);
      return;
    }
    this.#running.add(name);
    void this.#sync(name).finally(() => {
      this.#running.delete(name);
      if (this.#queued.delete(name)) this.#enqueue(name);
    });
  }

  async #sync(name: string): Promise<void> {
    try {
      const remaining = await this.#deleteContent(name);
      if (remaining > 0) {
        this.#retryLater(name);
        return;
      }
      await this.#finalize(name);
    } catch (e) {
      if (!(e instanceof StatusError && e.code === 404)) {
        this.#o.onError?.(name, e);
        this.#retryLater(name);
      }
    }
  }

  #retryLater(name: string): void {
    if (this.#stopped || this.#timers.has(name)) return;
    const cancel = this.#o.clock.setTimer(RETRY_MS, () => {
      this.#timers.delete(name);
      this.#enqueue(name);
    });
    this.#timers.set(name, cancel);
  }

  /** Deletes every object in the namespace; returns how many are still there. */
  async #deleteContent(namespace: string): Promise<number> {
    let remaining = 0;
    for (const def of this.#namespacedResources()) {
      const items = this.#backend.list(listPrefix(def, namespace)).items;
      for (const kv of items) {
        remaining++;
        const obj = parseStoredObject(kv.value);
        if (obj.metadata?.deletionTimestamp) continue;
        try {
          await this.#o.store.delete(def, namespace, obj.metadata?.name ?? '', {
            propagationPolicy: 'Background',
          });
        } catch (e) {
          if (!(e instanceof StatusError && e.code === 404)) throw e;
        }
      }
    }
    if (remaining === 0) return 0;
    // Count again: objects without finalizers are gone now.
    return this.#namespacedResources().reduce(
      (n, def) => n + this.#backend.count(listPrefix(def, namespace)),
      0,
    );
  }

  #namespacedResources(): ResourceDefinition[] {
    const seen = new Set<string>();
    return this.#o.registry.all().filter((d) => {
      // One storage served in several versions (core and events.k8s.io events) is one resource.
      const key = resourcePrefix(d);
      if (!d.namespaced || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /** Removes the `kubernetes` spec finalizer; the store deletes the namespace once it is free. */
  async #finalize(name: string): Promise<void> {
    const def = this.#o.registry.get('', 'v1', 'namespaces');
    if (def === undefined) return;
    await this.#o.store.update(
      def,
      '',
      name,
      (current) => {
        const spec = getObj(current, 'spec') ?? {};
        const finalizers = (getArr(spec, 'finalizers') ?? []).filter((f) => f !== 'kubernetes');
        return { ...current, spec: { ...spec, finalizers } };
      },
      { subresource: 'finalize' },
    );
  }
}
