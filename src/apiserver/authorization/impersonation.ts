/**
 * Impersonation (upstream `endpoints/filters/impersonation.go`, kubectl `--as`, `--as-group`,
 * `--as-uid`): a request carrying `Impersonate-User` (and maybe `Impersonate-Group`,
 * `Impersonate-Uid`, `Impersonate-Extra-<key>`) acts as that user once the authenticated
 * requester is allowed the `impersonate` verb on each thing it asks for: `users` (or
 * `serviceaccounts` in the account's namespace for `system:serviceaccount:<ns>:<name>`),
 * `groups`, `uids` and `userextras/<key>` (group `authentication.k8s.io`), each named by the
 * value. The first refusal answers 403 in upstream's words; the headers are then removed so
 * nothing behind the filter sees them.
 *
 * @module
 */
import type { IncomingHttpHeaders } from 'node:http';
import { goQuote } from '../../api/cel/go-syntax.js';
import { StatusError } from '../../api/errors.js';
import {
  ANONYMOUS_USER,
  parseServiceAccountUsername,
  SYSTEM_AUTHENTICATED,
  SYSTEM_UNAUTHENTICATED,
  type UserInfo,
} from '../authentication/user.js';
import { forbiddenError } from './forbidden.js';
import type { Attributes, Authorizer } from './types.js';

export const IMPERSONATE_USER = 'impersonate-user';
export const IMPERSONATE_GROUP = 'impersonate-group';
export const IMPERSONATE_UID = 'impersonate-uid';
export const IMPERSONATE_EXTRA_PREFIX = 'impersonate-extra-';

const AUTHENTICATION_GROUP = 'authentication.k8s.io';

/** Headers as Node keeps them apart (`IncomingMessage.headersDistinct`): names lower-case. */
export type DistinctHeaders = Readonly<Record<string, readonly string[] | undefined>>;

/** One thing the requester asks to act as (upstream builds an `ObjectReference` for each). */
interface ImpersonationTarget {
  readonly kind: 'User' | 'ServiceAccount' | 'Group' | 'UserExtra' | 'UID';
  readonly namespace: string;
  readonly name: string;
  readonly apiVersion: string;
  readonly fieldPath: string;
}

export type ImpersonationResult =
  /** No impersonation header: the request goes on as its requester. */
  | undefined
  | { readonly user: UserInfo }
  /**
   * Refused. A 403 is a Status; a header set without `Impersonate-User` is upstream's
   * `responsewriters.InternalError`: a 500 with `plainTextBody` (`text/plain; charset=utf-8`,
   * `X-Content-Type-Options: nosniff`), not a Status.
   */
  | { readonly error: StatusError; readonly plainTextBody?: string };

/**
 * Whom a request impersonates, if anyone: checks each target with `authorizer` as `requester`
 * and returns the user to act as. `requestUri` is only quoted in the 500 body.
 */
export function impersonate(
  headers: DistinctHeaders,
  requester: UserInfo,
  authorizer: Authorizer,
  requestUri = '',
): ImpersonationResult {
  const targets = impersonationTargets(headers);
  if (targets.length === 0) return undefined;
  if (!targets.some((t) => t.kind === 'User' || t.kind === 'ServiceAccount')) {
    const message = `requested ${goTargets(targets)} without impersonating a user`;
    return {
      error: new StatusError(500, 'InternalError', message),
      plainTextBody: `${htmlSanitize(`Internal Server Error: ${goQuote(requestUri)}: ${message}`)}\n`,
    };
  }
  // Groups given are the authority; without them a service account gets its fixed groups.
  const groupsSpecified = (headers[IMPERSONATE_GROUP]?.length ?? 0) > 0;
  let username = '';
  let uid = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const target of targets) {
    const attributes = attributesFor(target, requester);
    switch (target.kind) {
      case 'ServiceAccount':
        username = `system:serviceaccount:${target.namespace}:${target.name}`;
        if (!groupsSpecified) {
          groups = ['system:serviceaccounts', `system:serviceaccounts:${target.namespace}`];
        }
        break;
      case 'User':
        username = target.name;
        break;
      case 'Group':
        groups.push(target.name);
        break;
      case 'UserExtra': {
        const values = extra[target.fieldPath] ?? [];
        values.push(target.name);
        extra[target.fieldPath] = values;
        break;
      }
      case 'UID':
        uid = target.name;
        break;
    }
    const decision = authorizer.authorize(attributes);
    if (decision.decision !== 'Allow') {
      return { error: forbiddenError(attributes, decision.reason) };
    }
  }
  if (username !== ANONYMOUS_USER) {
    if (!groups.some((g) => g === SYSTEM_AUTHENTICATED || g === SYSTEM_UNAUTHENTICATED)) {
      groups.push(SYSTEM_AUTHENTICATED);
    }
  } else if (!groups.includes(SYSTEM_UNAUTHENTICATED)) {
    groups.push(SYSTEM_UNAUTHENTICATED);
  }
  const user: UserInfo = {
    username,
    groups,
    ...(uid === '' ? {} : { uid }),
    ...(Object.keys(extra).length === 0 ? {} : { extra }),
  };
  return { user };
}

