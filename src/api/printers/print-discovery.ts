/**
 * discovery.k8s.io/v1 EndpointSlice rows, as upstream `printEndpointSlice`: the address type,
 * up to three ports and up to three addresses, each list followed by `+ N more...` when cut
 * and `<unset>` when empty. Column descriptions are the v1beta1 docs upstream's printer cites.
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import { ageOf, nameOf, objs, str } from './access.js';
import { AGE, column, NAME } from './columns.js';
import type { PrintedRow } from './types.js';

const text = (t: string) => ({ text: t });

export const ENDPOINT_SLICE_COLUMNS = [
  NAME,
  column(
    'AddressType',
    'string',
    text(
      'addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name.',
    ),
  ),
  column(
    'Ports',
    'string',
    text(
      'ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name. When ports is empty, it indicates that there are no defined ports. When a port is defined with a nil port value, it indicates "all ports". Each slice may include a maximum of 100 ports.',
    ),
  ),
  column(
    'Endpoints',
    'string',
    text(
      'endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.',
    ),
  ),
  AGE,
];

const MAX_LISTED = 3;

/** Upstream `listWithMoreString`. */
function listWithMore(items: readonly string[]): string {
  const shown = items.slice(0, MAX_LISTED).join(',');
  if (items.length > MAX_LISTED) return `${shown} + ${items.length - MAX_LISTED} more...`;
  return shown === '' ? '<unset>' : shown;
}

/** Upstream `formatDiscoveryPorts`: the port number, else its name, else `*` (all ports). */
export function formatDiscoveryPorts(ports: unknown): string {
  return listWithMore(
    objs(ports).map((p) => {
      if (typeof p.port === 'number') return String(p.port);
      return typeof p.name === 'string' ? p.name : '*';
    }),
  );
}

/** Upstream `formatDiscoveryEndpoints`: every endpoint's addresses, in order. */
export function formatDiscoveryEndpoints(endpoints: unknown): string {
  return listWithMore(
    objs(endpoints).flatMap((e) => (Array.isArray(e.addresses) ? e.addresses.map(str) : [])),
  );
}

export function printEndpointSlice(o: KubeObject, now: Date): PrintedRow {
  return {
    cells: [
      nameOf(o),
      str(o.addressType),
      formatDiscoveryPorts(o.ports),
      formatDiscoveryEndpoints(o.endpoints),
      ageOf(o, now),
    ],
  };
}
