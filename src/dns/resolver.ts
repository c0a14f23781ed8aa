/**
 * A pure resolver for the A/AAAA records of the Kubernetes DNS-Based Service Discovery
 * specification (kubernetes/dns `docs/specification.md`), computed from Services and
 * EndpointSlices rather than served on port 53: the simulated cluster has no DNS server, so
 * this answers what a compliant one (CoreDNS) would.
 *
 * - `<service>.<ns>.svc.<zone>`: a Service with a cluster IP answers its cluster IPs; a
 *   headless one answers the addresses of its ready endpoints (every endpoint when the
 *   Service publishes not-ready addresses). With none, the name exists without addresses
 *   (NODATA, as CoreDNS answers).
 * - `<hostname>.<service>.<ns>.svc.<zone>`: the endpoint of headless `<service>` whose
 *   hostname is `<hostname>` (endpoints without one answer to their address with dashes,
 *   CoreDNS's system-assigned identifier), when it is ready or the Service publishes
 *   not-ready addresses; otherwise NXDOMAIN.
 * - An ExternalName Service answers a CNAME (`cname`) and no addresses.
 *
 * Comparisons are case-insensitive and a trailing dot is ignored, as the specification says.
 *
 * @module
 */
import type { EndpointSlice, Pod, Service } from '../api/model/index.js';

/** The default cluster domain (`--cluster-domain`). */
export const DEFAULT_CLUSTER_DOMAIN = 'cluster.local';
/** The label joining an EndpointSlice to its Service (`discovery.LabelServiceName`). */
const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

/** What the resolver reads: the Services and EndpointSlices of (at least) the name's namespace. */
export interface DnsSnapshot {
  readonly services: readonly Service[];
  readonly endpointSlices: readonly EndpointSlice[];
}

/** A name that exists: its addresses (possibly none), or the target of an ExternalName. */
export interface DnsAnswer {
  readonly name: string;
  readonly addresses: string[];
  readonly cname?: string;
}

export type DnsResult = DnsAnswer | { readonly nxdomain: true };

const NXDOMAIN = { nxdomain: true } as const;

/** A name split into its cluster-DNS parts, or undefined when it is not under `svc.<domain>`. */
export interface ParsedName {
  /** The normalized name: lower case, no trailing dot. */
  readonly fqdn: string;
  readonly namespace: string;
  readonly service: string;
  /** The endpoint label before the service, for per-endpoint records. */
  readonly hostname?: string;
}

/** Parses `[<hostname>.]<service>.<ns>.svc.<domain>`. */
export function parseServiceName(
  name: string,
  domain = DEFAULT_CLUSTER_DOMAIN,
): ParsedName | undefined {
  const fqdn = name.toLowerCase().replace(/\.$/, '');
  const suffix = `.svc.${domain.toLowerCase().replace(/\.$/, '')}`;
  if (!fqdn.endsWith(suffix)) return undefined;
  const labels = fqdn.slice(0, -suffix.length).split('.');
  if (labels.some((l) => l === '')) return undefined;
  if (labels.length === 2) return { fqdn, service: labels[0] ?? '', namespace: labels[1] ?? '' };
  if (labels.length === 3)
    return { fqdn, hostname: labels[0], service: labels[1] ?? '', namespace: labels[2] ?? '' };
  return undefined;
}

/** Upstream `IsServiceIPSet`'s negation: no cluster IP, or `None`. */
export function isHeadlessService(service: Service): boolean {
  const ip = service.spec?.clusterIP ?? '';
  return ip === '' || ip === 'None';
}

function publishesNotReady(service: Service): boolean {
  return service.spec?.publishNotReadyAddresses === true;
}

/** A slice endpoint as DNS sees it. */
interface DnsEndpoint {
  readonly addresses: string[];
  readonly hostname: string;
  readonly ready: boolean;
}

