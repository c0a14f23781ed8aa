/**
 * The audit policy `fleetyard up` uses when `--audit-log-path` is set without
 * `--audit-policy-file`. kube-apiserver has no default (no policy file: no audit); this one
 * follows the policy GKE/GCE ship (`cluster/gce/gci/configure-helper.sh`,
 * `create-master-audit-policy`), trimmed to what fleetyard serves:
 *
 * - `None` for high-volume, low-risk traffic: health, readiness, liveness and `/version`;
 *   kube-proxy's watches of Services and Endpoints(Slices); nodes reading their own Node and
 *   renewing their Lease (with 250 simulated kubelets that alone is 25 writes/s at a 10 s
 *   renew interval, a fleetyard addition to GCE's list); Events, read or written (GCE drops
 *   them all "because of performance impact").
 * - `Metadata` for Secrets, ConfigMaps, TokenRequests (`serviceaccounts/token`) and
 *   TokenReviews: who touched what, never the body, so no secret value or token reaches the
 *   log whatever the verb.
 * - `Request` for every other write: the object sent, not the (often larger) response.
 * - `Metadata` for everything else (reads, discovery, OpenAPI).
 *
 * `RequestReceived` is omitted everywhere, as GCE's does: the `ResponseComplete` event carries
 * everything it has, so it only doubles the volume.
 *
 * @module
 */

export const DEFAULT_AUDIT_POLICY_YAML = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages:
  - RequestReceived
rules:
  - level: None
    nonResourceURLs:
      - /healthz*
      - /livez*
      - /readyz*
      - /version
  - level: None
    users: ["system:kube-proxy"]
    verbs: ["watch"]
    resources:
      - group: ""
        resources: ["endpoints", "services", "services/status"]
      - group: discovery.k8s.io
        resources: ["endpointslices"]
  - level: None
    userGroups: ["system:nodes"]
    verbs: ["get"]
    resources:
      - group: ""
        resources: ["nodes", "nodes/status"]
  - level: None
    userGroups: ["system:nodes"]
    verbs: ["get", "update"]
    namespaces: ["kube-node-lease"]
    resources:
      - group: coordination.k8s.io
        resources: ["leases"]
  - level: None
    resources:
      - group: ""
        resources: ["events"]
      - group: events.k8s.io
        resources: ["events"]
  - level: Metadata
    resources:
      - group: ""
        resources: ["secrets", "configmaps", "serviceaccounts/token"]
      - group: authentication.k8s.io
        resources: ["tokenreviews"]
  - level: Request
    verbs: ["create", "update", "patch", "delete", "deletecollection"]
  - level: Metadata
`;
