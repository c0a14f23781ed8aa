/**
 * Types of the networking API group.
 *
 * GENERATED from src/api/schema/builtin/components.generated.json by scripts/gen-api-types.ts: do
 * not edit. Regenerate the schemas and every src/api/model/*.generated.ts with
 *
 *     node --import tsx scripts/gen-builtin-schemas.ts
 *
 * or only the types (from the committed JSON and the celld schemas) with
 *
 *     node --import tsx scripts/gen-api-types.ts
 *
 * src/api/model/generated-fresh.test.ts fails when this file differs from the generator's output.
 *
 * Naming: each definition keeps its upstream short name (Pod, PodSpec, ObjectMeta). When two
 * share one, the core/v1 definition (else the apimachinery one) keeps it and the other is prefixed
 * with its group and version (events.k8s.io/v1 Event → EventsV1Event, discovery.k8s.io/v1
 * EndpointPort → DiscoveryV1EndpointPort); a name TypeScript already has is prefixed too
 * (apiextensions JSON → ApiextensionsV1JSON).
 *
 * Types: a property is optional unless upstream requires it; null is admitted only where
 * ObjectMeta receives it. int32/int64 → number: int64 values beyond 2^53 arrive as bigint
 * (docs/adr/0012-int64-numbers.md), and only ControllerRevision.revision, the one the code does
 * bigint arithmetic on, is typed number | bigint. Quantity, Time and MicroTime → string;
 * IntOrString → number | string; opaque JSON (RawExtension, FieldsV1) → { [key: string]: unknown }.
 * A kind's apiVersion and kind are its literals, so a KubeObject needs isKind/asKind
 * (src/api/model/index.ts) to become one.
 *
 * @module
 */

import type { IntOrString, LabelSelector, ListMeta, ObjectMeta } from './meta.generated.js';

/**
 * IPBlock describes a particular CIDR (Ex. "192.168.1.0/24","2001:db8::/64") that is allowed to the
 * pods matched by a NetworkPolicySpec's podSelector. The except entry describes CIDRs that should
 * not be included within this rule.
 */
export type IPBlock = {
  /**
   * cidr is a string representing the IPBlock Valid examples are "192.168.1.0/24" or
   * "2001:db8::/64"
   */
  cidr: string;
  /**
   * except is a slice of CIDRs that should not be included within an IPBlock Valid examples are
   * "192.168.1.0/24" or "2001:db8::/64" Except values will be rejected if they are outside the cidr
   * range
   */
  except?: string[];
};

/** NetworkPolicy describes what network traffic is allowed for a set of Pods */
export type NetworkPolicy = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'networking.k8s.io/v1';
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'NetworkPolicy';
  metadata?: ObjectMeta;
  spec?: NetworkPolicySpec;
};

/**
 * NetworkPolicyEgressRule describes a particular set of traffic that is allowed out of pods matched
 * by a NetworkPolicySpec's podSelector. The traffic must match both ports and to. This type is
 * beta-level in 1.8
 */
export type NetworkPolicyEgressRule = {
  /**
   * ports is a list of destination ports for outgoing traffic. Each item in this list is combined
   * using a logical OR. If this field is empty or missing, this rule matches all ports (traffic not
   * restricted by port). If this field is present and contains at least one item, then this rule
   * allows traffic only if the traffic matches at least one port in the list.
   */
  ports?: NetworkPolicyPort[];
  /**
   * to is a list of destinations for outgoing traffic of pods selected for this rule. Items in this
   * list are combined using a logical OR operation. If this field is empty or missing, this rule
   * matches all destinations (traffic not restricted by destination). If this field is present and
   * contains at least one item, this rule allows traffic only if the traffic matches at least one
   * item in the to list.
   */
  to?: NetworkPolicyPeer[];
};

/**
 * NetworkPolicyIngressRule describes a particular set of traffic that is allowed to the pods
 * matched by a NetworkPolicySpec's podSelector. The traffic must match both ports and from.
 */
