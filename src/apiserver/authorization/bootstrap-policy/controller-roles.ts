/**
 * kube-controller-manager's per-controller ClusterRoles (`system:controller:<name>`) and
 * their bindings to the ServiceAccount `kube-system/<name>`, as kube-apiserver 1.33 creates
 * them (upstream `bootstrappolicy/controller_policy.go`, `buildControllerRoles`), with 1.33's
 * default feature gates: MultiCIDRServiceAllocator (GA) and SELinuxChangePolicy (beta, on)
 * add their roles; DynamicResourceAllocation, DRADeviceTaints, VolumeAttributesClass,
 * ClusterTrustBundle, StorageVersionAPI and StorageVersionMigrator are off, so
 * `resource-claim-controller`, `device-taint-eviction-controller`,
 * `volumeattributesclass-protection-controller`,
 * `kube-apiserver-serving-clustertrustbundle-publisher`, `storage-version-garbage-collector`
 * and `storage-version-migrator-controller` are absent, as in upstream's golden file.
 *
 * @module
 */
import type { ClusterRole, ClusterRoleBinding, PolicyRule } from '../../../api/model/index.js';
import {
  byNamespaceAndName,
  clusterRole,
  clusterRoleBinding,
  eventsRule,
  rule,
  serviceAccount,
} from './rule-builder.js';

/** Upstream `saRolePrefix`. */
export const CONTROLLER_ROLE_PREFIX = 'system:controller:';

const CORE = '';
const ADMISSION = 'admissionregistration.k8s.io';
const APPS = 'apps';
const AUTHZ = 'authorization.k8s.io';
const AUTOSCALING = 'autoscaling';
const BATCH = 'batch';
const CERTIFICATES = 'certificates.k8s.io';
const DISCOVERY = 'discovery.k8s.io';
const EXTENSIONS = 'extensions';
const NETWORKING = 'networking.k8s.io';
const POLICY = 'policy';
const RBAC = 'rbac.authorization.k8s.io';
const STORAGE = 'storage.k8s.io';
const RW_LIST = ['get', 'list', 'watch'];

