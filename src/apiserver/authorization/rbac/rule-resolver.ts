/**
 * The rules a user holds in a namespace, binding by binding (upstream `DefaultRuleResolver` in
 * `pkg/registry/rbac/validation/rule.go`): every ClusterRoleBinding naming the user (or one of
 * its groups, or its ServiceAccount), then, for a namespace, every RoleBinding there. A binding
 * whose role is missing yields an error and the visit goes on: rules only ever add, so the
 * rules that were found still hold.
 *
 * The visit order is ClusterRoleBindings by name, then RoleBindings by name. Upstream visits
 * its informer cache in map order, so which binding an "allowed by" reason names when several
 * would allow is not fixed there; here it is.
 *
 * @module
 */
import type { PolicyRule, RbacV1Subject, RoleRef } from '../../../api/model/index.js';
import type { UserInfo } from '../../authentication/user.js';
import type { UserRules } from '../types.js';
import { aggregateMessage, goQuote } from './go-text.js';
import type { BindingEntry, PolicyReader } from './policy-index.js';

/** Where a rule came from; `describe()` is upstream's `fmt.Stringer` text of it. */
export interface RuleSource {
  readonly binding: BindingEntry;
  /** The first subject of the binding that applies to the user. */
  readonly subject: RbacV1Subject;
}

/** Return false to stop the visit. A call carries either a rule and its source, or an error. */
export type RuleVisitor = (
  source: RuleSource | undefined,
  rule: PolicyRule | undefined,
  error: string | undefined,
) => boolean;

/** Resolves a role reference (upstream `GetRoleReferenceRules`). */
export type RoleRefResult =
  | { readonly rules: readonly PolicyRule[]; readonly error?: undefined }
  | { readonly rules?: undefined; readonly error: string; readonly notFound?: NotFoundRole };

/** A missing role, as the lister's NotFound error names it (`clusterrole` resource). */
export interface NotFoundRole {
  readonly resource: 'role' | 'clusterrole';
  readonly name: string;
}

export class RbacRuleResolver {
  readonly #policy: PolicyReader;

  constructor(policy: PolicyReader) {
    this.#policy = policy;
  }

  /**
   * The rules of the role a binding in `bindingNamespace` ('' for a ClusterRoleBinding)
   * refers to. The errors read as upstream's listers' NotFound errors.
   */
  getRoleReferenceRules(roleRef: RoleRef, bindingNamespace: string): RoleRefResult {
    if (roleRef.kind === 'Role') {
      const rules = this.#policy.role(bindingNamespace, roleRef.name);
      if (rules !== undefined) return { rules };
      return {
        error: `role.rbac.authorization.k8s.io ${goQuote(roleRef.name)} not found`,
        notFound: { resource: 'role', name: roleRef.name },
      };
    }
    if (roleRef.kind === 'ClusterRole') {
      const rules = this.#policy.clusterRole(roleRef.name);
      if (rules !== undefined) return { rules };
      return {
        error: `clusterrole.rbac.authorization.k8s.io ${goQuote(roleRef.name)} not found`,
        notFound: { resource: 'clusterrole', name: roleRef.name },
      };
    }
    return { error: `unsupported role reference kind: ${goQuote(roleRef.kind)}` };
  }

