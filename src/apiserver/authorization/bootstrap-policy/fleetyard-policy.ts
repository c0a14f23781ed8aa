/**
 * The RBAC of fleetyard's simulated CSI drivers, which upstream's bootstrap policy does not
 * have (a CSI driver brings its own in its install manifest): a ClusterRole after the
 * external-provisioner sidecar's published `external-provisioner-runner`
 * (kubernetes-csi/external-provisioner `deploy/kubernetes/rbac.yaml`), bound to the
 * ServiceAccount `kube-system/csi-provisioner` the simulated provisioners act as. Labelled as
 * fleetyard's, not as upstream's `rbac-defaults`; reconciled like the bootstrap policy.
 *
 * @module
 */
import type { ClusterRole, ClusterRoleBinding } from '../../../api/model/index.js';
import type { PolicyObject } from './policy.js';
import { AUTOUPDATE_ANNOTATION, RBAC_API_VERSION, RBAC_GROUP, rule } from './rule-builder.js';

export const CSI_PROVISIONER_ROLE = 'fleetyard:csi-provisioner';

const metadata = (name: string) => ({
  name,
  labels: { 'app.kubernetes.io/managed-by': 'fleetyard' },
  annotations: { [AUTOUPDATE_ANNOTATION]: 'true' },
});

export function fleetyardPolicyObjects(): PolicyObject[] {
  const role: ClusterRole = {
    apiVersion: RBAC_API_VERSION,
    kind: 'ClusterRole',
    metadata: metadata(CSI_PROVISIONER_ROLE),
    rules: [
      // `update` beyond the sidecar's rules: the simulated provisioner removes its finalizer
      // from a released volume with an update, not a patch.
      rule(
        ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
        [''],
        ['persistentvolumes'],
      ),
      rule(['get', 'list', 'patch', 'update', 'watch'], [''], ['persistentvolumeclaims']),
      rule(['get', 'list', 'watch'], ['storage.k8s.io'], ['storageclasses']),
      rule(['create', 'list', 'patch', 'update', 'watch'], [''], ['events']),
      rule(['create', 'list', 'patch', 'update', 'watch'], ['events.k8s.io'], ['events']),
      rule(['get', 'list', 'watch'], ['storage.k8s.io'], ['csinodes']),
      rule(['get', 'list', 'watch'], [''], ['nodes']),
      rule(['get', 'list', 'watch'], ['storage.k8s.io'], ['volumeattachments']),
    ],
  };
  const binding: ClusterRoleBinding = {
    apiVersion: RBAC_API_VERSION,
    kind: 'ClusterRoleBinding',
    metadata: metadata(CSI_PROVISIONER_ROLE),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: CSI_PROVISIONER_ROLE },
    subjects: [{ kind: 'ServiceAccount', name: 'csi-provisioner', namespace: 'kube-system' }],
  };
  return [role, binding];
}
