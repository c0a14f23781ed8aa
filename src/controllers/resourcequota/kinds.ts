/**
 * Where the quota controller lists a counted kind: core kinds at `v1`, others at their
 * group's preferred version from discovery (`/apis/<group>`), remembered once found. A group
 * the server does not serve has nothing to count.
 *
 * @module
 */
import { isJsonObject } from '../../api/object.js';
import { isNotFound } from '../../client/api-client.js';
import type { ResourceType } from '../../client/resource-path.js';

/** Reads one absolute API path (`ApiClient.getPath`). */
export type GetPath = (path: string) => Promise<unknown>;

export class KindResolver {
  readonly #getPath: GetPath;
  readonly #versions = new Map<string, string>();

  constructor(getPath: GetPath) {
    this.#getPath = getPath;
  }

  /** The resource type of `group`/`resource`; undefined when the group is not served. */
  async resolve(group: string, resource: string): Promise<ResourceType | undefined> {
    if (group === '') return { group, version: 'v1', plural: resource };
    let version = this.#versions.get(group);
    if (version === undefined) {
      try {
        const doc = await this.#getPath(`/apis/${group}`);
        const preferredVersion = isJsonObject(doc) ? doc.preferredVersion : undefined;
        const preferred = isJsonObject(preferredVersion) ? preferredVersion.version : undefined;
        if (typeof preferred !== 'string') return undefined;
        version = preferred;
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
      this.#versions.set(group, version);
    }
    return { group, version, plural: resource };
  }
}
