/**
 * kube-apiserver 1.33's bootstrap ClusterRoles and ClusterRoleBindings (upstream
 * `plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go`, `ClusterRoles()` and
 * `ClusterRoleBindings()`, with the default feature gates of 1.33: DynamicResourceAllocation,
 * ClusterTrustBundleProjection and the other gated rules are off, so absent).
 *
 * Kept as TypeScript data rather than YAML: `fleetyard up` is one esbuild bundle with a
 * 250 ms startup target, and a TS module needs no file read nor YAML parse at start; the
 * builders (`rule-builder.ts`) keep it as short and as reviewable as upstream's Go. The
 * rules are in upstream's order (the aggregation controller and `kubectl describe` show that
 * order), each rule's lists sorted as upstream's `RuleOrDie` sorts them.
 *
 * @module
 */
import type { ClusterRole, ClusterRoleBinding } from '../../../api/model/index.js';
import { aggregatedClusterRoles } from './aggregated-roles.js';
import {
  byNamespaceAndName,
  clusterRole,
  clusterRoleBinding,
  eventsRule,
  group,
  READ,
  rule,
  serviceAccount,
  urlRule,
  user,
} from './rule-builder.js';

const CORE = '';
const APPS = 'apps';
const AUTHN = 'authentication.k8s.io';
const AUTHZ = 'authorization.k8s.io';
const CERTIFICATES = 'certificates.k8s.io';
const COORDINATION = 'coordination.k8s.io';
const DISCOVERY = 'discovery.k8s.io';
const EXTENSIONS = 'extensions';
const POLICY = 'policy';
const STORAGE = 'storage.k8s.io';

/** Upstream `NodeRules()` with 1.33's default gates. */
function nodeRules() {
  return [
    rule(['create'], [AUTHN], ['tokenreviews']),
    rule(['create'], [AUTHZ], ['subjectaccessreviews', 'localsubjectaccessreviews']),
    rule(READ, [CORE], ['services']),
    rule(['create', 'get', 'list', 'watch'], [CORE], ['nodes']),
    rule(['update', 'patch'], [CORE], ['nodes/status']),
    rule(['update', 'patch'], [CORE], ['nodes']),
    rule(['create', 'update', 'patch'], [CORE], ['events']),
    rule(READ, [CORE], ['pods']),
    rule(['create', 'delete'], [CORE], ['pods']),
    rule(['update', 'patch'], [CORE], ['pods/status']),
    rule(['create'], [CORE], ['pods/eviction']),
    rule(['get', 'list', 'watch'], [CORE], ['secrets', 'configmaps']),
    rule(['get'], [CORE], ['persistentvolumeclaims', 'persistentvolumes']),
    rule(['get'], [CORE], ['endpoints']),
    rule(['create', 'get', 'list', 'watch'], [CERTIFICATES], ['certificatesigningrequests']),
    rule(['get', 'create', 'update', 'patch', 'delete'], [COORDINATION], ['leases']),
    rule(['get'], [STORAGE], ['volumeattachments']),
    rule(['create'], [CORE], ['serviceaccounts/token']),
    rule(['get', 'update', 'patch'], [CORE], ['persistentvolumeclaims/status']),
    rule(['get', 'watch', 'list'], [STORAGE], ['csidrivers']),
    rule(['get', 'create', 'update', 'patch', 'delete'], [STORAGE], ['csinodes']),
    rule(['get', 'list', 'watch'], ['node.k8s.io'], ['runtimeclasses']),
  ];
}

