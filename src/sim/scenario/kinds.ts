/**
 * Kind → REST resource, from the server's discovery documents (kubectl's RESTMapper, reduced):
 * a scenario names `kind: StatefulSet` and optionally `apiVersion`; the runner needs
 * `/apis/apps/v1/…/statefulsets` and whether the kind is namespaced. Without an apiVersion
 * the group's preferred version wins, the core group first, then the groups in the order
 * the server lists them (as kubectl). Custom resources appear once their CRD is served, so a
 * miss re-reads discovery before it fails.
 *
 * @module
 */
import { isJsonObject, type JsonObject } from '../../api/object.js';
import type { ApiClient } from '../../client/api-client.js';
import type { ResourceType } from '../../client/resource-path.js';
import type { KindRef } from './types.js';

export interface ResourceInfo extends ResourceType {
  readonly kind: string;
  /** `v1`, `apps/v1`. */
  readonly apiVersion: string;
  readonly namespaced: boolean;
}

export type DiscoveryClient = Pick<ApiClient, 'getPath'>;

interface ApiResource {
  name: string;
  kind: string;
  namespaced: boolean;
}

interface GroupVersion {
  group: string;
  version: string;
  preferred: boolean;
}

export class KindNotFoundError extends Error {
  constructor(ref: KindRef) {
    super(
      `the server has no kind ${ref.kind}${ref.apiVersion ? ` in ${ref.apiVersion}` : ''} (is its CRD applied and established?)`,
    );
    this.name = 'KindNotFoundError';
  }
}

export class KindResolver {
  readonly #client: DiscoveryClient;
  /** Every served resource, in kubectl's priority order. */
  #resources: ResourceInfo[] | undefined;

  constructor(client: DiscoveryClient) {
    this.#client = client;
  }

  /** The resource of `ref`; re-reads discovery once on a miss; rejects with {@link KindNotFoundError}. */
  async resolve(ref: KindRef): Promise<ResourceInfo> {
    const cached = this.#resources && find(this.#resources, ref);
    if (cached) return cached;
    this.#resources = await this.#discover();
    const found = find(this.#resources, ref);
    if (!found) throw new KindNotFoundError(ref);
    return found;
  }

  /** Forgets discovery (after a CRD was applied). */
  invalidate(): void {
    this.#resources = undefined;
  }

  async #discover(): Promise<ResourceInfo[]> {
    const versions: GroupVersion[] = [];
    const core = objectOf(await this.#client.getPath('/api'));
    for (const [i, version] of strings(core.versions).entries()) {
      versions.push({ group: '', version, preferred: i === 0 });
    }
    const groups = objectOf(await this.#client.getPath('/apis'));
    for (const g of objects(groups.groups)) {
      const name = g.name;
      if (typeof name !== 'string') continue;
      const listed = objects(g.versions).flatMap((v) => strings([v.version]));
      const preferred = strings([objectOf(g.preferredVersion).version])[0] ?? listed[0];
      for (const version of listed) {
        versions.push({ group: name, version, preferred: version === preferred });
      }
    }
    const lists = await Promise.all(
      versions.map(async (gv) => {
        const path = gv.group === '' ? `/api/${gv.version}` : `/apis/${gv.group}/${gv.version}`;
        const list = objectOf(await this.#client.getPath(path));
        return { gv, resources: objects(list.resources).flatMap(apiResource) };
      }),
    );
    // Preferred versions first, keeping the server's group order within each half.
    const ordered = [
      ...lists.filter((l) => l.gv.preferred),
      ...lists.filter((l) => !l.gv.preferred),
    ];
    return ordered.flatMap(({ gv, resources }) =>
      resources
        .filter((r) => !r.name.includes('/'))
        .map((r) => ({
          group: gv.group,
          version: gv.version,
          plural: r.name,
          kind: r.kind,
          apiVersion: gv.group === '' ? gv.version : `${gv.group}/${gv.version}`,
          namespaced: r.namespaced,
        })),
    );
  }
}

/** A discovery document's object, or an empty one for anything else. */
function objectOf(v: unknown): JsonObject {
  return isJsonObject(v) ? v : {};
}

function objects(v: unknown): JsonObject[] {
  return Array.isArray(v) ? v.filter(isJsonObject) : [];
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
}

/** One entry of an `APIResourceList`'s `resources`, when it has the fields kinds need. */
function apiResource(r: JsonObject): ApiResource[] {
  const { name, kind, namespaced } = r;
  if (typeof name !== 'string' || typeof kind !== 'string') return [];
  return [{ name, kind, namespaced: namespaced === true }];
}

function find(resources: readonly ResourceInfo[], ref: KindRef): ResourceInfo | undefined {
  return resources.find(
    (r) => r.kind === ref.kind && (ref.apiVersion === undefined || r.apiVersion === ref.apiVersion),
  );
}

/** The collection path of a resource, in one namespace or all (`/api/v1/pods`). */
export function collectionPath(r: ResourceType, namespace?: string): string {
  const base = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  return namespace
    ? `${base}/namespaces/${encodeURIComponent(namespace)}/${r.plural}`
    : `${base}/${r.plural}`;
}
