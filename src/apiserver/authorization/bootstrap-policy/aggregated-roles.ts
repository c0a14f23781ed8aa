/**
 * The aggregated ClusterRoles of kube-apiserver 1.33's bootstrap policy (upstream
 * `bootstrappolicy/policy.go`): `admin`, `edit` and `view` with their aggregation rules and no
 * rules of their own (the aggregation controller fills them), and the
 * `system:aggregate-to-*` roles whose labels feed them (`view` feeds `edit`, `edit` feeds
 * `admin`).
 *
 * @module
 */
import type { ClusterRole } from '../../../api/model/index.js';
import { clusterRole, READ, READ_WRITE, rule, WRITE } from './rule-builder.js';

export const AGGREGATE_TO_ADMIN = 'rbac.authorization.k8s.io/aggregate-to-admin';
export const AGGREGATE_TO_EDIT = 'rbac.authorization.k8s.io/aggregate-to-edit';
export const AGGREGATE_TO_VIEW = 'rbac.authorization.k8s.io/aggregate-to-view';

const CORE = '';
const APPS = 'apps';
const AUTHZ = 'authorization.k8s.io';
const AUTOSCALING = 'autoscaling';
const BATCH = 'batch';
const COORDINATION = 'coordination.k8s.io';
const DISCOVERY = 'discovery.k8s.io';
const EXTENSIONS = 'extensions';
const NETWORKING = 'networking.k8s.io';
const POLICY = 'policy';
const RBAC = 'rbac.authorization.k8s.io';

/** In upstream's order (the caller sorts by name). */
export function aggregatedClusterRoles(): ClusterRole[] {
  return [
    clusterRole({ name: 'admin', aggregateFrom: [{ [AGGREGATE_TO_ADMIN]: 'true' }] }),
    clusterRole({
      name: 'edit',
      labels: { [AGGREGATE_TO_ADMIN]: 'true' },
      aggregateFrom: [{ [AGGREGATE_TO_EDIT]: 'true' }],
    }),
    clusterRole({
      name: 'view',
      labels: { [AGGREGATE_TO_EDIT]: 'true' },
      aggregateFrom: [{ [AGGREGATE_TO_VIEW]: 'true' }],
    }),
    clusterRole({
      name: 'system:aggregate-to-admin',
      labels: { [AGGREGATE_TO_ADMIN]: 'true' },
      rules: [
        rule(['create'], [AUTHZ], ['localsubjectaccessreviews']),
        rule(READ_WRITE, [RBAC], ['roles', 'rolebindings']),
      ],
    }),
    clusterRole({
      name: 'system:aggregate-to-edit',
      labels: { [AGGREGATE_TO_EDIT]: 'true' },
      rules: [
        rule(
          READ,
          [CORE],
          [
            'pods/attach',
            'pods/proxy',
            'pods/exec',
            'pods/portforward',
            'secrets',
            'services/proxy',
          ],
        ),
        rule(['impersonate'], [CORE], ['serviceaccounts']),
        rule(WRITE, [CORE], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
        rule(['create'], [CORE], ['pods/eviction']),
        rule(
          WRITE,
          [CORE],
          [
            'replicationcontrollers',
            'replicationcontrollers/scale',
            'serviceaccounts',
            'services',
            'services/proxy',
            'persistentvolumeclaims',
            'configmaps',
            'secrets',
            'events',
          ],
        ),
        rule(['create'], [CORE], ['serviceaccounts/token']),
        rule(
          WRITE,
          [APPS],
          [
            'statefulsets',
            'statefulsets/scale',
            'daemonsets',
            'deployments',
            'deployments/scale',
            'deployments/rollback',
            'replicasets',
            'replicasets/scale',
          ],
        ),
        rule(WRITE, [AUTOSCALING], ['horizontalpodautoscalers']),
        rule(WRITE, [BATCH], ['jobs', 'cronjobs']),
        rule(
          WRITE,
          [EXTENSIONS],
          [
            'daemonsets',
            'deployments',
            'deployments/scale',
            'deployments/rollback',
            'ingresses',
            'replicasets',
            'replicasets/scale',
            'replicationcontrollers/scale',
            'networkpolicies',
          ],
        ),
        rule(WRITE, [POLICY], ['poddisruptionbudgets']),
        rule(WRITE, [NETWORKING], ['networkpolicies', 'ingresses']),
        rule(READ_WRITE, [COORDINATION], ['leases']),
      ],
    }),
    clusterRole({
      name: 'system:aggregate-to-view',
      labels: { [AGGREGATE_TO_VIEW]: 'true' },
      rules: [
        rule(
          READ,
          [CORE],
          [
            'pods',
            'replicationcontrollers',
            'replicationcontrollers/scale',
            'serviceaccounts',
            'services',
            'services/status',
            'endpoints',
            'persistentvolumeclaims',
            'persistentvolumeclaims/status',
            'configmaps',
          ],
        ),
        rule(
          READ,
          [CORE],
          [
            'limitranges',
            'resourcequotas',
            'bindings',
            'events',
            'pods/status',
            'resourcequotas/status',
            'namespaces/status',
            'replicationcontrollers/status',
            'pods/log',
          ],
        ),
        rule(READ, [CORE], ['namespaces']),
        rule(READ, [DISCOVERY], ['endpointslices']),
        rule(
          READ,
          [APPS],
          [
            'controllerrevisions',
            'statefulsets',
            'statefulsets/status',
            'statefulsets/scale',
            'daemonsets',
            'daemonsets/status',
            'deployments',
            'deployments/status',
            'deployments/scale',
            'replicasets',
            'replicasets/status',
            'replicasets/scale',
          ],
        ),
        rule(READ, [AUTOSCALING], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
        rule(READ, [BATCH], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
        rule(
          READ,
          [EXTENSIONS],
          [
            'daemonsets',
            'daemonsets/status',
            'deployments',
            'deployments/scale',
            'deployments/status',
            'ingresses',
            'ingresses/status',
            'replicasets',
            'replicasets/scale',
            'replicasets/status',
            'replicationcontrollers/scale',
            'networkpolicies',
          ],
        ),
        rule(READ, [POLICY], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
        rule(READ, [NETWORKING], ['ingresses', 'ingresses/status', 'networkpolicies']),
      ],
    }),
  ];
}