/** Upstream `clusterRoles()`, in golden-file order (sorted by name). */
export function bootstrapClusterRoles(): ClusterRole[] {
  const signerApprover = (name: string, signer: string) =>
    clusterRole({
      name: `system:certificates.k8s.io:${name}`,
      rules: [rule(['approve'], [CERTIFICATES], ['signers'], [signer])],
    });
  return byNamespaceAndName([
    clusterRole({
      name: 'cluster-admin',
      rules: [rule(['*'], ['*'], ['*']), urlRule(['*'], ['*'])],
    }),
    clusterRole({
      name: 'system:discovery',
      rules: [
        urlRule(
          ['get'],
          [
            '/livez',
            '/readyz',
            '/healthz',
            '/version',
            '/version/',
            '/openapi',
            '/openapi/*',
            '/api',
            '/api/*',
            '/apis',
            '/apis/*',
          ],
        ),
      ],
    }),
    clusterRole({
      name: 'system:monitoring',
      rules: [
        urlRule(
          ['get'],
          [
            '/metrics',
            '/metrics/slis',
            '/livez',
            '/readyz',
            '/healthz',
            '/livez/*',
            '/readyz/*',
            '/healthz/*',
          ],
        ),
      ],
    }),
    clusterRole({
      name: 'system:basic-user',
      rules: [
        rule(['create'], [AUTHZ], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
        rule(['create'], [AUTHN], ['selfsubjectreviews']),
      ],
    }),
    clusterRole({
      name: 'system:public-info-viewer',
      rules: [urlRule(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/'])],
    }),
    ...aggregatedClusterRoles(),
    clusterRole({
      name: 'system:heapster',
      rules: [
        rule(READ, [CORE], ['events', 'pods', 'nodes', 'namespaces']),
        rule(READ, [EXTENSIONS], ['deployments']),
      ],
    }),
    clusterRole({ name: 'system:node', rules: nodeRules() }),
    clusterRole({
      name: 'system:node-problem-detector',
      rules: [
        rule(['get'], [CORE], ['nodes']),
        rule(['patch'], [CORE], ['nodes/status']),
        eventsRule(),
      ],
    }),
    clusterRole({
      name: 'system:kubelet-api-admin',
      rules: [
        rule(READ, [CORE], ['nodes']),
        rule(['proxy'], [CORE], ['nodes']),
        rule(['*'], [CORE], ['nodes/proxy', 'nodes/metrics', 'nodes/stats', 'nodes/log']),
      ],
    }),
    clusterRole({
      name: 'system:node-bootstrapper',
      rules: [
        rule(['create', 'get', 'list', 'watch'], [CERTIFICATES], ['certificatesigningrequests']),
      ],
    }),
    clusterRole({
      name: 'system:auth-delegator',
      rules: [
        rule(['create'], [AUTHN], ['tokenreviews']),
        rule(['create'], [AUTHZ], ['subjectaccessreviews']),
      ],
    }),
    clusterRole({
      name: 'system:kube-aggregator',
      rules: [rule(READ, [CORE], ['services', 'endpoints'])],
    }),
    clusterRole({
      name: 'system:kube-controller-manager',
      rules: [
        eventsRule(),
        rule(['create'], [COORDINATION], ['leases']),
        rule(['get', 'update'], [COORDINATION], ['leases'], ['kube-controller-manager']),
        rule(['create'], [CORE], ['secrets', 'serviceaccounts']),
        rule(['delete'], [CORE], ['secrets']),
        rule(['get'], [CORE], ['namespaces', 'secrets', 'serviceaccounts', 'configmaps']),
        rule(['update'], [CORE], ['secrets', 'serviceaccounts']),
        rule(['create'], [AUTHN], ['tokenreviews']),
        rule(['create'], [AUTHZ], ['subjectaccessreviews']),
        rule(['list', 'watch'], ['*'], ['*']),
        rule(['create'], [CORE], ['serviceaccounts/token']),
      ],
    }),
    clusterRole({
      name: 'system:kube-dns',
      rules: [rule(['list', 'watch'], [CORE], ['endpoints', 'services'])],
    }),
    clusterRole({
      name: 'system:persistent-volume-provisioner',
      rules: [
        rule(['get', 'list', 'watch', 'create', 'delete'], [CORE], ['persistentvolumes']),
        rule(['get', 'list', 'watch', 'update'], [CORE], ['persistentvolumeclaims']),
        rule(READ, [STORAGE], ['storageclasses']),
        rule(['watch'], [CORE], ['events']),
        eventsRule(),
      ],
    }),
    clusterRole({
      name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient',
      rules: [rule(['create'], [CERTIFICATES], ['certificatesigningrequests/nodeclient'])],
    }),
    clusterRole({
      name: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient',
      rules: [rule(['create'], [CERTIFICATES], ['certificatesigningrequests/selfnodeclient'])],
    }),
    clusterRole({
      name: 'system:volume-scheduler',
      rules: [
        rule(['get', 'list', 'watch', 'update', 'patch'], [CORE], ['persistentvolumes']),
        rule(READ, [STORAGE], ['storageclasses']),
        rule(['get', 'list', 'watch', 'update', 'patch'], [CORE], ['persistentvolumeclaims']),
      ],
    }),
    signerApprover('legacy-unknown-approver', 'kubernetes.io/legacy-unknown'),
    signerApprover('kubelet-serving-approver', 'kubernetes.io/kubelet-serving'),
    signerApprover('kube-apiserver-client-approver', 'kubernetes.io/kube-apiserver-client'),
    signerApprover(
      'kube-apiserver-client-kubelet-approver',
      'kubernetes.io/kube-apiserver-client-kubelet',
    ),
    clusterRole({
      name: 'system:service-account-issuer-discovery',
      rules: [urlRule(['get'], ['/.well-known/openid-configuration', '/openid/v1/jwks'])],
    }),
    clusterRole({
      name: 'system:node-proxier',
      rules: [
        rule(['list', 'watch'], [CORE], ['services', 'endpoints']),
        rule(READ, [CORE], ['nodes']),
        eventsRule(),
        rule(['list', 'watch'], [DISCOVERY], ['endpointslices']),
      ],
    }),
    clusterRole({
      name: 'system:kube-scheduler',
      rules: [
        eventsRule(),
        rule(['create'], [COORDINATION], ['leases']),
        rule(['get', 'update'], [COORDINATION], ['leases'], ['kube-scheduler']),
        rule(READ, [CORE], ['nodes']),
        rule(['get', 'list', 'watch', 'delete'], [CORE], ['pods']),
        rule(['create'], [CORE], ['pods/binding', 'bindings']),
        rule(['patch', 'update'], [CORE], ['pods/status']),
        rule(READ, [CORE], ['replicationcontrollers', 'services']),
        rule(READ, [APPS, EXTENSIONS], ['replicasets']),
        rule(READ, [APPS], ['statefulsets']),
        rule(READ, [POLICY], ['poddisruptionbudgets']),
        rule(READ, [CORE], ['persistentvolumeclaims', 'persistentvolumes']),
        rule(['create'], [AUTHN], ['tokenreviews']),
        rule(['create'], [AUTHZ], ['subjectaccessreviews']),
        rule(READ, [STORAGE], ['csinodes']),
        rule(READ, [CORE], ['namespaces']),
        rule(READ, [STORAGE], ['csidrivers']),
        rule(READ, [STORAGE], ['csistoragecapacities']),
      ],
    }),
  ]);
}

/** Upstream `ClusterRoleBindings()`, in golden-file order. */
export function bootstrapClusterRoleBindings(): ClusterRoleBinding[] {
  return byNamespaceAndName([
    clusterRoleBinding('cluster-admin', [group('system:masters')]),
    clusterRoleBinding('system:monitoring', [group('system:monitoring')]),
    clusterRoleBinding('system:discovery', [group('system:authenticated')]),
    clusterRoleBinding('system:basic-user', [group('system:authenticated')]),
    clusterRoleBinding('system:public-info-viewer', [
      group('system:authenticated'),
      group('system:unauthenticated'),
    ]),
    clusterRoleBinding('system:node-proxier', [user('system:kube-proxy')]),
    clusterRoleBinding('system:kube-controller-manager', [user('system:kube-controller-manager')]),
    clusterRoleBinding('system:kube-dns', [serviceAccount('kube-system', 'kube-dns')]),
    clusterRoleBinding('system:kube-scheduler', [user('system:kube-scheduler')]),
    clusterRoleBinding('system:volume-scheduler', [user('system:kube-scheduler')]),
    // Upstream keeps the binding but no longer binds the nodes group (the Node authorizer does).
    clusterRoleBinding('system:node', []),
    clusterRoleBinding('system:service-account-issuer-discovery', [
      group('system:serviceaccounts'),
    ]),
  ]);
}