/** The endpoints of a Service's slices (deduplicated by address; a nil `ready` counts as ready). */
export function serviceEndpoints(
  service: Service,
  slices: readonly EndpointSlice[],
): DnsEndpoint[] {
  const ns = service.metadata?.namespace;
  const name = service.metadata?.name;
  const seen = new Set<string>();
  const out: DnsEndpoint[] = [];
  for (const slice of slices) {
    if (slice.metadata?.namespace !== ns) continue;
    if (slice.metadata?.labels?.[SERVICE_NAME_LABEL] !== name) continue;
    const type = slice.addressType;
    if (type !== 'IPv4' && type !== 'IPv6') continue;
    for (const e of slice.endpoints ?? []) {
      const addresses = (e.addresses ?? []).filter((a) => !seen.has(a));
      if (addresses.length === 0) continue;
      for (const a of addresses) seen.add(a);
      const ready = e.conditions?.ready !== false;
      const hostname = (e.hostname ?? '').toLowerCase();
      out.push({ addresses, hostname, ready });
    }
  }
  return out;
}

/** The label an endpoint answers to under its Service: its hostname, else its dashed address. */
function endpointLabel(e: DnsEndpoint): string {
  return e.hostname !== '' ? e.hostname : (e.addresses[0] ?? '').replace(/[.:]/g, '-');
}

function findService(snapshot: DnsSnapshot, namespace: string, name: string): Service | undefined {
  return snapshot.services.find(
    (s) =>
      (s.metadata?.namespace ?? '').toLowerCase() === namespace &&
      (s.metadata?.name ?? '').toLowerCase() === name,
  );
}

function clusterIPs(service: Service): string[] {
  const ips = (service.spec?.clusterIPs ?? []).filter((ip) => ip !== '' && ip !== 'None');
  if (ips.length > 0) return ips;
  const one = service.spec?.clusterIP ?? '';
  return one === '' || one === 'None' ? [] : [one];
}

/** Resolves `name`'s A/AAAA records from the snapshot. */
export function resolveName(
  name: string,
  snapshot: DnsSnapshot,
  domain = DEFAULT_CLUSTER_DOMAIN,
): DnsResult {
  const parsed = parseServiceName(name, domain);
  if (parsed === undefined) return NXDOMAIN;
  const service = findService(snapshot, parsed.namespace, parsed.service);
  if (service === undefined) return NXDOMAIN;
  const spec = service.spec;
  if (spec?.type === 'ExternalName') {
    if (parsed.hostname !== undefined) return NXDOMAIN;
    return { name: parsed.fqdn, addresses: [], cname: spec.externalName ?? '' };
  }
  const headless = isHeadlessService(service);
  if (parsed.hostname === undefined && !headless) {
    return { name: parsed.fqdn, addresses: clusterIPs(service) };
  }
  // Per-endpoint names exist only under headless Services.
  if (!headless) return NXDOMAIN;
  const all = publishesNotReady(service);
  const visible = serviceEndpoints(service, snapshot.endpointSlices).filter((e) => all || e.ready);
  if (parsed.hostname === undefined) {
    return { name: parsed.fqdn, addresses: visible.flatMap((e) => e.addresses) };
  }
  const matches = visible.filter((e) => endpointLabel(e) === parsed.hostname);
  if (matches.length === 0) return NXDOMAIN;
  return { name: parsed.fqdn, addresses: matches.flatMap((e) => e.addresses) };
}

/**
 * The names a pod answers to (once its endpoint is ready): `<hostname>.<subdomain>.<ns>.svc.
 * <domain>` when the pod sets both `hostname` and `subdomain` and its namespace has a headless
 * Service named `subdomain` that selects it (the one an EndpointSlice would list it under).
 * A StatefulSet's pods get `hostname` = their name and `subdomain` = the set's `serviceName`.
 */
export function podDnsNames(
  pod: Pod,
  services: readonly Service[],
  domain = DEFAULT_CLUSTER_DOMAIN,
): string[] {
  const hostname = pod.spec?.hostname ?? '';
  const subdomain = pod.spec?.subdomain ?? '';
  const ns = pod.metadata?.namespace ?? '';
  if (hostname === '' || subdomain === '') return [];
  const service = services.find(
    (s) => s.metadata?.namespace === ns && s.metadata?.name === subdomain,
  );
  if (service === undefined || !isHeadlessService(service) || !selects(service, pod)) return [];
  return [`${hostname}.${subdomain}.${ns}.svc.${domain}`];
}

function selects(service: Service, pod: Pod): boolean {
  const selector = service.spec?.selector ?? {};
  const entries = Object.entries(selector);
  const labels = pod.metadata?.labels ?? {};
  return entries.length > 0 && entries.every(([k, v]) => labels[k] === v);
}
