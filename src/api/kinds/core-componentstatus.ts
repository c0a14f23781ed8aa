/**
 * core/v1 ComponentStatuses (`cs`), upstream's deprecated (v1.19+) health view of the control
 * plane. Upstream never stores them: GET and LIST answer objects computed from probes of the
 * scheduler, the controller manager and each etcd server, and every write is 405
 * MethodNotSupported. fleetyard runs all three in its one process (its store stands in for
 * etcd), so each is healthy whenever the API server answers: `Healthy` True, message `ok`, as
 * upstream reports a probe that got `ok` from `/healthz`.
 *
 * The definition is registered so discovery, `kubectl api-resources` and routing know the
 * resource; the router answers its reads from {@link componentStatuses} and refuses writes
 * (see `COMPONENT_STATUS_VERBS`). Its strategy refuses every stored write as a second guard.
 *
 * @module
 */
import { fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';

/** The verbs upstream serves (`kubectl api-resources -o wide`). */
export const COMPONENT_STATUS_VERBS: readonly string[] = ['get', 'list'];

/** The warning upstream sends with every request for the resource. */
export const COMPONENT_STATUS_WARNING = 'v1 ComponentStatus is deprecated in v1.19+';

/** Upstream's servers to validate: the scheduler, the controller manager, one entry per etcd server. */
const COMPONENTS = ['controller-manager', 'etcd-0', 'scheduler'] as const;

/** One computed ComponentStatus, as upstream's REST `Get` returns it. */
function componentStatus(name: string): KubeObject {
  return {
    kind: 'ComponentStatus',
    apiVersion: 'v1',
    metadata: { name, creationTimestamp: null },
    conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }],
  };
}

/** Every ComponentStatus, sorted by name (upstream sorts the probe results by name too). */
export function componentStatuses(): KubeObject[] {
  return COMPONENTS.map(componentStatus);
}

/** The ComponentStatus named `name`, or undefined (upstream: 404 NotFound). */
export function componentStatusNamed(name: string): KubeObject | undefined {
  return (COMPONENTS as readonly string[]).includes(name) ? componentStatus(name) : undefined;
}

/** The list upstream answers for `GET /api/v1/componentstatuses`. */
export function componentStatusList(): KubeObject {
  return {
    kind: 'ComponentStatusList',
    apiVersion: 'v1',
    metadata: {},
    items: componentStatuses(),
  };
}

/** core/v1 `componentstatuses` (`cs`, cluster-scoped, read-only and computed). */
export const componentStatusResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'ComponentStatus',
  listKind: 'ComponentStatusList',
  plural: 'componentstatuses',
  singular: 'componentstatus',
  namespaced: false,
  shortNames: ['cs'],
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: false,
  strategy: {
    validate() {
      return [
        fieldErrors.forbidden(path('metadata'), 'componentstatuses are computed, not stored'),
      ];
    },
  },
};
