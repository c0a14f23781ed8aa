/**
 * Escalation prevention for RBAC writes (upstream `pkg/registry/rbac/escalation_check.go`,
 * `ConfirmNoEscalation` in `pkg/registry/rbac/validation/rule.go`, and the `policybased`
 * storages of the four kinds): a user may only write a Role or ClusterRole granting rules it
 * already holds, and only bind a role whose rules it holds, unless
 *
 * - it is in `system:masters` (`EscalationAllowed`),
 * - for roles: it may `escalate` roles/clusterroles (`RoleEscalationAuthorized`),
 * - for bindings: it may `bind` that very role (`BindingAuthorized`).
 *
 * An update that only changes what the garbage collector changes (owner references,
 * finalizers) is not checked (`IsOnlyMutatingGCFields`). The lead calls these from
 * `ExternalAdmission.validate` of RBAC writes; they throw the StatusError to answer.
 *
 * @module
 */
import { notFound, StatusError } from '../../../api/errors.js';
import { RBAC_GROUP } from '../../../api/kinds/rbac.js';
import type { PolicyRule, RoleRef } from '../../../api/model/index.js';
import type { KubeObject } from '../../../api/object.js';
import { SYSTEM_MASTERS, type UserInfo } from '../../authentication/user.js';
import { newForbidden } from '../forbidden.js';
import type { Authorizer, RuleResolver } from '../types.js';
import { compactRules, compactString, covers } from './covers.js';
import { goQuote, goQuoteList } from './go-text.js';
import { isRecord, roleRefOf, rulesOf } from './rbac-objects.js';
import type { RoleRefResult } from './rule-resolver.js';

/** Upstream `EscalationAllowed`: members of `system:masters` may grant anything. */
export function escalationAllowed(user: UserInfo): boolean {
  return user.groups.includes(SYSTEM_MASTERS);
}

/**
 * Upstream `ConfirmNoEscalation`: undefined when the rules `user` holds in `namespace` cover
 * `rules`, otherwise the error text naming the missing rules (compacted, sorted).
 */
export function confirmNoEscalation(
  user: UserInfo,
  namespace: string,
  rules: readonly PolicyRule[],
  resolver: RuleResolver,
): string | undefined {
  const held = resolver.rulesFor(user, namespace);
  const owner = [...held.resourceRules, ...held.nonResourceRules];
  const result = covers(owner, rules);
  if (result.covers) return undefined;
  const missing = [...new Set(compactRules(result.missing).map(compactString))].sort();
  let msg =
    `user ${goQuote(user.username)} (groups=${goQuoteList(user.groups)}) is attempting to grant ` +
    `RBAC permissions not currently held:\n${missing.join('\n')}`;
  const resolutionError = held.evaluationError ?? '';
  // Go prints the []error holding the one aggregate error as `[<text>]`.
  if (resolutionError !== '') msg += `; resolution errors: [${resolutionError}]`;
  return msg;
}

/** Rules granting everything: what setting an aggregationRule requires (upstream `fullAuthority`). */
const FULL_AUTHORITY: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** A Role, ClusterRole or binding as the store hands it to admission. */
type RbacObject = KubeObject;

export interface RoleWrite {
  readonly user: UserInfo;
  readonly authorizer: Authorizer;
  readonly resolver: RuleResolver;
  readonly kind: 'Role' | 'ClusterRole';
  /** The request's namespace ('' for a ClusterRole). */
  readonly namespace: string;
  /** The name in the request's URL ('' for a create, as upstream's RequestInfo has it). */
  readonly requestName: string;
  readonly next: RbacObject;
  /** The stored object, for an update. */
  readonly current?: RbacObject | undefined;
}

/** Throws the 403 upstream's role storages answer when `user` may not write this role. */
export function checkRoleWrite(w: RoleWrite): void {
  if (escalationAllowed(w.user)) return;
  const resource = w.kind === 'Role' ? 'roles' : 'clusterroles';
  const escalate = w.authorizer.authorize({
    user: w.user,
    verb: 'escalate',
    resourceRequest: true,
    apiGroup: RBAC_GROUP,
    apiVersion: '*',
    resource,
    name: w.requestName,
    namespace: w.namespace,
  });
  if (escalate.decision === 'Allow') return;
  if (w.current !== undefined && isOnlyMutatingGCFields(w.next, w.current)) return;
  const name = w.next.metadata?.name ?? '';
  const denied = confirmNoEscalation(w.user, w.namespace, rulesOf(w.next.rules), w.resolver);
  if (denied !== undefined) throw newForbidden(RBAC_GROUP, resource, name, denied);
  if (w.kind !== 'ClusterRole') return;
  // Setting or changing an aggregationRule can gather anything: it takes `*` on everything.
  if (hasAggregationRule(w.next) || (w.current !== undefined && hasAggregationRule(w.current))) {
    if (confirmNoEscalation(w.user, w.namespace, FULL_AUTHORITY, w.resolver) !== undefined) {
      throw newForbidden(
        RBAC_GROUP,
        resource,
        name,
        'must have cluster-admin privileges to use the aggregationRule',
      );
    }
  }
}

