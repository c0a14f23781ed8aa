/**
 * Cluster DNS names (the Kubernetes DNS specification's A records) computed from Services and
 * EndpointSlices: `resolveName` over a snapshot, `resolveThroughApi` against a server,
 * `podDnsNames` for the names a pod answers to.
 *
 * @module
 */
export { resolveThroughApi } from './api.js';
export {
  DEFAULT_CLUSTER_DOMAIN,
  type DnsAnswer,
  type DnsResult,
  type DnsSnapshot,
  isHeadlessService,
  type ParsedName,
  parseServiceName,
  podDnsNames,
  resolveName,
  serviceEndpoints,
} from './resolver.js';
