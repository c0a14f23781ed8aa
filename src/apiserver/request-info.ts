/**
 * Turns a request path into what it addresses, after upstream's `RequestInfoFactory`
 * (`k8s.io/apiserver/pkg/endpoints/request/requestinfo.go`).
 *
 * @module
 */

import { queryFlag } from './http/query-bool.js';

export type Verb =
  | 'get'
  | 'list'
  | 'watch'
  | 'create'
  | 'update'
  | 'patch'
  | 'delete'
  | 'deletecollection';

/** A request for a resource: `/api/v1/namespaces/default/pods/web/status`. */
export interface ResourceRequest {
  readonly kind: 'resource';
  readonly group: string;
  readonly version: string;
  readonly namespace: string;
  readonly resource: string;
  readonly name: string;
  readonly subresource: string;
  readonly verb: Verb;
}

/** Any other path: discovery, health, OpenAPI, version, metrics. */
export interface NonResourceRequest {
  readonly kind: 'non-resource';
  readonly path: string;
  /** Path segments after the prefix, e.g. `['apis', 'apps', 'v1']`. */
  readonly parts: readonly string[];
}

export type RequestInfo = ResourceRequest | NonResourceRequest;

/** Subresources of a namespace that are addressed as `/api/v1/namespaces/{name}/{sub}`. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/**
 * Classifies a request. Returns a non-resource request for anything that is not under a
 * group-version prefix with at least a resource segment.
 */
export function parseRequestInfo(
  method: string,
  pathname: string,
  query: URLSearchParams,
): RequestInfo {
  const parts = splitPath(pathname);
  const nonResource: NonResourceRequest = { kind: 'non-resource', path: pathname, parts };
  // An empty segment names nothing upstream routes: not found, never a neighbouring key.
  if (parts.includes('')) return nonResource;
  let rest: string[];
  let group: string;
  let version: string;
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else {
    return nonResource;
  }
  let namespace = '';
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1]!;
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2]!)) {
      rest = rest.slice(2);
    } else {
      // The namespace object itself (or its status/finalize): cluster-scoped.
      rest = ['namespaces', namespace, ...rest.slice(2)];
      namespace = '';
    }
  }
  const [resource = '', name = '', subresource = '', ...extra] = rest;
  if (extra.length > 0) return nonResource;
  const verb = verbFor(method, name !== '', query);
  if (verb === undefined) return nonResource;
  return { kind: 'resource', group, version, namespace, resource, name, subresource, verb };
}

function verbFor(method: string, hasName: boolean, query: URLSearchParams): Verb | undefined {
  switch (method) {
    case 'GET':
    case 'HEAD': {
      if (queryFlag(query, 'watch')) return 'watch';
      return hasName ? 'get' : 'list';
    }
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return hasName ? 'delete' : 'deletecollection';
    default:
      return undefined;
  }
}

/**
 * Splits an already-decoded path on `/` as upstream does (`strings.Trim(path, "/")`, then
 * split): leading and trailing slashes are dropped, inner empty segments are kept, so
 * `namespaces//pods` cannot shift `pods` into the namespace's place. Segments are not decoded
 * again (a second decode would turn `%252e%252e` into `..`).
 */
function splitPath(pathname: string): string[] {
  const trimmed = pathname.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? [] : trimmed.split('/');
}
