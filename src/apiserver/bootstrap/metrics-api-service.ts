/**
 * The `v1beta1.metrics.k8s.io` APIService: on a real cluster metrics-server's install
 * manifest registers it, pointing at its Service; here the API server serves the Metrics API
 * itself (`handlers/metrics-api.ts`), so the APIService is a local one (no `service`), with
 * metrics-server's priorities (group 100, version 100), and reports `Available` True with
 * reason `Local`, as kube-aggregator reports every local APIService. Created once at start
 * when the registry serves APIServices and it does not exist; an APIService a user wrote
 * since (metrics-server's own manifest) is left as it is.
 *
 * @module
 */
import { isStatusError } from '../../api/errors.js';
import { getObj } from '../../api/kinds/json.js';
import type { KubeObject } from '../../api/object.js';
import { formatTime } from '../../api/time.js';
import type { Clock } from '../../util/clock.js';
import type { ResourceRegistry } from '../registry.js';
import { objectKey } from '../store/keys.js';
import type { ObjectStore } from '../store/object-store.js';
import { LOCAL_AVAILABLE_MESSAGE } from './local-api-services.js';

export const METRICS_API_SERVICE = 'v1beta1.metrics.k8s.io';

export function metricsAPIService(): KubeObject {
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name: METRICS_API_SERVICE },
    spec: {
      group: 'metrics.k8s.io',
      version: 'v1beta1',
      groupPriorityMinimum: 100,
      versionPriority: 100,
    },
  };
}

/** Creates the APIService (Available) unless it exists or APIServices are not served. */
export async function ensureMetricsAPIService(
  store: ObjectStore,
  registry: ResourceRegistry,
  clock: Clock,
): Promise<void> {
  const def = registry.get('apiregistration.k8s.io', 'v1', 'apiservices');
  if (def === undefined || store.backend.get(objectKey(def, '', METRICS_API_SERVICE)) !== undefined)
    return;
  try {
    await store.create(def, '', metricsAPIService());
  } catch (e) {
    // Another writer (a user's manifest) got there first: theirs stands.
    if (isStatusError(e) && e.code === 409) return;
    throw e;
  }
  const now = formatTime(clock.now());
  await store.update(
    def,
    '',
    METRICS_API_SERVICE,
    (current) => {
      if (getObj(current, 'spec')?.service !== undefined) return current;
      const available = {
        type: 'Available',
        status: 'True',
        lastTransitionTime: now,
        reason: 'Local',
        message: LOCAL_AVAILABLE_MESSAGE,
      };
      return { ...current, status: { conditions: [available] } };
    },
    { subresource: 'status' },
  );
}