/** Controller name (its ServiceAccount in kube-system) → rules, in upstream's order. */
const CONTROLLER_RULES: Readonly<Record<string, readonly PolicyRule[]>> = {
  'attachdetach-controller': [
    rule(['list', 'watch'], [CORE], ['persistentvolumes', 'persistentvolumeclaims']),
    rule(RW_LIST, [CORE], ['nodes']),
    rule(['patch', 'update'], [CORE], ['nodes/status']),
    rule(['list', 'watch'], [CORE], ['pods']),
    eventsRule(),
    rule(['get', 'create', 'delete', 'list', 'watch'], [STORAGE], ['volumeattachments']),
    rule(['get', 'watch', 'list'], [STORAGE], ['csidrivers']),
    rule(['get', 'watch', 'list'], [STORAGE], ['csinodes']),
  ],
  'clusterrole-aggregation-controller': [
    // Full power over clusterroles, so it can write any aggregated rule (escalate).
    rule(['escalate', 'get', 'list', 'watch', 'update', 'patch'], [RBAC], ['clusterroles']),
  ],
  'cronjob-controller': [
    rule(['get', 'list', 'watch', 'update'], [BATCH], ['cronjobs']),
    rule(['get', 'list', 'watch', 'create', 'update', 'delete', 'patch'], [BATCH], ['jobs']),
    rule(['update'], [BATCH], ['cronjobs/status']),
    rule(['update'], [BATCH], ['cronjobs/finalizers']),
    rule(['list', 'watch', 'delete'], [CORE], ['pods']),
    eventsRule(),
  ],
  'daemon-set-controller': [
    rule(RW_LIST, [EXTENSIONS, APPS], ['daemonsets']),
    rule(['update'], [EXTENSIONS, APPS], ['daemonsets/status']),
    rule(['update'], [EXTENSIONS, APPS], ['daemonsets/finalizers']),
    rule(['list', 'watch'], [CORE], ['nodes']),
    rule(['list', 'watch', 'create', 'delete', 'patch'], [CORE], ['pods']),
    rule(['create'], [CORE], ['pods/binding']),
    rule(
      ['get', 'list', 'watch', 'create', 'delete', 'update', 'patch'],
      [APPS],
      ['controllerrevisions'],
    ),
    eventsRule(),
  ],
  'deployment-controller': [
    rule(['get', 'list', 'watch', 'update'], [EXTENSIONS, APPS], ['deployments']),
    rule(['update'], [EXTENSIONS, APPS], ['deployments/status']),
    rule(['update'], [EXTENSIONS, APPS], ['deployments/finalizers']),
    rule(
      ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
      [APPS, EXTENSIONS],
      ['replicasets'],
    ),
    rule(['get', 'list', 'watch', 'update'], [CORE], ['pods']),
    eventsRule(),
  ],
  'disruption-controller': [
    rule(RW_LIST, [EXTENSIONS, APPS], ['deployments']),
    rule(RW_LIST, [APPS, EXTENSIONS], ['replicasets']),
    rule(RW_LIST, [CORE], ['replicationcontrollers']),
    rule(RW_LIST, [POLICY], ['poddisruptionbudgets']),
    rule(RW_LIST, [APPS], ['statefulsets']),
    rule(['update'], [POLICY], ['poddisruptionbudgets/status']),
    rule(['patch', 'update'], [CORE], ['pods/status']),
    rule(['get'], ['*'], ['*/scale']),
    eventsRule(),
  ],
  'endpoint-controller': [
    rule(RW_LIST, [CORE], ['services', 'pods']),
    rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [CORE], ['endpoints']),
    rule(['create'], [CORE], ['endpoints/restricted']),
    eventsRule(),
  ],
  'endpointslice-controller': [
    rule(RW_LIST, [CORE], ['services', 'pods', 'nodes']),
    rule(['update'], [CORE], ['services/finalizers']),
    rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [DISCOVERY], ['endpointslices']),
    eventsRule(),
  ],
  'endpointslicemirroring-controller': [
    rule(RW_LIST, [CORE], ['services', 'endpoints']),
    rule(['update'], [CORE], ['services/finalizers']),
    rule(['update'], [CORE], ['endpoints/finalizers']),
    rule(['get', 'list', 'watch', 'create', 'update', 'delete'], [DISCOVERY], ['endpointslices']),
    eventsRule(),
  ],
  'expand-controller': [
    rule(['get', 'list', 'watch', 'update', 'patch'], [CORE], ['persistentvolumes']),
    rule(['update', 'patch'], [CORE], ['persistentvolumeclaims/status']),
    rule(RW_LIST, [CORE], ['persistentvolumeclaims']),
    eventsRule(),
    rule(['get'], [CORE], ['services']),
  ],
  'ephemeral-volume-controller': [
    rule(RW_LIST, [CORE], ['pods']),
    rule(['update'], [CORE], ['pods/finalizers']),
    rule(['get', 'list', 'watch', 'create'], [CORE], ['persistentvolumeclaims']),
    eventsRule(),
  ],
  'generic-garbage-collector': [
    rule(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'], ['*']),
    eventsRule(),
  ],
  'horizontal-pod-autoscaler': [
    rule(RW_LIST, [AUTOSCALING], ['horizontalpodautoscalers']),
    rule(['update'], [AUTOSCALING], ['horizontalpodautoscalers/status']),
    rule(['get', 'update'], ['*'], ['*/scale']),
    rule(['list', 'watch'], [CORE], ['pods']),
    rule(['list', 'watch'], ['metrics.k8s.io'], ['pods']),
    rule(RW_LIST, ['custom.metrics.k8s.io'], ['*']),
    rule(RW_LIST, ['external.metrics.k8s.io'], ['*']),
    eventsRule(),
  ],
  'job-controller': [
    rule(['get', 'list', 'watch', 'update', 'patch'], [BATCH], ['jobs']),
    rule(['update'], [BATCH], ['jobs/status']),
    rule(['update'], [BATCH], ['jobs/finalizers']),
    rule(['list', 'watch', 'create', 'delete', 'patch'], [CORE], ['pods']),
    eventsRule(),
  ],
  'namespace-controller': [
    rule(['get', 'list', 'watch', 'delete'], [CORE], ['namespaces']),
    rule(['update'], [CORE], ['namespaces/finalize', 'namespaces/status']),
    rule(['get', 'list', 'watch', 'delete', 'deletecollection'], ['*'], ['*']),
  ],
  'node-controller': [
    rule(['get', 'list', 'watch', 'update', 'delete', 'patch'], [CORE], ['nodes']),
    rule(['patch', 'update'], [CORE], ['nodes/status']),
    rule(['patch', 'update'], [CORE], ['pods/status']),
    rule(['list', 'watch', 'get', 'delete'], [CORE], ['pods']),
    eventsRule(),
  ],
  'persistent-volume-binder': [
    rule(['get', 'list', 'watch', 'update', 'create', 'delete'], [CORE], ['persistentvolumes']),
    rule(['update'], [CORE], ['persistentvolumes/status']),
    rule(['get', 'list', 'watch', 'update'], [CORE], ['persistentvolumeclaims']),
    rule(['update'], [CORE], ['persistentvolumeclaims/status']),
    rule(['list', 'watch', 'get', 'create', 'delete'], [CORE], ['pods']),
    rule(RW_LIST, [STORAGE], ['storageclasses']),
    rule(['list', 'watch'], [CORE], ['nodes']),
    eventsRule(),
    rule(['watch'], [CORE], ['events']),
    rule(['get'], [CORE], ['services']),
  ],
  'pod-garbage-collector': [
    rule(['list', 'watch', 'delete'], [CORE], ['pods']),
    rule(RW_LIST, [CORE], ['nodes']),
    rule(['patch'], [CORE], ['pods/status']),
  ],
  'replicaset-controller': [
    rule(['get', 'list', 'watch', 'update'], [APPS, EXTENSIONS], ['replicasets']),
    rule(['update'], [APPS, EXTENSIONS], ['replicasets/status']),
    rule(['update'], [APPS, EXTENSIONS], ['replicasets/finalizers']),
    rule(['list', 'watch', 'patch', 'create', 'delete'], [CORE], ['pods']),
    eventsRule(),
  ],
  'replication-controller': [
    rule(['get', 'list', 'watch', 'update'], [CORE], ['replicationcontrollers']),
    rule(['update'], [CORE], ['replicationcontrollers/status']),
    rule(['update'], [CORE], ['replicationcontrollers/finalizers']),
    rule(['list', 'watch', 'patch', 'create', 'delete'], [CORE], ['pods']),
    eventsRule(),
  ],
  'resourcequota-controller': [
    rule(['list', 'watch'], ['*'], ['*']),
    rule(['update'], [CORE], ['resourcequotas/status']),
    eventsRule(),
  ],
  'route-controller': [
    rule(['list', 'watch'], [CORE], ['nodes']),
    rule(['patch'], [CORE], ['nodes/status']),
    eventsRule(),
  ],
  'service-account-controller': [rule(['create'], [CORE], ['serviceaccounts']), eventsRule()],
  'service-controller': [
    rule(RW_LIST, [CORE], ['services']),
    rule(['patch', 'update'], [CORE], ['services/status']),
    rule(['list', 'watch'], [CORE], ['nodes']),
    eventsRule(),
  ],
  // MultiCIDRServiceAllocator: GA (on) in 1.33.
  'service-cidrs-controller': [
    rule(['get', 'list', 'watch', 'patch', 'update'], [NETWORKING], ['servicecidrs']),
    rule(['patch', 'update'], [NETWORKING], ['servicecidrs/finalizers']),
    rule(['patch', 'update'], [NETWORKING], ['servicecidrs/status']),
    rule(RW_LIST, [NETWORKING], ['ipaddresses']),
    eventsRule(),
  ],
  'statefulset-controller': [
    rule(['list', 'watch'], [CORE], ['pods']),
    rule(RW_LIST, [APPS], ['statefulsets']),
    rule(['update'], [APPS], ['statefulsets/status']),
    rule(['update'], [APPS], ['statefulsets/finalizers']),
    rule(['get', 'create', 'delete', 'update', 'patch'], [CORE], ['pods']),
    rule(
      ['get', 'create', 'delete', 'update', 'patch', 'list', 'watch'],
      [APPS],
      ['controllerrevisions'],
    ),
    rule(['get', 'create', 'list', 'watch'], [CORE], ['persistentvolumeclaims']),
    rule(['update', 'delete'], [CORE], ['persistentvolumeclaims']),
    rule(['update'], [CORE], ['pods/finalizers']),
    eventsRule(),
  ],
  'ttl-controller': [rule(['update', 'patch', 'list', 'watch'], [CORE], ['nodes']), eventsRule()],
  'certificate-controller': [
    rule(['get', 'list', 'watch', 'delete'], [CERTIFICATES], ['certificatesigningrequests']),
    rule(
      ['update'],
      [CERTIFICATES],
      ['certificatesigningrequests/status', 'certificatesigningrequests/approval'],
    ),
    rule(['approve'], [CERTIFICATES], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet']),
    rule(
      ['sign'],
      [CERTIFICATES],
      ['signers'],
      [
        'kubernetes.io/legacy-unknown',
        'kubernetes.io/kube-apiserver-client',
        'kubernetes.io/kube-apiserver-client-kubelet',
        'kubernetes.io/kubelet-serving',
      ],
    ),
    rule(['create'], [AUTHZ], ['subjectaccessreviews']),
    eventsRule(),
  ],
  'pvc-protection-controller': [
    rule(['get', 'list', 'watch', 'update'], [CORE], ['persistentvolumeclaims']),
    rule(['list', 'watch', 'get'], [CORE], ['pods']),
    eventsRule(),
  ],
  'pv-protection-controller': [
    rule(['get', 'list', 'watch', 'update'], [CORE], ['persistentvolumes']),
    eventsRule(),
  ],
  'ttl-after-finished-controller': [
    rule(['get', 'list', 'watch', 'delete'], [BATCH], ['jobs']),
    eventsRule(),
  ],
  'root-ca-cert-publisher': [rule(['create', 'update'], [CORE], ['configmaps']), eventsRule()],
  'validatingadmissionpolicy-status-controller': [
    rule(RW_LIST, [ADMISSION], ['validatingadmissionpolicies']),
    rule(['get', 'patch', 'update'], [ADMISSION], ['validatingadmissionpolicies/status']),
    eventsRule(),
  ],
  'legacy-service-account-token-cleaner': [
    rule(['get'], [CORE], ['configmaps'], ['kube-apiserver-legacy-service-account-token-tracking']),
    rule(['patch', 'delete'], [CORE], ['secrets']),
  ],
  // SELinuxChangePolicy: beta, on by default in 1.33.
  'selinux-warning-controller': [
    eventsRule(),
    rule(RW_LIST, [CORE], ['persistentvolumes']),
    rule(RW_LIST, [CORE], ['persistentvolumeclaims']),
    rule(RW_LIST, [CORE], ['pods']),
    rule(RW_LIST, [STORAGE], ['csidrivers']),
  ],
};

/** The names of the controllers upstream gives a role (their ServiceAccounts' names). */
export const UPSTREAM_CONTROLLER_NAMES: readonly string[] = Object.keys(CONTROLLER_RULES).sort();

/** Upstream `ControllerRoles()`, in golden-file order. */
export function bootstrapControllerRoles(): ClusterRole[] {
  return byNamespaceAndName(
    Object.entries(CONTROLLER_RULES).map(([name, rules]) =>
      clusterRole({ name: CONTROLLER_ROLE_PREFIX + name, rules }),
    ),
  );
}

/** Upstream `ControllerRoleBindings()`: each role to the ServiceAccount of its name. */
export function bootstrapControllerRoleBindings(): ClusterRoleBinding[] {
  return byNamespaceAndName(
    Object.keys(CONTROLLER_RULES).map((name) =>
      clusterRoleBinding(CONTROLLER_ROLE_PREFIX + name, [serviceAccount('kube-system', name)]),
    ),
  );
}