  visitRulesFor(user: UserInfo, namespace: string, visitor: RuleVisitor): void {
    if (!this.#visitBindings(this.#policy.clusterRoleBindingsFor(user), user, '', visitor)) return;
    if (namespace === '') return;
    this.#visitBindings(this.#policy.roleBindingsFor(user, namespace), user, namespace, visitor);
  }

  /** Every rule `user` holds in `namespace`, and the errors met (upstream `RulesFor`). */
  policyRulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (_source, rule, error) => {
      if (rule !== undefined) rules.push(rule);
      if (error !== undefined) errors.push(error);
      return true;
    });
    return { rules, errors };
  }

  /**
   * Upstream `RBACAuthorizer.RulesFor`: rules with resources as resource rules, rules with URLs
   * as non-resource rules. `incomplete` stays false, as upstream's RBAC sets it: a missing role
   * shows in `evaluationError` only.
   */
  rulesFor(user: UserInfo, namespace: string): UserRules {
    const { rules, errors } = this.policyRulesFor(user, namespace);
    const resourceRules: PolicyRule[] = [];
    const nonResourceRules: PolicyRule[] = [];
    for (const r of rules) {
      if ((r.resources ?? []).length > 0) {
        const rr: PolicyRule = { verbs: r.verbs };
        if (r.apiGroups !== undefined) rr.apiGroups = r.apiGroups;
        rr.resources = r.resources ?? [];
        if (r.resourceNames !== undefined) rr.resourceNames = r.resourceNames;
        resourceRules.push(rr);
      }
      if ((r.nonResourceURLs ?? []).length > 0) {
        nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs ?? [] });
      }
    }
    const out: UserRules = { resourceRules, nonResourceRules, incomplete: false };
    return errors.length > 0 ? { ...out, evaluationError: aggregateMessage(errors) } : out;
  }

  #visitBindings(
    bindings: readonly BindingEntry[],
    user: UserInfo,
    namespace: string,
    visitor: RuleVisitor,
  ): boolean {
    for (const binding of bindings) {
      const subject = appliesTo(user, binding.subjects, namespace);
      if (subject === undefined) continue;
      const resolved = this.getRoleReferenceRules(binding.roleRef, namespace);
      if (resolved.error !== undefined) {
        if (!visitor(undefined, undefined, resolved.error)) return false;
        continue;
      }
      const source: RuleSource = { binding, subject };
      for (const rule of resolved.rules) if (!visitor(source, rule, undefined)) return false;
    }
    return true;
  }
}

/** Upstream `appliesTo`: the first subject of the binding that is the user. */
export function appliesTo(
  user: UserInfo,
  subjects: readonly RbacV1Subject[],
  namespace: string,
): RbacV1Subject | undefined {
  for (const s of subjects) if (appliesToUser(user, s, namespace)) return s;
  return undefined;
}

/** Upstream `appliesToUser`; a ServiceAccount subject without namespace is the binding's. */
export function appliesToUser(user: UserInfo, s: RbacV1Subject, namespace: string): boolean {
  switch (s.kind) {
    case 'User':
      return user.username === s.name;
    case 'Group':
      return user.groups.includes(s.name);
    case 'ServiceAccount': {
      const ns = s.namespace !== undefined && s.namespace !== '' ? s.namespace : namespace;
      if (ns === '') return false;
      return user.username === `system:serviceaccount:${ns}:${s.name}`;
    }
    default:
      return false;
  }
}

/** Upstream's `describeSubject`: `ServiceAccount "name/namespace"`, otherwise `Kind "name"`. */
function describeSubject(s: RbacV1Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') {
    const ns = s.namespace !== undefined && s.namespace !== '' ? s.namespace : bindingNamespace;
    return `${s.kind} ${goQuote(`${s.name}/${ns}`)}`;
  }
  return `${s.kind} ${goQuote(s.name)}`;
}

/**
 * `ClusterRoleBinding "x" of ClusterRole "y" to User "z"`, or
 * `RoleBinding "x/ns" of Role "y" to ServiceAccount "sa/ns"` (upstream's describers).
 */
export function describeSource(source: RuleSource): string {
  const { binding, subject } = source;
  const ref = `${binding.roleRef.kind} ${goQuote(binding.roleRef.name)}`;
  if (binding.kind === 'ClusterRoleBinding') {
    return `ClusterRoleBinding ${goQuote(binding.name)} of ${ref} to ${describeSubject(subject, '')}`;
  }
  const name = goQuote(`${binding.name}/${binding.namespace}`);
  return `RoleBinding ${name} of ${ref} to ${describeSubject(subject, binding.namespace)}`;
}
