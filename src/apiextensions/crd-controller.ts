/**
 * Serves what CustomResourceDefinitions declare. For every CRD, level-triggered by name:
 *
 * - plan its accepted names and conditions (`crd-status.ts`), register its served versions in
 *   the {@link ResourceRegistry} (discovery, routing and OpenAPI follow the registry), then
 *   write the status, so a client that sees `Established=True` finds the endpoints;
 * - when a CRD is deleted, delete its custom resources, then drop the cleanup finalizer; the
 *   store removes the CRD and the registry entries go with it.
 *
 * Registration at start is synchronous (from the stored CRDs), so custom resources are
 * served from the first request after a restart.
 *
 * @module
 */
import {
  CRD_CLEANUP_FINALIZER,
  type CustomResourceDefinition,
  isEstablished,
} from '../api/crd-types.js';
import { StatusError } from '../api/errors.js';
import type { ResourceDefinition } from '../api/resource.js';
import { formatTime } from '../api/time.js';
import type { ResourceRegistry } from '../apiserver/registry.js';
import { listPrefix, objectKey } from '../apiserver/store/keys.js';
import { parseStoredObject } from '../apiserver/store/object-json.js';
import type { ObjectStore } from '../apiserver/store/object-store.js';
import type { StorageEvent, Watcher } from '../storage/backend.js';
import type { Clock } from '../util/clock.js';
import { asCrd, parseStoredCrd } from './crd-object.js';
import { planCrdStatus, setCondition } from './crd-status.js';
import { customResourceDefinitions, type SchemaTools } from './custom-resource.js';

export interface CrdControllerOptions {
  readonly store: ObjectStore;
  readonly registry: ResourceRegistry;
  /** The served CustomResourceDefinition kind itself. */
  readonly crdDefinition: ResourceDefinition;
  readonly tools: SchemaTools;
  /** Resolves once `tools` may be called (they load on first use). */
  readonly loadTools: () => Promise<unknown>;
  readonly clock: Clock;
  readonly onError?: (crd: string, error: unknown) => void;
}

/** While custom resources remain (held by finalizers), look again this often. */
const RETRY_MS = 1000;

export class CrdController {
  readonly #o: CrdControllerOptions;
  /** What each CRD currently serves, to remove exactly that when it changes or goes. */
  readonly #served = new Map<string, ResourceDefinition[]>();
  readonly #queued = new Set<string>();
  readonly #running = new Set<string>();
  readonly #timers = new Map<string, () => void>();
  #watcher: Watcher | undefined;
  #stopped = false;

  constructor(options: CrdControllerOptions) {
    this.#o = options;
  }

  /** Serves the stored CRDs (loading the tools first when there are any), then watches. */
  async start(): Promise<void> {
    const backend = this.#o.store.backend;
    const prefix = listPrefix(this.#o.crdDefinition, '');
    const current = backend.list(prefix);
    if (current.items.length > 0) await this.#o.loadTools();
    for (const kv of current.items) {
      const crd = parseStoredCrd(kv.value);
      if (isEstablished(crd)) this.#serve(crd);
      this.#enqueue(crd.metadata?.name ?? '');
    }
    this.#watcher = backend.watch(prefix, current.revision, (events) => this.#onEvents(events));
  }

  stop(): void {
    this.#stopped = true;
    this.#watcher?.stop();
    for (const cancel of this.#timers.values()) cancel();
    this.#timers.clear();
  }

  #onEvents(events: readonly StorageEvent[]): void {
    for (const ev of events) {
      const name = ev.kv.key.slice(ev.kv.key.lastIndexOf('/') + 1);
      if (ev.type === 'delete') this.#unserve(name);
      this.#enqueue(name);
    }
  }

  #enqueue(name: string): void {
    if (this.#stopped || name === '') return;
    if (this.#running.has(name)) {
      this.#queued.add(name);
      return;
    }
    this.#running.add(name);
    void this.#sync(name)
      .catch((e: unknown) => {
        if (e instanceof StatusError && (e.code === 404 || e.code === 409)) return;
        this.#o.onError?.(name, e);
        this.#retryLater(name);
      })
      .finally(() => {
        this.#running.delete(name);
        if (this.#queued.delete(name)) this.#enqueue(name);
      });
  }

  #retryLater(name: string): void {
    if (this.#stopped || this.#timers.has(name)) return;
    const cancel = this.#o.clock.setTimer(RETRY_MS, () => {
      this.#timers.delete(name);
      this.#enqueue(name);
    });
    this.#timers.set(name, cancel);
  }

