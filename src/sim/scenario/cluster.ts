/**
 * The cluster a scenario runs on, as the runner uses it: a client, the virtual clock, the
 * chaos verbs and list+watch of any collection. {@link scenarioCluster} adapts the test API's
 * {@link TestCluster} (`startCluster`); tests can adapt an in-process API server the same way.
 *
 * @module
 */
import type { ApiClient } from '../../client/api-client.js';
import { HttpListerWatcher } from '../../client/http-lister-watcher.js';
import { loadKubeconfigConnection } from '../../client/kubeconfig-connection.js';
import type { ListerWatcher } from '../../client/lister-watcher.js';
import type { ClusterChaos, ClusterClockHandle, ClusterOptions, TestCluster } from '../cluster.js';
import type { ClusterSpec } from './types.js';

export type ScenarioClient = Pick<
  ApiClient,
  'get' | 'list' | 'create' | 'patch' | 'delete' | 'createSubresource' | 'getPath'
>;

export interface ScenarioCluster {
  readonly client: ScenarioClient;
  readonly clock: Pick<ClusterClockHandle, 'now' | 'advance'>;
  readonly chaos: ClusterChaos;
  /** List and watch of one collection path, e.g. `/api/v1/pods`. */
  listerWatcher(path: string): ListerWatcher;
  stop(): Promise<void>;
}

/** `startCluster` or a stand-in. */
export type StartCluster = (options: ClusterOptions) => Promise<TestCluster>;

/** The scenario's cluster section as `startCluster` options: virtual clock, paused. */
export function clusterOptions(
  spec: ClusterSpec,
  logLevel: ClusterOptions['logLevel'],
): ClusterOptions {
  return {
    clock: 'virtual',
    // Paused: time moves only when a step moves it, so every run of a file is the same run.
    speed: 0,
    ...(spec.nodes !== undefined ? { nodes: spec.nodes } : {}),
    ...(spec.zones !== undefined ? { zones: spec.zones } : {}),
    ...(spec.seed !== undefined ? { seed: spec.seed } : {}),
    ...(spec.start !== undefined ? { start: spec.start } : {}),
    ...(spec.flags !== undefined ? { flags: spec.flags } : {}),
    ...(spec.controllers !== undefined ? { controllers: spec.controllers } : {}),
    ...(logLevel !== undefined ? { logLevel } : {}),
  };
}

/** Adapts a started {@link TestCluster}; watches connect as its kubeconfig says. */
export async function scenarioCluster(cluster: TestCluster): Promise<ScenarioCluster> {
  const { namespace: _ns, ...connection } = await loadKubeconfigConnection(cluster.kubeconfigPath);
  return {
    client: cluster.client,
    clock: cluster.clock,
    chaos: cluster.chaos,
    listerWatcher: (path) => new HttpListerWatcher({ ...connection, path }),
    stop: () => cluster.stop(),
  };
}
