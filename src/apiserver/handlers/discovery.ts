/**
 * Discovery: the legacy documents (`/api`, `/apis`, `/apis/{g}`, `/api/v1`, `/apis/{g}/{v}`)
 * and aggregated discovery (`apidiscovery.k8s.io` v2 and v2beta1) for `/api` and `/apis`,
 * served only when the client asks for that exact media type. All built from the registry
 * on each request, so CRDs appear and disappear at once, plus the {@link ExtraResource}s the
 * server serves outside it (the Clock, which is never stored).
 *
 * @module
 */
import type { ResourceDefinition } from '../../api/resource.js';
import { DISCOVERY_CONTENT_TYPE, type DiscoveryFormat } from '../http/media.js';
import type { GroupVersions, ResourceRegistry } from '../registry.js';

const ALL_VERBS = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];
const SUB_VERBS = ['get', 'patch', 'update'];
/** componentstatuses are computed on read (upstream's deprecated read-only REST). */
const COMPONENT_STATUS_VERBS = ['get', 'list'];
/** `POST …/bindings` is upstream's one verb for the binding resource. */
const BINDING_VERBS = ['create'];

/** The verbs discovery lists for a registry resource. */
function verbsOf(d: ResourceDefinition): readonly string[] {
  if (d.verbs !== undefined) return d.verbs;
  if (d.group !== '') return ALL_VERBS;
  if (d.plural === 'componentstatuses') return COMPONENT_STATUS_VERBS;
  if (d.plural === 'bindings') return BINDING_VERBS;
  return ALL_VERBS;
}

/** A resource served beside the registry's: its names, scope and its own verbs. */
export interface ExtraResource {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
}

export interface DiscoveryAnswer {
  readonly body: object;
  readonly contentType: string;
}

/** `GET /api`. */
export function coreDiscovery(
  registry: ResourceRegistry,
  format: DiscoveryFormat,
  serverAddress: string,
): DiscoveryAnswer {
  if (format !== 'legacy') {
    return aggregated(
      format,
      registry.hasGroupVersion('', 'v1') ? [groupDiscovery(registry, '', ['v1'])] : [],
    );
  }
  return {
    contentType: 'application/json',
    body: {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
    },
  };
}

/** `GET /apis`. */
export function groupsDiscovery(
  registry: ResourceRegistry,
  format: DiscoveryFormat,
  extra: readonly ExtraResource[] = [],
): DiscoveryAnswer {
  const groups = servedGroups(registry, extra);
  if (format !== 'legacy') {
    return aggregated(
      format,
      groups.map((g) => groupDiscovery(registry, g.group, g.versions, extra)),
    );
  }
  return {
    contentType: 'application/json',
    body: {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: groups.map((g) => apiGroup(g.group, g.versions)),
    },
  };
}

/** `GET /apis/{group}`, or undefined when the group is not served. */
export function groupDocument(
  registry: ResourceRegistry,
  group: string,
  extra: readonly ExtraResource[] = [],
): object | undefined {
  const g = servedGroups(registry, extra).find((x) => x.group === group);
  if (g === undefined) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g.group, g.versions) };
}

/** The registry's named groups, then those only extra resources serve. */
function servedGroups(
  registry: ResourceRegistry,
  extra: readonly ExtraResource[],
): GroupVersions[] {
  const groups = registry.groups();
  for (const x of extra) {
    const i = groups.findIndex((g) => g.group === x.group);
    const g = groups[i];
    if (g === undefined) groups.push({ group: x.group, versions: [x.version] });
    else if (!g.versions.includes(x.version)) {
      groups[i] = { group: g.group, versions: [...g.versions, x.version] };
    }
  }
  return groups;
}

function extrasIn(
  extra: readonly ExtraResource[],
  group: string,
  version: string,
): ExtraResource[] {
  return extra.filter((x) => x.group === group && x.version === version);
}

function apiGroup(group: string, versions: readonly string[]): object {
  const gvs = versions.map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
  return { name: group, versions: gvs, preferredVersion: gvs[0] };
}

