/**
 * What the garbage collector knows about the API's resources (upstream
 * `GetDeletableResources` + the discovery REST mapper): read from the legacy discovery
 * documents (`/api`, `/api/v1`, `/apis`, `/apis/{g}/{v}`), then
 * - the resources to watch: one per group and plural, the preferred version first, that
 *   support `delete`, `list` and `watch`, minus upstream's ignored resources (Events);
 * - a mapper from an ownerReference's `apiVersion` + `kind` to a REST endpoint and scope.
 *
 * A group version whose document fails to load is reported in `failedGroups`, and the caller
 * keeps what it knew about that group (upstream tolerates partial discovery the same way), so
 * one broken API does not stop collection for the others.
 *
 * @module
 */
import { isJsonObject, type JsonObject } from '../../api/object.js';
import type { ResourceType } from '../../client/resource-path.js';
import { groupOf } from './identity.js';

/** One resource of one group version, as a discovery document lists it. */
export interface DiscoveredResource extends ResourceType {
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
}

export interface DiscoveryResult {
  /** Every top-level resource of every served group version, preferred versions first. */
  readonly resources: DiscoveredResource[];
  /** Groups (`''` = core) with at least one version whose document could not be read. */
  readonly failedGroups: ReadonlySet<string>;
}

/** Reads one absolute API path (`ApiClient.getPath`). */
export type GetPath = (path: string) => Promise<unknown>;

/** Upstream `DefaultIgnoredResources`: Events are never owners worth a watch. */
const IGNORED = new Set(['/events', 'events.k8s.io/events']);
const NEEDED_VERBS = ['delete', 'list', 'watch'];

/** Loads every discovery document; a failing group version is skipped and reported. */
export async function discoverResources(get: GetPath): Promise<DiscoveryResult> {
  const failedGroups = new Set<string>();
  const groupVersions: { group: string; version: string; path: string }[] = [];
  const core = asRecord(await get('/api'));
  for (const v of stringList(core.versions)) {
    groupVersions.push({ group: '', version: v, path: `/api/${v}` });
  }
  const groups = asRecord(await get('/apis'));
  for (const g of recordList(groups.groups)) {
    const name = typeof g.name === 'string' ? g.name : '';
    const preferred = asRecord(g.preferredVersion).version;
    for (const version of orderedVersions(recordList(g.versions), preferred)) {
      groupVersions.push({ group: name, version, path: `/apis/${name}/${version}` });
    }
  }
  const lists = await Promise.all(
    groupVersions.map(async (gv) => {
      try {
        return parseResourceList(await get(gv.path), gv.group, gv.version);
      } catch {
        failedGroups.add(gv.group);
        return [];
      }
    }),
  );
  return { resources: lists.flat(), failedGroups };
}

/** The versions of a group, its preferred version first. */
function orderedVersions(versions: Record<string, unknown>[], preferred: unknown): string[] {
  const names = versions.flatMap((v) => (typeof v.version === 'string' ? [v.version] : []));
  if (typeof preferred !== 'string' || !names.includes(preferred)) return names;
  return [preferred, ...names.filter((n) => n !== preferred)];
}

/** The top-level resources of an `APIResourceList` (subresources such as `pods/status` dropped). */
export function parseResourceList(
  doc: unknown,
  group: string,
  version: string,
): DiscoveredResource[] {
  const out: DiscoveredResource[] = [];
  for (const r of recordList(asRecord(doc).resources)) {
    if (typeof r.name !== 'string' || r.name === '' || r.name.includes('/')) continue;
    if (typeof r.kind !== 'string' || r.kind === '') continue;
    out.push({
      group,
      version,
      plural: r.name,
      kind: r.kind,
      namespaced: r.namespaced === true,
      verbs: stringList(r.verbs),
    });
  }
  return out;
}

/** `group/plural`, the key of one watched resource whatever its version. */
export function resourceKey(r: { readonly group: string; readonly plural: string }): string {
  return `${r.group}/${r.plural}`;
}

/** The resources the collector watches: first version seen per group/plural, deletable ones. */
export function deletableResources(all: readonly DiscoveredResource[]): DiscoveredResource[] {
  const byKey = new Map<string, DiscoveredResource>();
  for (const r of all) {
    const key = resourceKey(r);
    if (byKey.has(key) || IGNORED.has(key)) continue;
    if (!NEEDED_VERBS.every((v) => r.verbs.includes(v))) continue;
    byKey.set(key, r);
  }
  return [...byKey.values()];
}

/**
 * Maps `apiVersion` + `kind` to a resource. The ref's own version wins when it is served;
 * otherwise any served version of the same group and kind (the preferred one first), since an
 * object keeps its identity across versions and a ref written at an old version still names it.
 */
export class RestMapper {
  readonly #byGroupKind = new Map<string, DiscoveredResource[]>();

  constructor(resources: readonly DiscoveredResource[]) {
    for (const r of resources) {
      const key = `${r.group}/${r.kind}`;
      const list = this.#byGroupKind.get(key) ?? [];
      list.push(r);
      this.#byGroupKind.set(key, list);
    }
  }

  /** Every resource the mapper knows (for merging with a partial rediscovery). */
  all(): DiscoveredResource[] {
    return [...this.#byGroupKind.values()].flat();
  }

  resolve(apiVersion: string, kind: string): DiscoveredResource | undefined {
    const group = groupOf(apiVersion);
    const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
    const candidates = this.#byGroupKind.get(`${group}/${kind}`) ?? [];
    return candidates.find((r) => r.version === version) ?? candidates[0];
  }
}

/**
 * A fresh discovery merged with the previous one: groups that failed this time keep their old
 * resources, so their informers and mappings survive a transient error.
 */
export function mergeDiscovery(
  previous: readonly DiscoveredResource[],
  fresh: DiscoveryResult,
): DiscoveredResource[] {
  const kept = previous.filter((r) => fresh.failedGroups.has(r.group));
  return [...fresh.resources.filter((r) => !fresh.failedGroups.has(r.group)), ...kept];
}

function asRecord(v: unknown): JsonObject {
  return isJsonObject(v) ? v : {};
}

function recordList(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v) ? v.map(asRecord) : [];
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}
