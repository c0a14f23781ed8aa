/**
 * kube-apiserver's post-start hooks, as one unit the server starts once it listens and stops
 * first: the metrics-server APIService (when the kubelet endpoints are served), the system
 * PriorityClasses, the cluster objects (local APIServices, API Priority and Fairness objects,
 * the default ServiceCIDR and its IPAddresses) and the `kubernetes` Service with its
 * endpoints. Each keeps its objects on the clock (every 10 s, as upstream) until stopped.
 *
 * @module
 */
import type { Clock } from '../../util/clock.js';
import type { ResourceRegistry } from '../registry.js';
import type { ObjectStore } from '../store/object-store.js';
import { ClusterObjectsReconciler } from './cluster-objects.js';
import type { KubernetesServiceConfig } from './kubernetes-service.js';
import { ensureMetricsAPIService } from './metrics-api-service.js';
import { KubernetesServiceReconciler } from './reconciler.js';
import { SystemPriorityClassReconciler } from './system-priority-classes.js';

export interface PostStartOptions {
  readonly store: ObjectStore;
  readonly registry: ResourceRegistry;
  readonly clock: Clock;
  /** The Metrics API is served (`fleetyard up`'s simulated kubelets): register its APIService. */
  readonly metricsApi: boolean;
  readonly onError?: (message: string, error: unknown) => void;
}

export class PostStartHooks {
  readonly #o: PostStartOptions;
  readonly #priorityClasses: SystemPriorityClassReconciler;
  readonly #clusterObjects: ClusterObjectsReconciler;
  readonly #kubernetesService: KubernetesServiceReconciler;

  constructor(options: PostStartOptions) {
    this.#o = options;
    const shared = {
      store: options.store,
      registry: options.registry,
      clock: options.clock,
      ...(options.onError ? { onError: options.onError } : {}),
    };
    this.#priorityClasses = new SystemPriorityClassReconciler(shared);
    this.#clusterObjects = new ClusterObjectsReconciler(shared);
    this.#kubernetesService = new KubernetesServiceReconciler(shared);
  }

  /**
   * Runs every hook's first pass (done on return); the `kubernetes` Service only with
   * `kubernetes` (the server's address is known only once it listens).
   */
  async start(kubernetes: KubernetesServiceConfig | undefined): Promise<void> {
    const { store, registry, clock } = this.#o;
    if (this.#o.metricsApi) await ensureMetricsAPIService(store, registry, clock);
    await this.#priorityClasses.start();
    await this.#clusterObjects.start();
    if (kubernetes !== undefined) await this.#kubernetesService.start(kubernetes);
  }

  stop(): void {
    this.#kubernetesService.stop();
    this.#clusterObjects.stop();
    this.#priorityClasses.stop();
  }
}
