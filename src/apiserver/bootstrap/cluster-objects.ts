/**
 * The API server's other bootstrap objects, kept as kube-apiserver's post-start hooks and
 * built-in controllers keep them (see `reconciler.ts` for the `kubernetes` Service):
 *
 * - API Priority and Fairness' mandatory and suggested FlowSchemas and
 *   PriorityLevelConfigurations (`flowcontrol-objects.ts`), created at start and restored
 *   when deleted or edited as upstream's configuration ensurer does, plus each FlowSchema's
 *   `Dangling` condition;
 * - one local APIService per served group-version (`local-api-services.ts`), following the
 *   registry as CRDs come and go, each `Available` with reason `Local`;
 * - the default `kubernetes` ServiceCIDR, Ready, and one IPAddress per allocated ClusterIP
 *   (`service-ip-objects.ts`).
 *
 * One pass at start (done when {@link ClusterObjectsReconciler.start} returns), then one every
 * {@link CLUSTER_OBJECTS_INTERVAL_MS} of the injected clock, and one soon after any change to
 * the registry or to a Service. Reads the stored objects, writes through the object store
 * (validation and admission apply), writes nothing when nothing differs. A kind the registry
 * does not serve (gated off) is skipped.
 *
 * @module
 */
import { StatusError } from '../../api/errors.js';
import type { JsonObject, KubeObject } from '../../api/object.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { formatTime } from '../../api/time.js';
import type { Watcher } from '../../storage/backend.js';
import type { Clock } from '../../util/clock.js';
import type { ResourceRegistry } from '../registry.js';
import { objectKey, resourcePrefix } from '../store/keys.js';
import { parseStoredObject } from '../store/object-json.js';
import type { ObjectStore } from '../store/object-store.js';
import {
  BOOTSTRAP_FLOW_SCHEMAS,
  BOOTSTRAP_PRIORITY_LEVELS,
  type BootstrapObject,
  planBootstrapObject,
  planDangling,
} from './flowcontrol-objects.js';
import {
  desiredAPIServices,
  isAutomanaged,
  planAPIServiceUpdate,
  planLocalAvailable,
} from './local-api-services.js';
import {
  DEFAULT_SERVICE_CIDR,
  defaultServiceCIDR,
  desiredIPAddresses,
  planIPAddresses,
  planServiceCIDRStatus,
} from './service-ip-objects.js';

/** The periodic pass (upstream: APF's ensurer runs each minute, the others on events). */
export const CLUSTER_OBJECTS_INTERVAL_MS = 10_000;

export interface ClusterObjectsReconcilerOptions {
  readonly store: ObjectStore;
  readonly registry: ResourceRegistry;
  readonly clock: Clock;
  /** The service range(s) the allocator serves (default: kube-apiserver's default). */
  readonly serviceCIDRs?: readonly string[];
  readonly onError?: (message: string, error: unknown) => void;
}

const FLOWCONTROL = 'flowcontrol.apiserver.k8s.io';
const NETWORKING = 'networking.k8s.io';

export class ClusterObjectsReconciler {
  readonly #o: ClusterObjectsReconcilerOptions;
  readonly #cidrs: readonly string[];
  #cancelTimer: (() => void) | undefined;
  #cancelKick: (() => void) | undefined;
  #unlisten: (() => void) | undefined;
  #watcher: Watcher | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = false;

  constructor(options: ClusterObjectsReconcilerOptions) {
    this.#o = options;
    this.#cidrs = options.serviceCIDRs ?? [DEFAULT_SERVICE_CIDR];
  }

  /** Runs the first pass, then keeps the objects on the clock and on changes. */
  async start(): Promise<void> {
    await this.#pass();
    this.#schedule();
    this.#unlisten = this.#o.registry.onChange(() => this.#kick());
    const services = this.#o.registry.get('', 'v1', 'services');
    if (services !== undefined) {
      const prefix = resourcePrefix(services);
      const { backend } = this.#o.store;
      this.#watcher = backend.watch(prefix, backend.list(prefix).revision, () => this.#kick());
    }
  }

  stop(): void {
    this.#stopped = true;
    this.#cancelTimer?.();
    this.#cancelKick?.();
    this.#unlisten?.();
    this.#watcher?.stop();
  }