/** The authorization checks impersonating asks for, in upstream's order (for can-i, tests). */
export function impersonationAttributes(
  headers: DistinctHeaders,
  requester: UserInfo,
): Attributes[] {
  return impersonationTargets(headers).map((t) => attributesFor(t, requester));
}

/**
 * Removes every impersonation header, as upstream does once it has switched the user (call it
 * on `req.headers`; `headersDistinct` is rebuilt from it by Node on each read).
 */
export function stripImpersonationHeaders(headers: IncomingHttpHeaders): void {
  for (const name of Object.keys(headers)) {
    if (
      name === IMPERSONATE_USER ||
      name === IMPERSONATE_GROUP ||
      name === IMPERSONATE_UID ||
      name.startsWith(IMPERSONATE_EXTRA_PREFIX)
    ) {
      delete headers[name];
    }
  }
}

/** Upstream `buildImpersonationRequests`: user (or service account), groups, extras, UID. */
function impersonationTargets(headers: DistinctHeaders): ImpersonationTarget[] {
  const targets: ImpersonationTarget[] = [];
  const none = { namespace: '', apiVersion: '', fieldPath: '' };
  // Go's Header.Get: the first value.
  const requested = headers[IMPERSONATE_USER]?.[0] ?? '';
  if (requested !== '') {
    const sa = parseServiceAccountUsername(requested);
    targets.push(
      sa === undefined
        ? { ...none, kind: 'User', name: requested }
        : { ...none, kind: 'ServiceAccount', namespace: sa[0], name: sa[1] },
    );
  }
  for (const group of headers[IMPERSONATE_GROUP] ?? []) {
    targets.push({ ...none, kind: 'Group', name: group });
  }
  for (const [header, values] of Object.entries(headers)) {
    if (!header.startsWith(IMPERSONATE_EXTRA_PREFIX)) continue;
    const key = unescapeExtraKey(header.slice(IMPERSONATE_EXTRA_PREFIX.length).toLowerCase());
    for (const value of values ?? []) {
      targets.push({
        ...none,
        kind: 'UserExtra',
        name: value,
        apiVersion: `${AUTHENTICATION_GROUP}/v1`,
        fieldPath: key,
      });
    }
  }
  const uid = headers[IMPERSONATE_UID]?.[0] ?? '';
  if (uid !== '') {
    targets.push({ ...none, kind: 'UID', name: uid, apiVersion: `${AUTHENTICATION_GROUP}/v1` });
  }
  return targets;
}

function attributesFor(target: ImpersonationTarget, requester: UserInfo): Attributes {
  const base = { user: requester, verb: 'impersonate', resourceRequest: true, name: target.name };
  switch (target.kind) {
    case 'ServiceAccount':
      return {
        ...base,
        apiGroup: '',
        apiVersion: 'v1',
        namespace: target.namespace,
        resource: 'serviceaccounts',
      };
    case 'User':
      return { ...base, apiGroup: '', apiVersion: 'v1', resource: 'users' };
    case 'Group':
      return { ...base, apiGroup: '', apiVersion: 'v1', resource: 'groups' };
    case 'UserExtra':
      return {
        ...base,
        apiGroup: AUTHENTICATION_GROUP,
        apiVersion: 'v1',
        resource: 'userextras',
        subresource: target.fieldPath,
      };
    case 'UID':
      return { ...base, apiGroup: AUTHENTICATION_GROUP, apiVersion: 'v1', resource: 'uids' };
  }
}

/** Go's `url.PathUnescape`, keeping the raw key when it is malformed (upstream does). */
function unescapeExtraKey(encoded: string): string {
  if (!/^(?:[^%]|%[0-9A-Fa-f]{2})*$/.test(encoded)) return encoded;
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    if (encoded[i] === '%') {
      bytes.push(Number.parseInt(encoded.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(encoded[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Go's `%v` of a `[]v1.ObjectReference`: each struct's fields in order, space-separated. */
function goTargets(targets: readonly ImpersonationTarget[]): string {
  const one = (t: ImpersonationTarget) =>
    `{${[t.kind, t.namespace, t.name, '', t.apiVersion, '', t.fieldPath].join(' ')}}`;
  return `[${targets.map(one).join(' ')}]`;
}

/** Upstream's error sanitizer for plain-text bodies. */
function htmlSanitize(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
