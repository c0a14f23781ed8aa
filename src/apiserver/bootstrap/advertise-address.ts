/**
 * The address the API server advertises in the `kubernetes` Endpoints and EndpointSlice,
 * after kube-apiserver's `DefaultAdvertiseAddress` and `ResolveBindAddress`:
 * `--advertise-address` when given; else the bind address, unless it is loopback or a
 * wildcard (no pod could reach those, and upstream's validation refuses loopback endpoints);
 * then an address of the machine's interfaces. Upstream picks the default route's interface
 * (`ChooseHostInterface`); Node does not expose routes, so this takes the first global
 * unicast IPv4 address in the interfaces' order.
 *
 * Only IPv4 counts: the service range is IPv4, and upstream's reconciler writes only addresses
 * of the service range's family. Undefined when there is none (a sandbox with loopback only,
 * or an IPv6 advertise address): upstream refuses to start then; here the `kubernetes`
 * Service is served without endpoints.
 *
 * @module
 */
import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os';
import { ipFamily } from '../../util/ip.js';

export interface AdvertiseAddressOptions {
  /** The bind address (`--host`): an IP, a wildcard or a name. */
  readonly host: string;
  /** `--advertise-address`. */
  readonly advertiseAddress?: string | undefined;
  /** The machine's interfaces (`os.networkInterfaces()`). */
  readonly interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>;
}

/** An IPv4 address other than unspecified, loopback, link-local or multicast. */
export function isGlobalUnicastIPv4(ip: string): boolean {
  if (ipFamily(ip) !== 4) return false;
  const first = Number(ip.split('.')[0]);
  if (ip === '0.0.0.0' || first === 127 || first >= 224) return false;
  return !ip.startsWith('169.254.');
}

export function advertisedAddress(options: AdvertiseAddressOptions): string | undefined {
  if (options.advertiseAddress !== undefined) {
    return isGlobalUnicastIPv4(options.advertiseAddress) ? options.advertiseAddress : undefined;
  }
  if (isGlobalUnicastIPv4(options.host)) return options.host;
  return Object.values(options.interfaces)
    .flatMap((list) => list ?? [])
    .find((info) => !info.internal && isGlobalUnicastIPv4(info.address))?.address;
}

/** The machine's interfaces; none where the system refuses to list them (some sandboxes). */
export function machineInterfaces(): NodeJS.Dict<NetworkInterfaceInfo[]> {
  try {
    return networkInterfaces();
  } catch {
    return {};
  }
}