function hasAggregationRule(o: RbacObject): boolean {
  const rule = o.aggregationRule;
  return (
    isRecord(rule) &&
    Array.isArray(rule.clusterRoleSelectors) &&
    rule.clusterRoleSelectors.length > 0
  );
}

/** Resolves a binding's role reference (`RbacAuthorizer.getRoleReferenceRules`). */
export interface RoleRefResolver {
  getRoleReferenceRules(roleRef: RoleRef, bindingNamespace: string): RoleRefResult;
}

export interface BindingWrite {
  readonly user: UserInfo;
  readonly authorizer: Authorizer;
  readonly resolver: RuleResolver;
  readonly roles: RoleRefResolver;
  readonly kind: 'RoleBinding' | 'ClusterRoleBinding';
  /** The request's namespace ('' for a ClusterRoleBinding). */
  readonly namespace: string;
  readonly next: RbacObject;
  readonly current?: RbacObject | undefined;
}

/**
 * Throws when `user` may not write this binding: a 403 naming the rules of the role it does
 * not hold, or, when the role does not exist, upstream's 404 from the role lister
 * (`clusterrole.rbac.authorization.k8s.io "x" not found`).
 */
export function checkBindingWrite(w: BindingWrite): void {
  if (escalationAllowed(w.user)) return;
  if (w.current !== undefined && isOnlyMutatingGCFields(w.next, w.current)) return;
  const roleRef = roleRefOf(w.next.roleRef);
  if (bindingAuthorized(w.user, roleRef, w.namespace, w.authorizer)) return;
  const resolved = w.roles.getRoleReferenceRules(roleRef, w.namespace);
  if (resolved.error !== undefined) {
    if (resolved.notFound !== undefined) {
      throw notFound(
        { group: RBAC_GROUP, resource: resolved.notFound.resource },
        resolved.notFound.name,
      );
    }
    throw new StatusError(500, 'InternalError', `Internal error occurred: ${resolved.error}`, {
      causes: [{ message: resolved.error }],
    });
  }
  const resource = w.kind === 'RoleBinding' ? 'rolebindings' : 'clusterrolebindings';
  const denied = confirmNoEscalation(w.user, w.namespace, resolved.rules, w.resolver);
  if (denied !== undefined) {
    throw newForbidden(RBAC_GROUP, resource, w.next.metadata?.name ?? '', denied);
  }
}

/** Upstream `BindingAuthorized`: may `user` `bind` this role in `bindingNamespace`? */
export function bindingAuthorized(
  user: UserInfo,
  roleRef: RoleRef,
  bindingNamespace: string,
  authorizer: Authorizer,
): boolean {
  let resource: string;
  if (roleRef.kind === 'ClusterRole') resource = 'clusterroles';
  else if (roleRef.kind === 'Role') resource = 'roles';
  else return false;
  const r = authorizer.authorize({
    user,
    verb: 'bind',
    resourceRequest: true,
    namespace: bindingNamespace,
    apiGroup: roleRef.apiGroup,
    apiVersion: '*',
    resource,
    name: roleRef.name,
  });
  return r.decision === 'Allow';
}

/**
 * Upstream `IsOnlyMutatingGCFields`: `next` equals `current` once its owner references,
 * finalizers and selfLink are taken from `current`. fleetyard also ignores `resourceVersion`
 * and `managedFields` here, which its store may stamp before admission sees the object.
 */
export function isOnlyMutatingGCFields(next: RbacObject, current: RbacObject): boolean {
  const strip = (o: RbacObject) => {
    const { ownerReferences, finalizers, selfLink, resourceVersion, managedFields, ...meta } =
      o.metadata ?? {};
    return { ...o, metadata: meta };
  };
  return canonical(strip(next)) === canonical(strip(current));
}

/** JSON with sorted keys, empty arrays/objects and absent fields alike (Semantic.DeepEqual). */
function canonical(v: unknown): string {
  return JSON.stringify(normalize(v)) ?? '';
}

function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(normalize);
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const n = normalize(x);
      if (n !== undefined) out[k] = n;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v;
}
