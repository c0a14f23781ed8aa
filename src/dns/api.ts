/**
 * Resolving through the API: lists the Services and EndpointSlices of the name's namespace
 * and hands them to the pure resolver. Names outside `svc.<domain>` are NXDOMAIN without a
 * request.
 *
 * @module
 */
import { asKind } from '../api/model/index.js';
import type { ApiClient } from '../client/api-client.js';
import {
  DEFAULT_CLUSTER_DOMAIN,
  type DnsResult,
  parseServiceName,
  resolveName,
} from './resolver.js';

const SERVICES = { group: '', version: 'v1', plural: 'services' } as const;
const ENDPOINT_SLICES = {
  group: 'discovery.k8s.io',
  version: 'v1',
  plural: 'endpointslices',
} as const;

/** What cluster DNS would answer for `name`, from the API's current objects. */
export async function resolveThroughApi(
  client: ApiClient,
  name: string,
  domain = DEFAULT_CLUSTER_DOMAIN,
): Promise<DnsResult> {
  const parsed = parseServiceName(name, domain);
  if (parsed === undefined) return { nxdomain: true };
  const namespace = parsed.namespace;
  const [services, slices] = await Promise.all([
    client.list({ ...SERVICES, namespace }),
    client.list(
      { ...ENDPOINT_SLICES, namespace },
      {
        labelSelector: `kubernetes.io/service-name=${parsed.service}`,
      },
    ),
  ]);
  const snapshot = {
    services: services.items.map((s) => asKind(s, 'Service')),
    endpointSlices: slices.items.map((s) => asKind(s, 'EndpointSlice')),
  };
  return resolveName(name, snapshot, domain);
}
