/**
 * The API server's bootstrap controller loop (upstream `kubernetesservice.Controller.Run`):
 * keeps `default/kubernetes` (Service, Endpoints, EndpointSlice) as the plans in
 * `kubernetes-service.ts` say, once at start and then every 10 s of the injected clock
 * (upstream's `--endpoint-reconciler` interval), so a deleted or edited object is back within
 * one interval. Reads the stored objects, writes through the object store (validation,
 * admission and the Service allocator apply as to any client's write), and writes nothing
 * when nothing differs.
 *
 * The first pass after a start also corrects the Service's and the endpoints' ports (the
 * secure port may have changed); later passes only fill what is missing, as upstream.
 *
 * @module
 */
import { StatusError } from '../../api/errors.js';
import type { KubeObject } from '../../api/object.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { Clock } from '../../util/clock.js';
import type { ResourceRegistry } from '../registry.js';
import { listPrefix, objectKey } from '../store/keys.js';
import { parseStoredObject } from '../store/object-json.js';
import type { ObjectStore } from '../store/object-store.js';
import {
  type KubernetesServiceConfig,
  KUBERNETES_SERVICE_NAME as NAME,
  KUBERNETES_SERVICE_NAMESPACE as NAMESPACE,
  type ObjectWrite,
  planEndpointSlices,
  planEndpoints,
  planService,
  SERVICE_NAME_LABEL,
} from './kubernetes-service.js';

/** Upstream `DefaultEndpointReconcilerInterval`. */
export const RECONCILE_INTERVAL_MS = 10_000;

export interface KubernetesServiceReconcilerOptions {
  readonly store: ObjectStore;
  readonly registry: ResourceRegistry;
  readonly clock: Clock;
  readonly onError?: (message: string, error: unknown) => void;
}

interface Definitions {
  readonly services: ResourceDefinition;
  readonly endpoints: ResourceDefinition;
  readonly slices: ResourceDefinition;
}

export class KubernetesServiceReconciler {
  readonly #o: KubernetesServiceReconcilerOptions;
  #cancel: (() => void) | undefined;
  #stopped = false;

  constructor(options: KubernetesServiceReconcilerOptions) {
    this.#o = options;
  }

  /** Runs the first pass (ports reconciled), then one every {@link RECONCILE_INTERVAL_MS}. */
  async start(config: KubernetesServiceConfig): Promise<void> {
    const defs = this.#definitions();
    if (defs === undefined) return;
    await this.#pass(defs, config, true);
    this.#schedule(defs, config);
  }

  stop(): void {
    this.#stopped = true;
    this.#cancel?.();
  }

  #schedule(defs: Definitions, config: KubernetesServiceConfig): void {
    if (this.#stopped) return;
    this.#cancel = this.#o.clock.setTimer(RECONCILE_INTERVAL_MS, () => {
      void this.#pass(defs, config, false).finally(() => this.#schedule(defs, config));
    });
  }

  /** One pass; a failure is reported and the next pass tries again. */
  async #pass(defs: Definitions, config: KubernetesServiceConfig, reconcile: boolean) {
    try {
      await this.#sync(defs, config, reconcile);
    } catch (e) {
      if (!this.#stopped) this.#o.onError?.('unable to sync kubernetes service', e);
    }
  }

  /** Upstream `UpdateKubernetesService`: the Service first, then its endpoints. */
  async #sync(defs: Definitions, config: KubernetesServiceConfig, reconcile: boolean) {
    await this.#apply(defs.services, (current) => planService(current, config, reconcile));
    await this.#apply(defs.endpoints, (current) => planEndpoints(current, config, reconcile));
    const slices = planEndpointSlices(this.#slices(defs.slices), config, reconcile);
    for (const name of slices.delete) await this.#delete(defs.slices, name);
    if (slices.write === undefined) return;
    await this.#apply(
      defs.slices,
      (current) => planEndpointSlices(current ? [current] : [], config, reconcile).write,
    );
  }

  #definitions(): Definitions | undefined {
    const { registry } = this.#o;
    const services = registry.get('', 'v1', 'services');
    const endpoints = registry.get('', 'v1', 'endpoints');
    const slices = registry.get('discovery.k8s.io', 'v1', 'endpointslices');
    if (!services || !endpoints || !slices) return undefined;
    return { services, endpoints, slices };
  }

  #get(def: ResourceDefinition): KubeObject | undefined {
    const kv = this.#o.store.backend.getLatest(objectKey(def, NAMESPACE, NAME));
    return kv === undefined ? undefined : parseStoredObject(kv.value);
  }

  /** The slices of `default` labelled for the Service, or carrying its name. */
  #slices(def: ResourceDefinition): KubeObject[] {
    return this.#o.store.backend
      .list(listPrefix(def, NAMESPACE))
      .items.map((kv) => parseStoredObject(kv.value))
      .filter(
        (s) => s.metadata?.name === NAME || s.metadata?.labels?.[SERVICE_NAME_LABEL] === NAME,
      );
  }

  /**
   * Plans from the stored object and writes: a create, or an update that plans again from
   * whatever object the store hands it (it retries a conflicting write with a fresher one).
   * An object that appeared or went in the meantime is left to the next pass.
   */
  async #apply(
    def: ResourceDefinition,
    plan: (current: KubeObject | undefined) => ObjectWrite | undefined,
  ): Promise<void> {
    const write = plan(this.#get(def));
    if (write === undefined) return;
    const { store } = this.#o;
    try {
      if (write.action === 'create') {
        await store.create(def, NAMESPACE, write.object);
      } else {
        await store.update(def, NAMESPACE, NAME, (current) => {
          const again = plan(current);
          return again?.action === 'update' ? again.object : current;
        });
      }
    } catch (e) {
      // 404: deleted meanwhile; 409: created meanwhile, or written on and on by others.
      if (!isStatus(e, 404) && !isStatus(e, 409)) throw e;
    }
  }

  async #delete(def: ResourceDefinition, name: string): Promise<void> {
    try {
      await this.#o.store.delete(def, NAMESPACE, name, {});
    } catch (e) {
      if (!isStatus(e, 404)) throw e;
    }
  }
}

function isStatus(e: unknown, code: number): boolean {
  return e instanceof StatusError && e.code === code;
}
