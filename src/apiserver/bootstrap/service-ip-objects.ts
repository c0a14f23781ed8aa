/**
 * The objects of KEP-1880 (MultiCIDRServiceAllocator, GA and on by default in v1.33):
 * the default `kubernetes` ServiceCIDR holding the service range the API server allocates
 * from, Ready once its CIDRs match (upstream's `defaultservicecidr` controller), and one
 * IPAddress per allocated ClusterIP, named by the address and pointing at its Service
 * (upstream's IP allocator writes them with the Service; here they follow the stored
 * Services within a reconcile pass, see `cluster-objects.ts`).
 *
 * @module
 */
import { semanticEqual } from '../../api/kinds/common.js';
import { getArr, getObj, getStr, objects } from '../../api/kinds/json.js';
import {
  DEFAULT_SERVICE_CIDR_NAME,
  IP_ALLOCATOR_MANAGER,
  IP_FAMILY_LABEL,
  IP_MANAGED_BY_LABEL,
} from '../../api/kinds/networking-servicecidr.js';
import type { JsonObject, KubeObject } from '../../api/object.js';
import { ipFamily } from '../../util/ip.js';

/** kube-apiserver's default `--service-cluster-ip-range`, the range `service-allocator.ts` uses. */
export const DEFAULT_SERVICE_CIDR = '10.96.0.0/12';
export const SERVICE_CIDR_READY_MESSAGE = 'Kubernetes default Service CIDR is ready';

/** The default ServiceCIDR as created. */
export function defaultServiceCIDR(cidrs: readonly string[]): KubeObject {
  return { metadata: { name: DEFAULT_SERVICE_CIDR_NAME }, spec: { cidrs: [...cidrs] } };
}

/**
 * Upstream `syncStatus`: a ServiceCIDR whose CIDRs are this server's gets `Ready` True (no
 * reason), unless it is being deleted or is Ready already. Undefined: nothing to write.
 */
export function planServiceCIDRStatus(
  current: KubeObject,
  cidrs: readonly string[],
  now: string,
): JsonObject | undefined {
  if (current.metadata?.deletionTimestamp) return undefined;
  const status = getObj(current, 'status') ?? {};
  const conditions = objects(status, 'conditions');
  const ready = conditions.find((c) => c.type === 'Ready');
  if (ready?.status === 'True') return undefined;
  if (!semanticEqual(getArr(getObj(current, 'spec'), 'cidrs') ?? [], [...cidrs])) return undefined;
  const condition = {
    type: 'Ready',
    status: 'True',
    lastTransitionTime: now,
    reason: '',
    message: SERVICE_CIDR_READY_MESSAGE,
  };
  return { ...status, conditions: [...conditions.filter((c) => c !== ready), condition] };
}

/** An address as `netip.Addr.String()` writes it (IPv6 lower case and compressed). */
function canonical(ip: string): string | undefined {
  const family = ipFamily(ip);
  if (family === 4) return ip;
  if (family === 6) return new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  return undefined;
}

/** The IPAddress each allocated ClusterIP of `services` should have, by name. */
export function desiredIPAddresses(services: readonly KubeObject[]): Map<string, KubeObject> {
  const out = new Map<string, KubeObject>();
  for (const svc of services) {
    if (svc.metadata?.deletionTimestamp) continue;
    const spec = getObj(svc, 'spec');
    const ips = getArr(spec, 'clusterIPs') ?? [getStr(spec, 'clusterIP')];
    for (const raw of ips) {
      const ip = typeof raw === 'string' ? canonical(raw) : undefined;
      if (ip === undefined || out.has(ip)) continue;
      out.set(ip, {
        metadata: {
          name: ip,
          labels: {
            [IP_FAMILY_LABEL]: ipFamily(ip) === 6 ? 'IPv6' : 'IPv4',
            [IP_MANAGED_BY_LABEL]: IP_ALLOCATOR_MANAGER,
          },
        },
        spec: {
          parentRef: {
            group: '',
            resource: 'services',
            namespace: svc.metadata?.namespace ?? '',
            name: svc.metadata?.name ?? '',
          },
        },
      });
    }
  }
  return out;
}

/** The writes that make the stored IPAddresses match: the allocator's own ones only. */
export function planIPAddresses(
  current: readonly KubeObject[],
  desired: ReadonlyMap<string, KubeObject>,
): { readonly create: KubeObject[]; readonly remove: string[] } {
  const byName = new Map(current.map((ip) => [ip.metadata?.name ?? '', ip]));
  const remove: string[] = [];
  for (const [name, ip] of byName) {
    if (ip.metadata?.labels?.[IP_MANAGED_BY_LABEL] !== IP_ALLOCATOR_MANAGER) continue;
    const wanted = desired.get(name);
    // Gone, or now another Service's (the address was freed and handed out again).
    if (wanted === undefined || !semanticEqual(getObj(ip, 'spec'), getObj(wanted, 'spec')))
      remove.push(name);
  }
  const create = [...desired].filter(([name]) => !byName.has(name)).map(([, ip]) => ip);
  return { create, remove };
}
