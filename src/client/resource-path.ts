/**
 * REST paths of the Kubernetes API (docs/design/wire-protocol.md §2): `/api/{version}` for the core group,
 * `/apis/{group}/{version}` for the others, then `namespaces/{ns}`, the plural, the name and a
 * subresource, e.g. `/api/v1/namespaces/default/pods/web-0/status`.
 *
 * Namespace and name are URL-encoded. As client-go's `IsValidPathSegmentName`, segments that
 * a URL would reinterpret are refused before any request: `.` and `..` (path traversal), and
 * anything containing `/` or `%` (no Kubernetes name can hold them).
 *
 * @module
 */

/** A kind's REST endpoint: `{ group: 'apps', version: 'v1', plural: 'deployments' }`. */
export interface ResourceType {
  /** `''` for the core group (`/api/v1`). */
  readonly group: string;
  readonly version: string;
  readonly plural: string;
}

/** A collection: every namespace when `namespace` is absent or `''`. */
export interface CollectionRef extends ResourceType {
  readonly namespace?: string;
}

/** One object; `namespace` absent or `''` for cluster-scoped kinds. */
export interface ObjectRef extends CollectionRef {
  readonly name: string;
}

export interface ResourcePathParts extends CollectionRef {
  readonly name?: string;
  /** e.g. `status`, `scale`, `binding`, `eviction`; needs a name. */
  readonly subresource?: string;
}

/** The path of a collection, an object or one of its subresources. Throws TypeError on bad parts. */
export function resourcePath(parts: ResourcePathParts): string {
  const { group, version, plural, namespace, name, subresource } = parts;
  if (!version) throw new TypeError('resource path: version is required');
  if (!plural) throw new TypeError('resource path: plural is required');
  const segments = [group === '' ? '/api' : `/apis/${segment('group', group)}`, version];
  if (namespace) segments.push('namespaces', segment('namespace', namespace));
  segments.push(segment('resource', plural));
  if (name !== undefined && name !== '') segments.push(segment('name', name));
  if (subresource) {
    if (name === undefined || name === '') {
      throw new TypeError(`resource path: subresource ${subresource} needs a name`);
    }
    segments.push(segment('subresource', subresource));
  }
  return segments.join('/');
}

/** The object an object's own metadata names, under `type`. */
export function objectRef(
  type: ResourceType,
  object: { metadata?: { name?: string; namespace?: string } },
): ObjectRef {
  const name = object.metadata?.name;
  if (!name) throw new TypeError('object has no metadata.name');
  const namespace = object.metadata?.namespace;
  return { ...type, name, ...(namespace ? { namespace } : {}) };
}

/** One encoded path segment; upstream's path-segment rules first. */
function segment(what: string, value: string): string {
  const problem = pathSegmentProblem(value);
  if (problem !== undefined) {
    throw new TypeError(`invalid ${what} ${JSON.stringify(value)}: ${problem}`);
  }
  return encodeURIComponent(value);
}

/** Upstream `IsValidPathSegmentName` texts. */
function pathSegmentProblem(value: string): string | undefined {
  if (value === '.' || value === '..') return `may not be '${value}'`;
  if (value.includes('/')) return "may not contain '/'";
  if (value.includes('%')) return "may not contain '%'";
  return undefined;
}
