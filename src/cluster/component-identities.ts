/**
 * Who each embedded component is, as on a kubeadm cluster where kube-controller-manager runs
 * with `--use-service-account-credentials`: every controller acts as its own ServiceAccount
 * in `kube-system`, bound by upstream's bootstrap policy to `system:controller:<name>`; the
 * scheduler is `system:kube-scheduler`; each simulated kubelet is `system:node:<node>` in
 * `system:nodes`; the celld operator is the ServiceAccount `deploy/operator/rbac.yaml` makes.
 * A missing permission therefore fails here where it would fail upstream.
 *
 * Three parts differ, and say so: the simulated CSI provisioners act as the ServiceAccount
 * `kube-system/csi-provisioner` bound to a ClusterRole after the external-provisioner
 * sidecar's published RBAC (fleetyard's own bootstrap object, as a CSI driver's install
 * manifest would add); `storageclass-bootstrap` installs the default classes as the API
 * server's loopback user, as an add-on installer with admin rights would; and the shared
 * informers (the caches every embedded component reads) list and watch as
 * `system:kube-controller-manager`, so a component's reads are not checked one by one (the
 * operator's are: it runs with informers of its own, as the separate process it is on a real
 * cluster).
 *
 * @module
 */
import {
  NODES_GROUP,
  nodeUsername,
  SYSTEM_AUTHENTICATED,
  serviceAccountGroups,
  serviceAccountUsername,
  type UserInfo,
} from '../apiserver/authentication/user.js';
import type { ControllerDefinition } from '../controller/context.js';

/** fleetyard's controller name → the upstream ServiceAccount kube-controller-manager uses for it. */
export const CONTROLLER_SERVICE_ACCOUNTS: Readonly<Record<string, string>> = {
  'persistentvolume-binder': 'persistent-volume-binder',
  'pvc-protection-controller': 'pvc-protection-controller',
  'pv-protection-controller': 'pv-protection-controller',
  'replicaset-controller': 'replicaset-controller',
  'replicationcontroller-controller': 'replication-controller',
  'deployment-controller': 'deployment-controller',
  statefulset: 'statefulset-controller',
  'job-controller': 'job-controller',
  'ttl-after-finished-controller': 'ttl-after-finished-controller',
  'cronjob-controller': 'cronjob-controller',
  'daemonset-controller': 'daemon-set-controller',
  'endpoint-controller': 'endpoint-controller',
  endpointslice: 'endpointslice-controller',
  'garbage-collector': 'generic-garbage-collector',
  'resourcequota-controller': 'resourcequota-controller',
  'disruption-controller': 'disruption-controller',
  'horizontal-pod-autoscaler-controller': 'horizontal-pod-autoscaler',
  'node-lifecycle-controller': 'node-controller',
  'taint-eviction-controller': 'node-controller',
  'pod-garbage-collector': 'pod-garbage-collector',
  'serviceaccount-controller': 'service-account-controller',
  'root-ca-certificate-publisher-controller': 'root-ca-cert-publisher',
  'certificatesigningrequest-signing-controller': 'certificate-controller',
  'certificatesigningrequest-cleaner-controller': 'certificate-controller',
  'clusterrole-aggregation-controller': 'clusterrole-aggregation-controller',
  'csi-provisioner-hostpath': 'csi-provisioner',
  'csi-provisioner-ebs': 'csi-provisioner',
};

export const KUBE_SYSTEM = 'kube-system';
export const SCHEDULER_USER = 'system:kube-scheduler';
export const CONTROLLER_MANAGER_USER = 'system:kube-controller-manager';
/** The celld operator's ServiceAccount, as `deploy/operator/rbac.yaml` makes it. */
export const OPERATOR_SERVICE_ACCOUNT = { namespace: 'celld-system', name: 'celld-operator' };

/** A controller's ServiceAccount user, or undefined when it has no identity of its own. */
export function controllerUser(controller: string): UserInfo | undefined {
  const sa = CONTROLLER_SERVICE_ACCOUNTS[controller];
  if (sa === undefined) return undefined;
  return serviceAccountUser(KUBE_SYSTEM, sa);
}

export function serviceAccountUser(namespace: string, name: string): UserInfo {
  return {
    username: serviceAccountUsername(namespace, name),
    groups: serviceAccountGroups(namespace),
  };
}

export function nodeUser(node: string): UserInfo {
  return { username: nodeUsername(node), groups: [NODES_GROUP, SYSTEM_AUTHENTICATED] };
}

export const SCHEDULER: UserInfo = { username: SCHEDULER_USER, groups: [SYSTEM_AUTHENTICATED] };
export const CONTROLLER_MANAGER: UserInfo = {
  username: CONTROLLER_MANAGER_USER,
  groups: [SYSTEM_AUTHENTICATED],
};

/** The operator's user (`system:serviceaccount:celld-system:celld-operator`). */
export const OPERATOR_USER = serviceAccountUser(
  OPERATOR_SERVICE_ACCOUNT.namespace,
  OPERATOR_SERVICE_ACCOUNT.name,
);

/**
 * `def` acting as its upstream identity: a controller as its ServiceAccount, the scheduler as
 * `system:kube-scheduler`, the celld operator as its own ServiceAccount with informers of its
 * own. The kubelet has none of its own: each node's writes pick `system:node:<node>`.
 */
export function withIdentity(def: ControllerDefinition): ControllerDefinition {
  if (def.name === 'default-scheduler') return { ...def, identity: SCHEDULER_USER };
  // Upstream's tokens controller runs on kube-controller-manager's own credentials.
  if (def.name === 'serviceaccount-token-controller') {
    return { ...def, identity: CONTROLLER_MANAGER_USER };
  }
  if (def.name === 'celld-operator') {
    return { ...def, identity: OPERATOR_USER.username, ownInformers: true };
  }
  const user = controllerUser(def.name);
  return user === undefined ? def : { ...def, identity: user.username };
}

/** Every user the embedded components act as, for `nodes` simulated nodes. */
export function componentUsers(nodeNames: readonly string[]): UserInfo[] {
  const controllers = [...new Set(Object.values(CONTROLLER_SERVICE_ACCOUNTS))].map((sa) =>
    serviceAccountUser(KUBE_SYSTEM, sa),
  );
  return [
    ...controllers,
    SCHEDULER,
    CONTROLLER_MANAGER,
    OPERATOR_USER,
    ...nodeNames.map((n) => nodeUser(n)),
  ];
}
