/**
 * Column descriptions: the API field documentation upstream's printers take from the Go
 * types' `SwaggerDoc()` (the same text as the OpenAPI descriptions). kubectl ignores them;
 * they are here so Tables carry what a real server sends.
 *
 * Upstream reads a few of them from older group versions (`extensions/v1beta1` ReplicaSet,
 * Deployment and NetworkPolicy, `apps/v1beta1` ControllerRevision); the current versions'
 * text is used for those, which may differ in wording.
 *
 * @module
 */

/** Keyed `<Type>.<field>`, e.g. `ObjectMeta.name`. */
export const FIELD_DOCS = {
  'ObjectMeta.name':
    'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  'ObjectMeta.creationTimestamp':
    'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
  'PodStatus.podIP':
    'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.',
  'PodStatus.nominatedNodeName':
    'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.',
  'PodSpec.nodeName':
    'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename',
  'PodSpec.readinessGates':
    'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates',
  'ReplicaSetSpec.replicas':
    'Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset',
  'ReplicaSetSpec.selector':
    'Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template. Label keys and values that must match in order to be controlled by this replica set. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
  'ReplicaSetStatus.replicas':
    'Replicas is the most recently observed number of non-terminating pods. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset',
  'ReplicaSetStatus.readyReplicas':
    'The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.',
  'DeploymentStatus.updatedReplicas':
    'Total number of non-terminating pods targeted by this deployment that have the desired template spec.',
  'DeploymentStatus.availableReplicas':
    'Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.',
  'DeploymentSpec.selector':
    'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.',
  'ServiceSpec.type':
    'type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer. "ClusterIP" allocates a cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. If clusterIP is "None", no virtual IP is allocated and the endpoints are published as a set of endpoints rather than a virtual IP. "NodePort" builds on ClusterIP and allocates a port on every node which routes to the same endpoints as the clusterIP. "LoadBalancer" builds on NodePort and creates an external load-balancer (if supported in the current cloud) which routes to the same endpoints as the clusterIP. "ExternalName" aliases this service to the specified externalName. Several other fields do not apply to ExternalName services. More info: https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types',
  'ServiceSpec.clusterIP':
    'clusterIP is the IP address of the service and is usually assigned randomly. If an address is specified manually, is in-range (as per system configuration), and is not in use, it will be allocated to the service; otherwise creation of the service will fail. This field may not be changed through updates unless the type field is also being changed to ExternalName (which requires this field to be blank) or the type field is being changed from ExternalName (in which case this field may optionally be specified, as describe above).\n\nValid values are "None", empty string (""), or a valid IP address. Setting this to "None" makes a "headless service" (no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not required.\n\nOnly applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified when creating a Service of type ExternalName, creation will fail. This field will be wiped when updating a Service to type ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
  'ServiceSpec.externalIPs':
    'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.\n\nThese IPs are not managed by Kubernetes.\n\nThe user is responsible for ensuring that traffic arrives at a node with this IP.\n\nA common example is external load-balancers that are not part of the Kubernetes system.',
  'ServiceSpec.ports':
    'The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies',
  'ServiceSpec.selector':
    'Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and LoadBalancer. Ignored if type is ExternalName. More info: https://kubernetes.io/docs/concepts/services-networking/service/',
  'Endpoints.subsets':
    'The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service.',
  'NodeSystemInfo.kubeletVersion': 'Kubelet Version reported by the node.',
  'NodeSystemInfo.osImage':
    'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).',
  'NodeSystemInfo.kernelVersion':
    "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
  'NodeSystemInfo.containerRuntimeVersion':
    'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).',
  'NodeStatus.addresses':
    "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).",
  'Event.lastTimestamp': 'The time at which the most recent occurrence of this event was recorded.',
  'Event.type': 'Type of this event (Normal, Warning), new types could be added in the future',
  'Event.reason':
    "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
  'Event.involvedObject': 'The object that this event is about.',
  'Event.source':
    'The component reporting this event. Should be a short machine understandable string.',
  'Event.message': 'A human-readable description of the status of this operation.',
  'Event.firstTimestamp':
    'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
  'Event.count': 'The number of times this event has occurred.',
  'ObjectReference.fieldPath':
    'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.',
  'Secret.type':
    'Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types',
  'Secret.data':
    "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
  'ServiceAccount.secrets':
    'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a "kubernetes.io/enforce-mountable-secrets" annotation set to "true". The "kubernetes.io/enforce-mountable-secrets" annotation is deprecated since v1.32. Prefer separate namespaces to isolate access to mounted secrets. This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret',
  'PersistentVolumeSpec.capacity':
    "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity",
  'PersistentVolumeSpec.accessModes':
    'accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes',
  'PersistentVolumeSpec.persistentVolumeReclaimPolicy':
    'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming',
  'PersistentVolumeSpec.claimRef':
    'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding',
  'PersistentVolumeSpec.volumeMode':
    'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.',
  'PersistentVolumeStatus.phase':
    'phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase',
  'PersistentVolumeStatus.reason':
    'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.',
  'PersistentVolumeClaimStatus.phase':
    'phase represents the current phase of PersistentVolumeClaim.',
  'PersistentVolumeClaimStatus.capacity':
    'capacity represents the actual resources of the underlying volume.',
  'PersistentVolumeClaimStatus.accessModes':
    'accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1',
  'PersistentVolumeClaimSpec.volumeName':
    'volumeName is the binding reference to the PersistentVolume backing this claim.',
  'PersistentVolumeClaimSpec.volumeMode':
    'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.',
  'ConfigMap.data':
    "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
  'NetworkPolicySpec.podSelector':
    'Selects the pods to which this NetworkPolicy object applies. The array of ingress rules is applied to any pods selected by this field. Multiple network policies can select the same set of pods. In this case, the ingress rules for each are combined additively. This field is NOT optional and follows standard label selector semantics. An empty podSelector matches all pods in this namespace.',
  'LeaseSpec.holderIdentity':
    'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.',
  'StorageClass.provisioner': 'provisioner indicates the type of the provisioner.',
  'StorageClass.reclaimPolicy':
    'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.',
  'StorageClass.volumeBindingMode':
    'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.\n\nWhen unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.',
  'StorageClass.allowVolumeExpansion':
    'allowVolumeExpansion shows whether the storage class allow volume expand.',
  'ControllerRevision.revision':
    'Revision indicates the revision of the state represented by Data.',
  'ScaleSpec.replicas': 'replicas is the desired number of instances for the scaled object.',
  'ScaleStatus.replicas':
    'replicas is the actual number of observed instances of the scaled object.',
} as const;

export type FieldDocKey = keyof typeof FIELD_DOCS;
