/**
 * Which names the serving certificate must cover, and which address the kubeconfig names:
 * what a client of `fleetyard up --host H [--tls-san N]… [--advertise-address A]` can verify.
 *
 * The rules (k3s builds its serving certificate alike: loopback, the host name, the node's
 * addresses, then `--tls-san`):
 * - always the loopback names `localhost`, `127.0.0.1`, `::1` (added by pki.ts);
 * - `--host` a specific address or name: that address;
 * - `--host 0.0.0.0` (every IPv4 address): every IPv4 address of the machine's interfaces
 *   and its host name; `--host ::` (Node listens dual-stack): every address of both families;
 * - `--advertise-address` and every `--tls-san`, as given.
 *
 * The kubeconfig is read on this machine, so it names `--advertise-address` when given, else
 * the bound address, a wildcard being replaced by the loopback address of its family: always
 * reachable from here and always in the certificate, whereas an interface address may be a
 * container's, a VPN's or gone after a network change. That is also k3s's choice
 * (`server: https://127.0.0.1:6443` in k3s.yaml).
 *
 * @module
 */
import { networkInterfaces, hostname as osHostname } from 'node:os';
import { canonicalIPv6, ipFamily } from '../util/ip.js';
import { serverUrl } from './kubeconfig.js';
import { checkedDnsName } from './pki.js';

/** Inputs of {@link servingHosts}; the machine's interfaces and name by default. */
export interface ServingNamesOptions {
  /** The bind address (`--host`). */
  readonly host: string;
  /** `--tls-san` values, already split ({@link parseTlsSans}). */
  readonly tlsSans?: readonly string[];
  /** `--advertise-address`. */
  readonly advertiseAddress?: string | undefined;
  readonly interfaces?: ReturnType<typeof networkInterfaces>;
  readonly hostname?: string;
}

/** `0.0.0.0`, `::` or empty (all addresses): 4 or 6 for a wildcard's family, 0 otherwise. */
export function wildcardFamily(host: string): 0 | 4 | 6 {
  const h = unbracketed(host);
  if (h === '' || h === '0.0.0.0') return 4;
  return ipFamily(h) === 6 && canonicalIPv6(h) === '::' ? 6 : 0;
}

/**
 * The host names and IP addresses the serving certificate must name (besides the loopback
 * defaults), deduplicated, in a stable order: the bind address or the machine's, then
 * `--advertise-address`, then `--tls-san`. A host name that is not a valid DNS name (some
 * containers have odd ones) is left out rather than failing the start.
 */
export function servingHosts(options: ServingNamesOptions): string[] {
  const hosts: string[] = [];
  const family = wildcardFamily(options.host);
  if (family === 0) {
    hosts.push(unbracketed(options.host));
  } else {
    hosts.push(...machineAddresses(family, options.interfaces ?? interfacesOrNone()));
    const name = options.hostname ?? osHostname();
    if (isDnsName(name)) hosts.push(name.toLowerCase());
  }
  if (options.advertiseAddress !== undefined) hosts.push(unbracketed(options.advertiseAddress));
  hosts.push(...(options.tlsSans ?? []));
  return [...new Set(hosts)];
}

/**
 * The URL clients on this machine use for a server listening at `boundUrl` (its `url`, e.g.
 * `https://0.0.0.0:6443`): `--advertise-address` when given (the kubeconfig's), else the bound
 * address with a wildcard replaced by loopback of its family (see the module note).
 */
export function clientUrl(boundUrl: string, advertiseAddress?: string): string {
  const bound = new URL(boundUrl);
  const port = bound.port === '' ? 443 : Number(bound.port);
  return serverUrl(advertiseAddress ?? bound.hostname, port);
}

/**
 * `--tls-san` values as k3s takes them: the flag repeated and/or comma-separated, blanks
 * trimmed, empty items dropped. Throws (naming the value) on one that is neither an IP
 * address nor a DNS name (`*.example.com` is allowed).
 */
export function parseTlsSans(values: readonly string[]): string[] {
  const sans: string[] = [];
  for (const item of values.flatMap((v) => v.split(','))) {
    const san = unbracketed(item.trim());
    if (san === '') continue;
    if (ipFamily(san) === 6) sans.push(canonicalIPv6(san));
    else if (ipFamily(san) === 4) sans.push(san);
    else sans.push(checkedDnsName(san));
  }
  return sans;
}

/**
 * `--advertise-address`: an IP address, as kube-apiserver's flag (a DNS name goes into
 * `--tls-san`), and not a wildcard, which no client can connect to.
 */
export function parseAdvertiseAddress(value: string): string {
  const address = unbracketed(value.trim());
  if (ipFamily(address) === 0 || wildcardFamily(address) !== 0) {
    throw new TypeError(`invalid --advertise-address ${value}: want an IP address`);
  }
  return ipFamily(address) === 6 ? canonicalIPv6(address) : address;
}

/** The interfaces' addresses: IPv4 only for `0.0.0.0`, both families for `::`. */
function machineAddresses(
  family: 4 | 6,
  interfaces: ReturnType<typeof networkInterfaces>,
): string[] {
  return Object.values(interfaces)
    .flatMap((list) => list ?? [])
    .filter((info) => family === 6 || info.family === 'IPv4')
    .map((info) => (info.family === 'IPv6' ? canonicalIPv6(info.address) : info.address));
}

/** The machine's interfaces; none where the system refuses to list them (some sandboxes). */
function interfacesOrNone(): ReturnType<typeof networkInterfaces> {
  try {
    return networkInterfaces();
  } catch {
    return {};
  }
}

function isDnsName(name: string): boolean {
  try {
    checkedDnsName(name);
    return true;
  } catch {
    return false;
  }
}

function unbracketed(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