  /** Runs one pass now and waits for it (tests; also what `start` does first). */
  async sync(): Promise<void> {
    await this.#pass();
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#cancelTimer = this.#o.clock.setTimer(CLUSTER_OBJECTS_INTERVAL_MS, () => {
      void this.#pass().finally(() => this.#schedule());
    });
  }

  /** A pass soon (coalesced: a burst of Service writes makes one pass). */
  #kick(): void {
    if (this.#stopped || this.#cancelKick !== undefined) return;
    this.#cancelKick = this.#o.clock.setTimer(0, () => {
      this.#cancelKick = undefined;
      void this.#pass();
    });
  }

  /** One pass at a time; a pass asked for while one runs runs once more after it. */
  async #pass(): Promise<void> {
    if (this.#running !== undefined) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#passes().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #passes(): Promise<void> {
    do {
      this.#again = false;
      for (const [what, step] of [
        ['flowcontrol bootstrap configuration', () => this.#flowcontrol()],
        ['local APIServices', () => this.#apiServices()],
        ['default ServiceCIDR', () => this.#serviceCIDR()],
        ['ClusterIP IPAddresses', () => this.#ipAddresses()],
      ] as const) {
        if (this.#stopped) return;
        try {
          await step();
        } catch (e) {
          if (!this.#stopped) this.#o.onError?.(`unable to keep the ${what}`, e);
        }
      }
    } while (this.#again && !this.#stopped);
  }

  #now(): string {
    return formatTime(this.#o.clock.now());
  }

  #list(def: ResourceDefinition): KubeObject[] {
    return this.#o.store.backend
      .list(resourcePrefix(def))
      .items.map((kv) => parseStoredObject(kv.value));
  }

  #get(def: ResourceDefinition, name: string): KubeObject | undefined {
    const kv = this.#o.store.backend.getLatest(objectKey(def, '', name));
    return kv === undefined ? undefined : parseStoredObject(kv.value);
  }

  async #flowcontrol(): Promise<void> {
    const { registry } = this.#o;
    const levels = registry.get(FLOWCONTROL, 'v1', 'prioritylevelconfigurations');
    const schemas = registry.get(FLOWCONTROL, 'v1', 'flowschemas');
    if (levels === undefined || schemas === undefined) return;
    await this.#ensure(levels, BOOTSTRAP_PRIORITY_LEVELS);
    await this.#ensure(schemas, BOOTSTRAP_FLOW_SCHEMAS);
    const names = new Set(this.#list(levels).map((pl) => pl.metadata?.name ?? ''));
    const now = this.#now();
    for (const fs of this.#list(schemas)) {
      if (planDangling(fs, names, now) === undefined) continue;
      await this.#writeStatus(schemas, fs.metadata?.name ?? '', (current) =>
        planDangling(current, names, now),
      );
    }
  }

  async #ensure(def: ResourceDefinition, wanted: readonly BootstrapObject[]): Promise<void> {
    for (const w of wanted) {
      const write = planBootstrapObject(this.#get(def, w.name), w);
      if (write === undefined) continue;
      if (write.action === 'create') await this.#create(def, write.object);
      else
        await this.#update(def, w.name, (current) => {
          const again = planBootstrapObject(current, w);
          return again?.action === 'update' ? again.object : current;
        });
    }
  }

  async #apiServices(): Promise<void> {
    const def = this.#o.registry.get('apiregistration.k8s.io', 'v1', 'apiservices');
    if (def === undefined) return;
    const desired = desiredAPIServices(this.#o.registry.all());
    const stored = new Map(this.#list(def).map((s) => [s.metadata?.name ?? '', s]));
    for (const [name, current] of stored) {
      if (isAutomanaged(current) && !desired.has(name)) await this.#delete(def, name);
    }
    for (const [name, wanted] of desired) {
      const current = stored.get(name);
      if (current === undefined) await this.#create(def, structuredClone(wanted));
      else if (isAutomanaged(current) && planAPIServiceUpdate(current, wanted) !== undefined)
        await this.#update(def, name, (c) => planAPIServiceUpdate(c, wanted) ?? c);
    }
    const now = this.#now();
    for (const s of this.#list(def)) {
      if (planLocalAvailable(s, now) === undefined) continue;
      await this.#writeStatus(def, s.metadata?.name ?? '', (c) => planLocalAvailable(c, now));
    }
  }

  async #serviceCIDR(): Promise<void> {
    const def = this.#o.registry.get(NETWORKING, 'v1', 'servicecidrs');
    if (def === undefined) return;
    const name = defaultServiceCIDR(this.#cidrs).metadata?.name ?? '';
    let current = this.#get(def, name);
    if (current === undefined) {
      await this.#create(def, defaultServiceCIDR(this.#cidrs));
      current = this.#get(def, name);
    }
    const now = this.#now();
    if (current === undefined || planServiceCIDRStatus(current, this.#cidrs, now) === undefined)
      return;
    await this.#writeStatus(def, name, (c) => planServiceCIDRStatus(c, this.#cidrs, now));
  }

  async #ipAddresses(): Promise<void> {
    const def = this.#o.registry.get(NETWORKING, 'v1', 'ipaddresses');
    const services = this.#o.registry.get('', 'v1', 'services');
    if (def === undefined || services === undefined) return;
    const plan = planIPAddresses(this.#list(def), desiredIPAddresses(this.#list(services)));
    for (const name of plan.remove) await this.#delete(def, name);
    for (const ip of plan.create) await this.#create(def, ip);
  }

  async #create(def: ResourceDefinition, obj: KubeObject): Promise<void> {
    await this.#tolerate(() => this.#o.store.create(def, '', obj));
  }

  async #update(def: ResourceDefinition, name: string, fn: (current: KubeObject) => KubeObject) {
    await this.#tolerate(() => this.#o.store.update(def, '', name, fn));
  }

  /** A `/status` write of what `plan` makes of the newest object (nothing when it says so). */
  async #writeStatus(
    def: ResourceDefinition,
    name: string,
    plan: (current: KubeObject) => JsonObject | undefined,
  ): Promise<void> {
    await this.#tolerate(() =>
      this.#o.store.update(
        def,
        '',
        name,
        (current) => {
          const status = plan(current);
          return status === undefined ? current : { ...current, status };
        },
        { subresource: 'status' },
      ),
    );
  }

  async #delete(def: ResourceDefinition, name: string): Promise<void> {
    await this.#tolerate(() => this.#o.store.delete(def, '', name, {}));
  }

  /** 404: deleted meanwhile; 409: created or written meanwhile. The next pass sees it. */
  async #tolerate(write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (e) {
      if (!(e instanceof StatusError && (e.code === 404 || e.code === 409))) throw e;
    }
  }
}