  #read(name: string): CustomResourceDefinition | undefined {
    const kv = this.#o.store.backend.getLatest(objectKey(this.#o.crdDefinition, '', name));
    return kv === undefined ? undefined : parseStoredCrd(kv.value);
  }

  async #sync(name: string): Promise<void> {
    await this.#o.loadTools();
    const crd = this.#read(name);
    if (crd === undefined) {
      this.#unserve(name);
      // A CRD's name is `<plural>.<group>`.
      this.#requeueUnsettled(this.#groupMembers(name.slice(name.indexOf('.') + 1)));
      return;
    }
    if (crd.metadata?.deletionTimestamp) {
      // Still served (list, get, delete), but marked: creates are refused from now on.
      if (this.#served.has(name)) this.#serve(crd);
      await this.#cleanUp(crd);
      return;
    }
    const others = this.#groupMembers(crd.spec?.group).filter((o) => o.metadata?.name !== name);
    const status = planCrdStatus(crd, others, formatTime(this.#o.clock.now()));
    const planned: CustomResourceDefinition = { ...crd, status };
    if (isEstablished(planned)) this.#serve(planned);
    else this.#unserve(name);
    if (JSON.stringify(status) !== JSON.stringify(crd.status ?? {})) {
      await this.#writeStatus(name, (current) => ({
        ...current,
        status: { ...current.status, ...status },
      }));
      this.#requeueUnsettled(others);
    }
  }

  /** The stored CRDs of one API group (names are unique only within a group). */
  #groupMembers(group: string | undefined): CustomResourceDefinition[] {
    return this.#o.store.backend
      .list(listPrefix(this.#o.crdDefinition, ''))
      .items.map((kv) => parseStoredCrd(kv.value))
      .filter((o) => o.spec?.group === group);
  }

  /** A CRD that frees names lets the others of its group take them (upstream requeues them). */
  #requeueUnsettled(others: readonly CustomResourceDefinition[]): void {
    for (const other of others) {
      if (!this.#isSettled(other)) this.#enqueue(other.metadata?.name ?? '');
    }
  }

  #isSettled(crd: CustomResourceDefinition): boolean {
    return (
      JSON.stringify(crd.spec?.names ?? {}) === JSON.stringify(crd.status?.acceptedNames ?? {})
    );
  }

  #serve(crd: CustomResourceDefinition): void {
    const name = crd.metadata?.name ?? '';
    const next = customResourceDefinitions(crd, this.#o.tools);
    const keep = new Set(next.map((d) => `${d.group}/${d.version}/${d.plural}`));
    for (const d of this.#served.get(name) ?? []) {
      if (!keep.has(`${d.group}/${d.version}/${d.plural}`)) {
        this.#o.registry.remove(d.group, d.version, d.plural);
      }
    }
    for (const d of next) this.#o.registry.add(d);
    this.#served.set(name, next);
  }

  #unserve(name: string): void {
    for (const d of this.#served.get(name) ?? [])
      this.#o.registry.remove(d.group, d.version, d.plural);
    this.#served.delete(name);
  }

  async #writeStatus(
    name: string,
    change: (current: CustomResourceDefinition) => CustomResourceDefinition,
  ): Promise<void> {
    await this.#o.store.update(
      this.#o.crdDefinition,
      '',
      name,
      (current) => change(asCrd(current)),
      { subresource: 'status' },
    );
  }

  /** Deletes every custom resource of a deleted CRD, then releases the CRD. */
  async #cleanUp(crd: CustomResourceDefinition): Promise<void> {
    const name = crd.metadata?.name ?? '';
    if (!(crd.metadata?.finalizers ?? []).includes(CRD_CLEANUP_FINALIZER)) return;
    const def = this.#served.get(name)?.[0];
    await this.#setTerminating(
      name,
      'InstanceDeletionInProgress',
      'CustomResource deletion is in progress',
    );
    if (def !== undefined) {
      const remaining = await this.#deleteInstances(def);
      if (remaining > 0) {
        this.#retryLater(name);
        return;
      }
    }
    await this.#setTerminating(name, 'InstanceDeletionCompleted', 'removed all instances');
    await this.#o.store.update(this.#o.crdDefinition, '', name, (current) => {
      const meta = current.metadata ?? {};
      const finalizers = (meta.finalizers ?? []).filter((f) => f !== CRD_CLEANUP_FINALIZER);
      return { ...current, metadata: { ...meta, finalizers } };
    });
  }

  async #setTerminating(name: string, reason: string, message: string): Promise<void> {
    const now = formatTime(this.#o.clock.now());
    await this.#writeStatus(name, (current) => ({
      ...current,
      status: {
        ...current.status,
        conditions: setCondition(
          current.status?.conditions ?? [],
          { type: 'Terminating', status: 'True', reason, message },
          now,
        ),
      },
    }));
  }

  /** Deletes the instances (every namespace); returns how many are still stored. */
  async #deleteInstances(def: ResourceDefinition): Promise<number> {
    const backend = this.#o.store.backend;
    const prefix = listPrefix({ ...def, namespaced: false }, '');
    for (const kv of backend.list(prefix).items) {
      const obj = parseStoredObject(kv.value);
      if (obj.metadata?.deletionTimestamp) continue;
      try {
        await this.#o.store.delete(def, obj.metadata?.namespace ?? '', obj.metadata?.name ?? '', {
          propagationPolicy: 'Background',
        });
      } catch (e) {
        if (!(e instanceof StatusError && e.code === 404)) throw e;
      }
    }
    return backend.count(prefix);
  }
}