/** `GET /api/v1` or `/apis/{g}/{v}`: an APIResourceList, or undefined when not served. */
export function resourceList(
  registry: ResourceRegistry,
  group: string,
  version: string,
  extra: readonly ExtraResource[] = [],
): object | undefined {
  const defs = registry.inGroupVersion(group, version);
  const extras = extrasIn(extra, group, version);
  if (defs.length === 0 && extras.length === 0) return undefined;
  const resources: object[] = [];
  for (const d of defs) {
    resources.push(apiResource(d));
    for (const s of subresources(d)) {
      resources.push({
        name: `${d.plural}/${s.name}`,
        singularName: '',
        namespaced: d.namespaced,
        ...(s.group !== undefined ? { group: s.group, version: s.version } : {}),
        kind: s.kind,
        verbs: s.verbs,
      });
    }
  }
  for (const x of extras) {
    resources.push({
      name: x.plural,
      singularName: x.singular,
      namespaced: x.namespaced,
      kind: x.kind,
      verbs: x.verbs,
    });
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group === '' ? version : `${group}/${version}`,
    resources,
  };
}

function apiResource(d: ResourceDefinition): object {
  return {
    name: d.plural,
    singularName: d.singular,
    namespaced: d.namespaced,
    kind: d.kind,
    verbs: verbsOf(d),
    ...(d.shortNames && d.shortNames.length > 0 ? { shortNames: d.shortNames } : {}),
    ...(d.categories && d.categories.length > 0 ? { categories: d.categories } : {}),
  };
}

interface Subresource {
  readonly name: string;
  readonly kind: string;
  readonly group?: string;
  readonly version?: string;
  readonly verbs: readonly string[];
}

function subresources(d: ResourceDefinition): Subresource[] {
  const out: Subresource[] = [];
  if (d.group === '' && d.plural === 'namespaces')
    out.push({ name: 'finalize', kind: d.kind, verbs: ['update'] });
  if (d.group === '' && d.plural === 'pods') {
    out.push({ name: 'binding', kind: 'Binding', verbs: ['create'] });
    // kubectl drain looks for this entry (group/version policy/v1) before it uses evictions.
    out.push({
      name: 'eviction',
      kind: 'Eviction',
      group: 'policy',
      version: 'v1',
      verbs: ['create'],
    });
  }
  if (d.scale !== undefined) {
    out.push({
      name: 'scale',
      kind: 'Scale',
      group: 'autoscaling',
      version: 'v1',
      verbs: SUB_VERBS,
    });
  }
  if (d.group === '' && d.plural === 'serviceaccounts') {
    out.push({
      name: 'token',
      kind: 'TokenRequest',
      group: 'authentication.k8s.io',
      version: 'v1',
      verbs: ['create'],
    });
  }
  if (d.group === 'certificates.k8s.io' && d.plural === 'certificatesigningrequests')
    out.push({ name: 'approval', kind: d.kind, verbs: SUB_VERBS });
  if (d.statusSubresource) out.push({ name: 'status', kind: d.kind, verbs: SUB_VERBS });
  return out;
}

function groupDiscovery(
  registry: ResourceRegistry,
  group: string,
  versions: readonly string[],
  extra: readonly ExtraResource[] = [],
): object {
  return {
    metadata: { name: group, creationTimestamp: null },
    versions: versions.map((version) => ({
      version,
      resources: [
        ...registry.inGroupVersion(group, version).map((d) => ({
          resource: d.plural,
          responseKind: { group, version, kind: d.kind },
          scope: d.namespaced ? 'Namespaced' : 'Cluster',
          singularResource: d.singular,
          verbs: verbsOf(d),
          ...(d.shortNames && d.shortNames.length > 0 ? { shortNames: d.shortNames } : {}),
          ...(d.categories && d.categories.length > 0 ? { categories: d.categories } : {}),
          ...subresourceDiscovery(d, group, version),
        })),
        ...extrasIn(extra, group, version).map((x) => ({
          resource: x.plural,
          responseKind: { group, version, kind: x.kind },
          scope: x.namespaced ? 'Namespaced' : 'Cluster',
          singularResource: x.singular,
          verbs: x.verbs,
        })),
      ],
      freshness: 'Current',
    })),
  };
}

function subresourceDiscovery(d: ResourceDefinition, group: string, version: string): object {
  const subs = subresources(d);
  if (subs.length === 0) return {};
  return {
    subresources: subs.map((s) => ({
      subresource: s.name,
      responseKind: { group: s.group ?? group, version: s.version ?? version, kind: s.kind },
      verbs: s.verbs,
    })),
  };
}

function aggregated(format: Exclude<DiscoveryFormat, 'legacy'>, items: object[]): DiscoveryAnswer {
  return {
    contentType: DISCOVERY_CONTENT_TYPE[format],
    body: {
      kind: 'APIGroupDiscoveryList',
      apiVersion: `apidiscovery.k8s.io/${format}`,
      metadata: {},
      items,
    },
  };
}