export type NetworkPolicyIngressRule = {
  /**
   * from is a list of sources which should be able to access the pods selected for this rule. Items
   * in this list are combined using a logical OR operation. If this field is empty or missing, this
   * rule matches all sources (traffic not restricted by source). If this field is present and
   * contains at least one item, this rule allows traffic only if the traffic matches at least one
   * item in the from list.
   */
  from?: NetworkPolicyPeer[];
  /**
   * ports is a list of ports which should be made accessible on the pods selected for this rule.
   * Each item in this list is combined using a logical OR. If this field is empty or missing, this
   * rule matches all ports (traffic not restricted by port). If this field is present and contains
   * at least one item, then this rule allows traffic only if the traffic matches at least one port
   * in the list.
   */
  ports?: NetworkPolicyPort[];
};

/** NetworkPolicyList is a list of NetworkPolicy objects. */
export type NetworkPolicyList = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'networking.k8s.io/v1';
  /** items is a list of schema objects. */
  items: NetworkPolicy[];
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'NetworkPolicyList';
  metadata?: ListMeta;
};

/**
 * NetworkPolicyPeer describes a peer to allow traffic to/from. Only certain combinations of fields
 * are allowed
 */
export type NetworkPolicyPeer = {
  ipBlock?: IPBlock;
  namespaceSelector?: LabelSelector;
  podSelector?: LabelSelector;
};

/** NetworkPolicyPort describes a port to allow traffic on */
export type NetworkPolicyPort = {
  /**
   * endPort indicates that the range of ports from port to endPort if set, inclusive, should be
   * allowed by the policy. This field cannot be defined if the port field is not defined or if the
   * port field is defined as a named (string) port. The endPort must be equal or greater than port.
   */
  endPort?: number;
  port?: IntOrString;
  /**
   * protocol represents the protocol (TCP, UDP, or SCTP) which traffic must match. If not
   * specified, this field defaults to TCP.
   */
  protocol?: string;
};

/** NetworkPolicySpec provides the specification of a NetworkPolicy */
export type NetworkPolicySpec = {
  /**
   * egress is a list of egress rules to be applied to the selected pods. Outgoing traffic is
   * allowed if there are no NetworkPolicies selecting the pod (and cluster policy otherwise allows
   * the traffic), OR if the traffic matches at least one egress rule across all of the
   * NetworkPolicy objects whose podSelector matches the pod. If this field is empty then this
   * NetworkPolicy limits all outgoing traffic (and serves solely to ensure that the pods it selects
   * are isolated by default). This field is beta-level in 1.8
   */
  egress?: NetworkPolicyEgressRule[];
  /**
   * ingress is a list of ingress rules to be applied to the selected pods. Traffic is allowed to a
   * pod if there are no NetworkPolicies selecting the pod (and cluster policy otherwise allows the
   * traffic), OR if the traffic source is the pod's local node, OR if the traffic matches at least
   * one ingress rule across all of the NetworkPolicy objects whose podSelector matches the pod. If
   * this field is empty then this NetworkPolicy does not allow any traffic (and serves solely to
   * ensure that the pods it selects are isolated by default)
   */
  ingress?: NetworkPolicyIngressRule[];
  podSelector?: LabelSelector;
  /**
   * policyTypes is a list of rule types that the NetworkPolicy relates to. Valid options are
   * ["Ingress"], ["Egress"], or ["Ingress", "Egress"]. If this field is not specified, it will
   * default based on the existence of ingress or egress rules; policies that contain an egress
   * section are assumed to affect egress, and all policies (whether or not they contain an ingress
   * section) are assumed to affect ingress. If you want to write an egress-only policy, you must
   * explicitly specify policyTypes [ "Egress" ]. Likewise, if you want to write a policy that
   * specifies that no egress is allowed, you must specify a policyTypes value that include "Egress"
   * (since such a policy would not include an egress section and would otherwise default to just [
   * "Ingress" ]). This field is beta-level in 1.8
   */
  policyTypes?: string[];
};
