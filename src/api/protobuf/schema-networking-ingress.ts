/**
 * Protobuf schema tables: networking.k8s.io/v1 Ingress, IngressClass, ServiceCIDR and
 * IPAddress (kubectl 1.33's `kubectl create ingress` sends an Ingress as protobuf).
 *
 * Each row is `[field number, JSON name, type, flags]` (see `schema.ts`), in Go struct order.
 * Numbers from k8s.io/api v0.33 `networking/v1/generated.proto`; `omitempty` and pointers
 * from the Go types' `json` tags (`pathType` and `scope` are pointers without `omitempty`).
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for the networking.k8s.io/v1 messages besides NetworkPolicy. */
export const networkingIngressTables: MessageTables = {
  /** k8s.io.api.networking.v1.Ingress */
  'networking.Ingress': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'networking.IngressSpec', 'o'],
    [3, 'status', 'networking.IngressStatus', 'o'],
  ],
  /** k8s.io.api.networking.v1.IngressSpec */
  'networking.IngressSpec': [
    [4, 'ingressClassName', 'string', 'op'],
    [1, 'defaultBackend', 'networking.IngressBackend', 'op'],
    [2, 'tls', 'networking.IngressTLS', 'or'],
    [3, 'rules', 'networking.IngressRule', 'or'],
  ],
  /** k8s.io.api.networking.v1.IngressBackend */
  'networking.IngressBackend': [
    [4, 'service', 'networking.IngressServiceBackend', 'op'],
    [3, 'resource', 'core.TypedLocalObjectReference', 'op'],
  ],
  /** k8s.io.api.networking.v1.IngressServiceBackend */
  'networking.IngressServiceBackend': [
    [1, 'name', 'string'],
    [2, 'port', 'networking.ServiceBackendPort', 'o'],
  ],
  /** k8s.io.api.networking.v1.ServiceBackendPort */
  'networking.ServiceBackendPort': [
    [1, 'name', 'string', 'o'],
    [2, 'number', 'int32', 'o'],
  ],
  /** k8s.io.api.networking.v1.IngressTLS */
  'networking.IngressTLS': [
    [1, 'hosts', 'string', 'or'],
    [2, 'secretName', 'string', 'o'],
  ],
  /** k8s.io.api.networking.v1.IngressRule */
  'networking.IngressRule': [
    [1, 'host', 'string', 'o'],
    [2, '', 'networking.IngressRuleValue', 'i'],
  ],
  /** k8s.io.api.networking.v1.IngressRuleValue */
  'networking.IngressRuleValue': [[1, 'http', 'networking.HTTPIngressRuleValue', 'op']],
  /** k8s.io.api.networking.v1.HTTPIngressRuleValue */
  'networking.HTTPIngressRuleValue': [[1, 'paths', 'networking.HTTPIngressPath', 'r']],
  /** k8s.io.api.networking.v1.HTTPIngressPath */
  'networking.HTTPIngressPath': [
    [1, 'path', 'string', 'o'],
    [3, 'pathType', 'string', 'p'],
    [2, 'backend', 'networking.IngressBackend'],
  ],
  /** k8s.io.api.networking.v1.IngressStatus */
  'networking.IngressStatus': [[1, 'loadBalancer', 'networking.IngressLoadBalancerStatus', 'o']],
  /** k8s.io.api.networking.v1.IngressLoadBalancerStatus */
  'networking.IngressLoadBalancerStatus': [
    [1, 'ingress', 'networking.IngressLoadBalancerIngress', 'or'],
  ],
  /** k8s.io.api.networking.v1.IngressLoadBalancerIngress */
  'networking.IngressLoadBalancerIngress': [
    [1, 'ip', 'string', 'o'],
    [2, 'hostname', 'string', 'o'],
    [4, 'ports', 'networking.IngressPortStatus', 'or'],
  ],
  /** k8s.io.api.networking.v1.IngressPortStatus */
  'networking.IngressPortStatus': [
    [1, 'port', 'int32'],
    [2, 'protocol', 'string'],
    [3, 'error', 'string', 'op'],
  ],
  /** k8s.io.api.networking.v1.IngressClass */
  'networking.IngressClass': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'networking.IngressClassSpec', 'o'],
  ],
  /** k8s.io.api.networking.v1.IngressClassSpec */
  'networking.IngressClassSpec': [
    [1, 'controller', 'string', 'o'],
    [2, 'parameters', 'networking.IngressClassParametersReference', 'op'],
  ],
  /** k8s.io.api.networking.v1.IngressClassParametersReference (proto name `aPIGroup`) */
  'networking.IngressClassParametersReference': [
    [1, 'apiGroup', 'string', 'op'],
    [2, 'kind', 'string'],
    [3, 'name', 'string'],
    [4, 'scope', 'string', 'p'],
    [5, 'namespace', 'string', 'op'],
  ],
  /** k8s.io.api.networking.v1.ServiceCIDR */
  'networking.ServiceCIDR': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'networking.ServiceCIDRSpec', 'o'],
    [3, 'status', 'networking.ServiceCIDRStatus', 'o'],
  ],
  /** k8s.io.api.networking.v1.ServiceCIDRSpec */
  'networking.ServiceCIDRSpec': [[1, 'cidrs', 'string', 'or']],
  /** k8s.io.api.networking.v1.ServiceCIDRStatus */
  'networking.ServiceCIDRStatus': [[1, 'conditions', 'meta.Condition', 'or']],
  /** k8s.io.api.networking.v1.IPAddress */
  'networking.IPAddress': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'networking.IPAddressSpec', 'o'],
  ],
  /** k8s.io.api.networking.v1.IPAddressSpec */
  'networking.IPAddressSpec': [[1, 'parentRef', 'networking.ParentReference', 'op']],
  /** k8s.io.api.networking.v1.ParentReference */
  'networking.ParentReference': [
    [1, 'group', 'string', 'o'],
    [2, 'resource', 'string', 'o'],
    [3, 'namespace', 'string', 'o'],
    [4, 'name', 'string', 'o'],
  ],
};
