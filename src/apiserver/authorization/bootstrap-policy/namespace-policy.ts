/**
 * The namespaced bootstrap Roles and RoleBindings of kube-apiserver 1.33 in `kube-system` and
 * `kube-public` (upstream `bootstrappolicy/namespace_policy.go`): the authentication
 * ConfigMap reader for extension API servers, the leader-locking roles of the controller
 * manager and scheduler, and the bootstrap-signer, cloud-provider and token-cleaner roles.
 *
 * 1.33's leader-locking roles grant the legacy ConfigMap lock as well as Leases and
 * LeaseCandidates (added in 1.31 with coordinated leader election; 1.35 drops the ConfigMap
 * rules), and the controller manager's is also bound to the `leader-election-controller`
 * ServiceAccount (the coordinated leader election controller).
 *
 * @module
 */
import type { Role, RoleBinding } from '../../../api/model/index.js';
import {
  byNamespaceAndName,
  eventsRule,
  READ,
  role,
  roleBinding,
  rule,
  serviceAccount,
  user,
} from './rule-builder.js';

const SYSTEM = 'kube-system';
const PUBLIC = 'kube-public';

/** Upstream `NamespaceRoles()`, flattened, in golden-file order. */
export function bootstrapNamespaceRoles(): Role[] {
  const leaderLocking = (name: string) =>
    role(SYSTEM, `system::leader-locking-${name}`, [
      rule(['watch'], [''], ['configmaps']),
      rule(['get', 'update'], [''], ['configmaps'], [name]),
      rule(['get', 'watch', 'list', 'create', 'update'], ['coordination.k8s.io'], ['leases']),
      rule(
        ['get', 'watch', 'list', 'create', 'update'],
        ['coordination.k8s.io'],
        ['leasecandidates'],
      ),
    ]);
  return byNamespaceAndName([
    role(SYSTEM, 'extension-apiserver-authentication-reader', [
      rule(READ, [''], ['configmaps'], ['extension-apiserver-authentication']),
    ]),
    leaderLocking('kube-controller-manager'),
    leaderLocking('kube-scheduler'),
    role(SYSTEM, 'system:controller:bootstrap-signer', [rule(READ, [''], ['secrets'])]),
    role(SYSTEM, 'system:controller:cloud-provider', [
      rule(['create', 'get', 'list', 'watch'], [''], ['configmaps']),
    ]),
    role(SYSTEM, 'system:controller:token-cleaner', [
      rule(['delete', 'get', 'list', 'watch'], [''], ['secrets']),
      eventsRule(),
    ]),
    role(PUBLIC, 'system:controller:bootstrap-signer', [
      rule(READ, [''], ['configmaps']),
      rule(['update'], [''], ['configmaps'], ['cluster-info']),
      eventsRule(),
    ]),
  ]);
}

/** Upstream `NamespaceRoleBindings()`, flattened, in golden-file order. */
export function bootstrapNamespaceRoleBindings(): RoleBinding[] {
  const controller = (namespace: string, name: string) =>
    roleBinding(namespace, `system:controller:${name}`, `system:controller:${name}`, [
      serviceAccount(SYSTEM, name),
    ]);
  return byNamespaceAndName([
    roleBinding(
      SYSTEM,
      'system::extension-apiserver-authentication-reader',
      'extension-apiserver-authentication-reader',
      [user('system:kube-controller-manager'), user('system:kube-scheduler')],
    ),
    roleBinding(
      SYSTEM,
      'system::leader-locking-kube-controller-manager',
      'system::leader-locking-kube-controller-manager',
      [
        user('system:kube-controller-manager'),
        serviceAccount(SYSTEM, 'kube-controller-manager'),
        serviceAccount(SYSTEM, 'leader-election-controller'),
      ],
    ),
    roleBinding(
      SYSTEM,
      'system::leader-locking-kube-scheduler',
      'system::leader-locking-kube-scheduler',
      [user('system:kube-scheduler'), serviceAccount(SYSTEM, 'kube-scheduler')],
    ),
    controller(SYSTEM, 'bootstrap-signer'),
    controller(SYSTEM, 'cloud-provider'),
    controller(SYSTEM, 'token-cleaner'),
    controller(PUBLIC, 'bootstrap-signer'),
  ]);
}
