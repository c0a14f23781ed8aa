/**
 * What a request asks the authorizer (upstream `filters.GetAuthorizerAttributes` over
 * `RequestInfoFactory`): a resource request is a verb on group/resource/subresource, in a
 * namespace, maybe named; anything else is the lower-cased HTTP method on the path. Three
 * upstream details a user could notice:
 *
 * - a Namespace addressed by name (`/api/v1/namespaces/team-a`) is also *in* that namespace,
 *   so a RoleBinding in `team-a` can grant `get namespaces` on it;
 * - a list or watch narrowed to one object by `fieldSelector=metadata.name=web` (kubectl
 *   `get pod web -w`, client-go's informer for one object) is authorized for that name;
 * - `exec`, `attach` and `portforward` are authorized as `create` even when they arrive as a
 *   websocket GET (kube-apiserver ≥ 1.30, `AuthorizePodWebsocketUpgradeCreatePermission`).
 *
 * @module
 */
import type { UserInfo } from '../authentication/user.js';
import type { RequestInfo } from '../request-info.js';
import type { Attributes } from './types.js';

const CREATE_ON_UPGRADE = new Set(['exec', 'attach', 'portforward']);

export function requestAttributes(
  user: UserInfo,
  info: RequestInfo,
  method: string,
  query: URLSearchParams,
): Attributes {
  if (info.kind === 'non-resource') {
    return { user, verb: method.toLowerCase(), resourceRequest: false, path: info.path };
  }
  const namespaceObject = info.group === '' && info.resource === 'namespaces' && info.name !== '';
  const pod = info.group === '' && info.resource === 'pods';
  const verb =
    pod && CREATE_ON_UPGRADE.has(info.subresource) && info.verb === 'get' ? 'create' : info.verb;
  return {
    user,
    verb,
    resourceRequest: true,
    namespace: namespaceObject ? info.name : info.namespace,
    apiGroup: info.group,
    apiVersion: info.version,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name !== '' ? info.name : (selectedName(info.verb, query) ?? ''),
    ...selectors(query),
  };
}

function selectors(query: URLSearchParams): Pick<Attributes, 'fieldSelector' | 'labelSelector'> {
  const field = query.get('fieldSelector');
  const label = query.get('labelSelector');
  return {
    ...(field !== null ? { fieldSelector: field } : {}),
    ...(label !== null ? { labelSelector: label } : {}),
  };
}

/** The name a list or watch is narrowed to by `metadata.name=<name>` (upstream ≥ 1.10). */
function selectedName(verb: string, query: URLSearchParams): string | undefined {
  if (verb !== 'list' && verb !== 'watch') return undefined;
  const selector = query.get('fieldSelector');
  if (selector === null) return undefined;
  for (const term of selector.split(',')) {
    const m = /^metadata\.name(==?)(.+)$/.exec(term.trim());
    if (m !== null) return m[2];
  }
  return undefined;
}
