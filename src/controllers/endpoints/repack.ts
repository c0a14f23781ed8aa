/**
 * Subset packing, ordering and truncation, after upstream `endpoints.RepackSubsets`,
 * `SortSubsets` and the controller's `truncateEndpoints`.
 *
 * Repacking turns one-address-one-port subsets into the N-to-M form the API wants: addresses
 * that serve exactly the same ports share one subset. An address listed ready for a port stays
 * ready even if another entry lists it not ready (upstream keeps the "ready" bit once set).
 * Upstream orders ports and subsets by a hash of their Go dump; that order cannot be
 * reproduced here, so this orders them by their contents instead (any fixed order serves
 * the purpose, which is that equal content compares equal).
 *
 * @module
 */
import type { EndpointAddress, EndpointPort, EndpointSubset } from '../../api/model/index.js';

/** An address's identity in repacking: its IP and its target's uid (two pods may share an IP). */
function addressKey(a: EndpointAddress): string {
  return `${a.ip}\u0000${a.targetRef?.uid ?? ''}`;
}

function portKey(p: EndpointPort | undefined): string {
  if (p === undefined) return '';
  return JSON.stringify([p.name ?? '', p.port, p.protocol, p.appProtocol ?? null]);
}

/**
 * `items` ordered by `key` (byte order), each key computed once: a comparator that built both
 * keys per comparison made the endpoints controller's sorts 2 % of the controller thread with
 * a 100-pod Service (~700 comparisons per sort, a sort per sync).
 */
function sortedByKey<T>(items: readonly T[], key: (item: T) => string): T[] {
  const keyed = items.map((item) => ({ k: key(item), item }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  return keyed.map((e) => e.item);
}

function subsetKey(s: EndpointSubset): string {
  return JSON.stringify([
    (s.addresses ?? []).map(addressKey),
    (s.notReadyAddresses ?? []).map(addressKey),
    (s.ports ?? []).map(portKey),
  ]);
}

/**
 * A subset with its lists sorted and empty lists dropped (the wire's `omitempty`). Addresses
 * as upstream's `LessEndpointAddress`: by IP, then by target uid (byte order, not numeric).
 */
function sortedSubset(s: EndpointSubset): EndpointSubset {
  const addresses = sortedByKey(s.addresses ?? [], addressKey);
  const notReady = sortedByKey(s.notReadyAddresses ?? [], addressKey);
  const ports = sortedByKey(s.ports ?? [], portKey);
  return {
    ...(addresses.length > 0 ? { addresses } : {}),
    ...(notReady.length > 0 ? { notReadyAddresses: notReady } : {}),
    ...(ports.length > 0 ? { ports } : {}),
  };
}

/** Upstream `SortSubsets`: addresses, ports and the subsets themselves in one fixed order. */
export function sortSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  return sortedByKey(subsets.map(sortedSubset), subsetKey);
}

interface PortEntry {
  readonly port: EndpointPort | undefined;
  /** Address key → ready. Insertion keeps the first full address seen for a key. */
  readonly ready: Map<string, boolean>;
}

/** Upstream `mapAddressByPort`: per port, which addresses serve it and whether ready. */
function mapByPort(
  subsets: readonly EndpointSubset[],
): [Map<string, EndpointAddress>, Map<string, PortEntry>] {
  const all = new Map<string, EndpointAddress>();
  const byPort = new Map<string, PortEntry>();
  const note = (entry: PortEntry, addr: EndpointAddress, ready: boolean): void => {
    const ak = addressKey(addr);
    if (!all.has(ak)) all.set(ak, addr);
    if (entry.ready.get(ak) !== true) entry.ready.set(ak, ready);
  };
  for (const s of subsets) {
    // A subset without ports (a headless Service without ports) keeps its addresses under a
    // "no port" sentinel, as upstream's port -1.
    const ports: readonly (EndpointPort | undefined)[] =
      (s.ports ?? []).length > 0 ? (s.ports ?? []) : [undefined];
    if ((s.addresses ?? []).length + (s.notReadyAddresses ?? []).length === 0) continue;
    for (const port of ports) {
      const pk = portKey(port);
      const entry = byPort.get(pk) ?? { port, ready: new Map<string, boolean>() };
      byPort.set(pk, entry);
      for (const a of s.addresses ?? []) note(entry, a, true);
      for (const a of s.notReadyAddresses ?? []) note(entry, a, false);
    }
  }
  return [all, byPort];
}

/** Upstream `RepackSubsets`: group addresses by the exact set of ports they serve, then sort. */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const [all, byPort] = mapByPort(subsets);
  // Address sets with their ready bits → the ports they serve.
  const groups = new Map<string, { ready: Map<string, boolean>; ports: EndpointPort[] }>();
  for (const entry of byPort.values()) {
    const key = JSON.stringify([...entry.ready.entries()].sort());
    const group = groups.get(key) ?? { ready: entry.ready, ports: [] };
    groups.set(key, group);
    if (entry.port !== undefined) group.ports.push(entry.port);
  }
  const out: EndpointSubset[] = [];
  for (const { ready, ports } of groups.values()) {
    const addresses: EndpointAddress[] = [];
    const notReadyAddresses: EndpointAddress[] = [];
    for (const [ak, isReady] of ready) {
      const addr = all.get(ak);
      if (addr !== undefined) (isReady ? addresses : notReadyAddresses).push(addr);
    }
    out.push({ addresses, notReadyAddresses, ports });
  }
  return sortSubsets(out);
}

/** Total addresses, ready and not ready. */
export function countAddresses(subsets: readonly EndpointSubset[]): {
  ready: number;
  notReady: number;
} {
  let ready = 0;
  let notReady = 0;
  for (const s of subsets) {
    ready += (s.addresses ?? []).length;
    notReady += (s.notReadyAddresses ?? []).length;
  }
  return { ready, notReady };
}

/**
 * Upstream `truncateEndpoints`: keeps at most `max` addresses, ready ones first. When the ready
 * ones alone exceed `max`, every not-ready address goes and each subset keeps a share of `max`
 * proportional to its ready addresses (rounded up, the last subsets getting what is left);
 * otherwise only not-ready addresses are cut, in the same proportional way. Returns undefined
 * when nothing needs cutting.
 */
export function truncateSubsets(
  subsets: readonly EndpointSubset[],
  max: number,
): EndpointSubset[] | undefined {
  const { ready, notReady } = countAddresses(subsets);
  if (ready + notReady <= max) return undefined;
  const cutReady = ready > max;
  const budget = cutReady ? max : max - ready;
  const total = cutReady ? ready : notReady;
  let left = budget;
  return subsets.map((s) => {
    const own = cutReady ? (s.addresses ?? []).length : (s.notReadyAddresses ?? []).length;
    const share = Math.min(Math.ceil((own / total) * budget), left);
    if (cutReady) {
      const addresses = (s.addresses ?? []).slice(0, share);
      left -= addresses.length;
      return { ...s, addresses, notReadyAddresses: [] };
    }
    const notReadyAddresses = (s.notReadyAddresses ?? []).slice(0, share);
    left -= notReadyAddresses.length;
    return { ...s, notReadyAddresses };
  });
}
