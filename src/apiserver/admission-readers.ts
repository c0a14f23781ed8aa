/**
 * What admission policies and webhooks read of the cluster, synchronously, from the store's
 * backend: their configurations, params, namespaces, and for a Service-backed webhook its
 * Service and EndpointSlices. A prefix with nothing in it costs one index probe, so a cluster
 * with no policies or webhooks pays next to nothing per write.
 *
 * @module
 */
import { asKind } from '../api/model/index.js';
import type { KubeObject } from '../api/object.js';
import { apiVersionOf, type ResourceDefinition } from '../api/resource.js';
import type { Backend } from '../storage/backend.js';
import type { PolicyStoreReader } from './admission/policy/admission.js';
import type { WebhookLookup } from './admission/webhook/index.js';
import type { ResourceRegistry } from './registry.js';
import { listPrefix, objectKey } from './store/keys.js';
import { decodeObjectJson } from './store/object-json.js';

/** The definition serving `group`/`resource` from its own storage (the preferred one). */
function definitionOf(
  registry: ResourceRegistry,
  group: string,
  resource: string,
): ResourceDefinition | undefined {
  const all = registry.all().filter((d) => d.group === group && d.plural === resource);
  return all.find((d) => d.storage === undefined) ?? all[0];
}

function listOf(
  registry: ResourceRegistry,
  backend: Backend,
  group: string,
  resource: string,
  namespace?: string,
): KubeObject[] {
  const def = definitionOf(registry, group, resource);
  if (def === undefined) return [];
  const prefix = listPrefix(def, def.namespaced ? (namespace ?? '') : '');
  return backend.list(prefix).items.map((kv) => decodeObjectJson(def, kv.value));
}

function getOf(
  registry: ResourceRegistry,
  backend: Backend,
  group: string,
  resource: string,
  namespace: string | undefined,
  name: string,
): KubeObject | undefined {
  const def = definitionOf(registry, group, resource);
  if (def === undefined) return undefined;
  const kv = backend.get(objectKey(def, def.namespaced ? (namespace ?? '') : '', name));
  return kv === undefined ? undefined : decodeObjectJson(def, kv.value);
}

export function policyStoreReader(registry: ResourceRegistry, backend: Backend): PolicyStoreReader {
  return {
    list: (group, resource, namespace) => listOf(registry, backend, group, resource, namespace),
    get: (group, resource, namespace, name) =>
      getOf(registry, backend, group, resource, namespace, name),
    resourceFor(apiVersion, kind) {
      const def = registry.all().find((d) => apiVersionOf(d) === apiVersion && d.kind === kind);
      return def === undefined
        ? undefined
        : { group: def.group, resource: def.plural, namespaced: def.namespaced };
    },
  };
}

const ADMISSION = 'admissionregistration.k8s.io';

export function webhookLookup(registry: ResourceRegistry, backend: Backend): WebhookLookup {
  const list = (group: string, resource: string, namespace?: string) =>
    listOf(registry, backend, group, resource, namespace);
  const get = (group: string, resource: string, namespace: string, name: string) =>
    getOf(registry, backend, group, resource, namespace, name);
  return {
    mutatingWebhookConfigurations: () =>
      list(ADMISSION, 'mutatingwebhookconfigurations').map((o) =>
        asKind(o, 'MutatingWebhookConfiguration'),
      ),
    validatingWebhookConfigurations: () =>
      list(ADMISSION, 'validatingwebhookconfigurations').map((o) =>
        asKind(o, 'ValidatingWebhookConfiguration'),
      ),
    namespace(name) {
      const o = get('', 'namespaces', '', name);
      return o === undefined ? undefined : asKind(o, 'Namespace');
    },
    service(namespace, name) {
      const o = get('', 'services', namespace, name);
      return o === undefined ? undefined : asKind(o, 'Service');
    },
    endpointSlices: (namespace, service) =>
      list('discovery.k8s.io', 'endpointslices', namespace)
        .map((o) => asKind(o, 'EndpointSlice'))
        .filter((s) => s.metadata?.labels?.['kubernetes.io/service-name'] === service),
    endpoints(namespace, name) {
      const o = get('', 'endpoints', namespace, name);
      return o === undefined ? undefined : asKind(o, 'Endpoints');
    },
    resources: () => registry.all(),
  };
}
