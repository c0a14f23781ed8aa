/**
 * The 403 a request gets when no authorizer allows it (upstream `responsewriters.Forbidden` and
 * `forbiddenMessage` in `k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go`,
 * wrapped by `apierrors.NewForbidden`):
 *
 * - `pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"`
 * - `pods "web" is forbidden: User "jane" cannot get resource "pods/log" in API group "" in the namespace "default"`
 * - `nodes is forbidden: User "jane" cannot list resource "nodes" in API group "" at the cluster scope`
 * - `forbidden: User "jane" cannot get path "/metrics"` (no group and no resource: no prefix)
 *
 * The authorizers' reason, when there is one, follows after `: ` (`…: RBAC: clusterrole… not
 * found`). `&`, `<` and `>` in the message (not in the reason) are written as HTML entities,
 * as upstream does so that the text never reads as HTML.
 *
 * @module
 */
import { type StatusDetails, StatusError } from '../../api/errors.js';
import { goQuote } from './rbac/go-text.js';
import type { Attributes } from './types.js';

/** Upstream `forbiddenMessage`: what the user may not do, without the resource prefix. */
export function forbiddenMessage(a: Attributes): string {
  const user = goQuote(a.user.username);
  if (!a.resourceRequest) {
    return `User ${user} cannot ${a.verb} path ${goQuote(a.path ?? '')}`;
  }
  const subresource = a.subresource ?? '';
  const resource = subresource === '' ? (a.resource ?? '') : `${a.resource ?? ''}/${subresource}`;
  const what = `User ${user} cannot ${a.verb} resource ${goQuote(resource)} in API group ${goQuote(a.apiGroup ?? '')}`;
  const ns = a.namespace ?? '';
  return ns === '' ? `${what} at the cluster scope` : `${what} in the namespace ${goQuote(ns)}`;
}

/** Upstream's `sanitizer`: `&`, `<`, `>` as entities. */
function sanitize(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/**
 * The 403 StatusError for a request the authorizers did not allow, `reason` being the chain's
 * reason (appended when not empty). `details` are `{name, group, kind: resource}`, empty ones
 * left out (a non-resource request has `details: {}`).
 */
export function forbiddenError(a: Attributes, reason: string): StatusError {
  const msg = sanitize(forbiddenMessage(a));
  const err = reason === '' ? msg : `${msg}: ${reason}`;
  const group = a.apiGroup ?? '';
  const resource = a.resource ?? '';
  const name = a.name ?? '';
  return newForbidden(group, resource, name, err);
}

/** Upstream `apierrors.NewForbidden(groupResource, name, err)`. */
export function newForbidden(
  group: string,
  resource: string,
  name: string,
  err: string,
): StatusError {
  const qualified = group === '' ? resource : `${resource}.${group}`;
  let message: string;
  if (group === '' && resource === '') message = `forbidden: ${err}`;
  else if (name === '') message = `${qualified} is forbidden: ${err}`;
  else message = `${qualified} ${goQuote(name)} is forbidden: ${err}`;
  const details: StatusDetails = {};
  if (name !== '') details.name = name;
  if (group !== '') details.group = group;
  if (resource !== '') details.kind = resource;
  return new StatusError(403, 'Forbidden', message, details);
}
