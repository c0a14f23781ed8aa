/**
 * Least privilege shown from what a user actually did (issue 18, scope 3): the rules RBAC
 * objects grant a user, each with the scope its binding gives it, the authorizer attributes of
 * the requests an audit log recorded for that user, and for each granted rule the recorded
 * requests that rule allows and no other grant does. Such a request is the evidence that the
 * rule is needed: without the rule, the request the user made is refused.
 *
 * Pure: the e2e test (`test/e2e/operator-rbac.test.ts`) feeds it `deploy/operator/` and the
 * audit log of a `fleetyard up` run. It uses the API server's own pieces, so "allowed" here is
 * what the server decides: `parseRequestInfo` and `requestAttributes` turn a request into
 * attributes, `ruleAllows` matches one rule, and `RbacAuthorizer` answers for a whole policy.
 *
 * @module
 */
import type { PolicyRule } from '../../../src/api/model/index.js';
import type { KubeObject } from '../../../src/api/object.js';
import type { UserInfo } from '../../../src/apiserver/authentication/user.js';
import { RbacAuthorizer } from '../../../src/apiserver/authorization/rbac/authorizer.js';
import {
  PolicyIndex,
  type RbacKind,
} from '../../../src/apiserver/authorization/rbac/policy-index.js';
import {
  roleRefOf,
  rulesOf,
  subjectsOf,
} from '../../../src/apiserver/authorization/rbac/rbac-objects.js';
import { ruleAllows } from '../../../src/apiserver/authorization/rbac/rule-match.js';
import { appliesTo } from '../../../src/apiserver/authorization/rbac/rule-resolver.js';
import { requestAttributes } from '../../../src/apiserver/authorization/request-attributes.js';
import type { Attributes } from '../../../src/apiserver/authorization/types.js';
import { parseRequestInfo } from '../../../src/apiserver/request-info.js';

/** One rule of one role, where a binding to the user makes it count. */
export interface ScopedRule {
  /** `ClusterRole celld-operator #2`: the role and the rule's 1-based position in it. */
  readonly id: string;
  readonly role: {
    readonly kind: 'Role' | 'ClusterRole';
    readonly namespace: string;
    readonly name: string;
  };
  /** 0-based index in the role's `rules`. */
  readonly index: number;
  /** '' cluster-wide (a ClusterRoleBinding), else the namespace of the RoleBinding. */
  readonly namespace: string;
  readonly rule: PolicyRule;
}

const isRbacKind = (k: unknown): k is RbacKind =>
  k === 'Role' || k === 'ClusterRole' || k === 'RoleBinding' || k === 'ClusterRoleBinding';

function roleKey(kind: string, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

/**
 * Every rule `objects` grant `user`, once per binding that grants it: a ClusterRole through a
 * ClusterRoleBinding counts everywhere, a Role or ClusterRole through a RoleBinding in that
 * binding's namespace only (upstream `VisitRulesFor`).
 */
export function grantedRules(objects: readonly KubeObject[], user: UserInfo): ScopedRule[] {
  const roles = rolesByKey(objects);
  const out: ScopedRule[] = [];
  for (const b of objects) {
    if (b.kind !== 'RoleBinding' && b.kind !== 'ClusterRoleBinding') continue;
    const bindingNs = b.kind === 'RoleBinding' ? (b.metadata?.namespace ?? '') : '';
    if (appliesTo(user, subjectsOf(b.subjects), bindingNs) === undefined) continue;
    const ref = roleRefOf(b.roleRef);
    if (ref.kind !== 'Role' && ref.kind !== 'ClusterRole') continue;
    const role: ScopedRule['role'] = {
      kind: ref.kind,
      namespace: ref.kind === 'Role' ? bindingNs : '',
      name: ref.name,
    };
    const where = role.namespace === '' ? role.name : `${role.namespace}/${role.name}`;
    const rules = roles.get(roleKey(role.kind, role.namespace, role.name)) ?? [];
    rules.forEach((rule, index) => {
      out.push({
        id: `${role.kind} ${where} #${index + 1}`,
        role,
        index,
        namespace: bindingNs,
        rule,
      });
    });
  }
  return out;
}

/** The rules of every Role and ClusterRole, by kind, namespace and name. */
function rolesByKey(objects: readonly KubeObject[]): Map<string, PolicyRule[]> {
  const roles = new Map<string, PolicyRule[]>();
  for (const o of objects) {
    if (o.kind !== 'Role' && o.kind !== 'ClusterRole') continue;
    const ns = o.kind === 'Role' ? (o.metadata?.namespace ?? '') : '';
    roles.set(roleKey(o.kind, ns, o.metadata?.name ?? ''), rulesOf(o.rules));
  }
  return roles;
}

/** The rule, where it counts, allows the request. */
export function scopedAllows(r: ScopedRule, a: Attributes): boolean {
  if (r.namespace !== '' && (!a.resourceRequest || a.namespace !== r.namespace)) return false;
  return ruleAllows(a, r.rule);
}

/** What of an audit event (`audit.k8s.io/v1`) this analysis reads. */
export interface AuditRecord {
  readonly auditID: string;
  readonly stage: string;
  readonly requestURI: string;
  readonly verb: string;
  readonly user: { readonly username: string; readonly groups?: readonly string[] };
  readonly objectRef?: { readonly resource?: string; readonly subresource?: string };
  readonly responseStatus?: { readonly code: number };
  readonly annotations?: Readonly<Record<string, string>>;
}

export const DECISION_ANNOTATION = 'authorization.k8s.io/decision';

/** The HTTP method a request of this audit verb came with (upstream's verb from the method). */
const METHOD_OF: Readonly<Record<string, string>> = {
  get: 'GET',
  list: 'GET',
  watch: 'GET',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  deletecollection: 'DELETE',
};

/**
 * The attributes the server's authorizer was asked for this request, rebuilt from its URI
 * and verb as the server builds them; throws when the rebuilt verb is not the recorded one.
 */
export function attributesOf(ev: AuditRecord, user: UserInfo): Attributes {
  const url = new URL(ev.requestURI, 'https://audit.invalid');
  const method = ev.objectRef === undefined ? ev.verb.toUpperCase() : (METHOD_OF[ev.verb] ?? '');
  const info = parseRequestInfo(method, url.pathname, url.searchParams);
  const a = requestAttributes(user, info, method, url.searchParams);
  if (a.verb !== ev.verb || a.resourceRequest !== (ev.objectRef !== undefined)) {
    throw new Error(`audit event ${ev.auditID} (${ev.verb} ${ev.requestURI}) reads as ${a.verb}`);
  }
  return a;
}

/** The last stage recorded of each request (its final answer), in log order. */
export function lastStages(events: readonly AuditRecord[]): AuditRecord[] {
  const byId = new Map<string, AuditRecord>();
  for (const ev of events) byId.set(ev.auditID, ev);
  return [...byId.values()];
}

/** The authorizer refused it (decision annotation), or the answer was 403. */
export function refused(ev: AuditRecord): boolean {
  return ev.annotations?.[DECISION_ANNOTATION] === 'forbid' || ev.responseStatus?.code === 403;
}

/** `list apps/statefulsets` / `update celld.fleetyard.dev/celldfleets/status in default`. */
export function describeRequest(a: Attributes): string {
  if (!a.resourceRequest) return `${a.verb} ${a.path}`;
  const gr = `${a.apiGroup === '' ? 'core' : a.apiGroup}/${a.resource}`;
  const sub = a.subresource ? `/${a.subresource}` : '';
  return `${a.verb} ${gr}${sub}${a.namespace ? ` in ${a.namespace}` : ''}`;
}

export interface RuleEvidence {
  readonly rule: ScopedRule;
  /** Distinct requests (by {@link describeRequest}) the rule allows. */
  readonly matched: readonly string[];
  /** Of those, the ones no other grant allows: removing the rule refuses them. */
  readonly exclusive: readonly string[];
}

/**
 * For each rule of `rules`, the recorded requests it allows and those only it allows, where
 * "other grants" are the rest of `rules` and `others` (what the user holds from elsewhere,
 * e.g. the bootstrap policy's discovery roles).
 */
export function necessity(
  rules: readonly ScopedRule[],
  others: readonly ScopedRule[],
  requests: readonly Attributes[],
): RuleEvidence[] {
  const distinct = new Map<string, Attributes>();
  for (const a of requests)
    if (!distinct.has(describeRequest(a))) distinct.set(describeRequest(a), a);
  return rules.map((rule) => {
    const matched: string[] = [];
    const exclusive: string[] = [];
    for (const [key, a] of distinct) {
      if (!scopedAllows(rule, a)) continue;
      matched.push(key);
      const elsewhere =
        rules.some((r) => r !== rule && scopedAllows(r, a)) ||
        others.some((r) => scopedAllows(r, a));
      if (!elsewhere) exclusive.push(key);
    }
    return { rule, matched: matched.sort(), exclusive: exclusive.sort() };
  });
}

/**
 * The (group, resource, verb) triples of a rule no recorded request used, where it counts:
 * grants wider than the behaviour shown (informational; a rule is needed as soon as one of
 * its triples is). Wildcards are not expanded: deploy/ has none.
 */
export function unusedGrants(rule: ScopedRule, requests: readonly Attributes[]): string[] {
  const out: string[] = [];
  for (const group of rule.rule.apiGroups ?? []) {
    for (const resource of rule.rule.resources ?? []) {
      for (const verb of rule.rule.verbs) {
        const [res, sub = ''] = resource.split('/');
        const used = requests.some(
          (a) =>
            scopedAllows(rule, a) &&
            a.apiGroup === group &&
            a.resource === res &&
            (a.subresource ?? '') === sub &&
            a.verb === verb,
        );
        if (!used) out.push(`${verb} ${group === '' ? 'core' : group}/${resource}`);
      }
    }
  }
  return out;
}

/** `objects` with rule `index` of the role `r.role` taken out (a deep enough copy). */
export function withoutRule(objects: readonly KubeObject[], r: ScopedRule): KubeObject[] {
  return objects.map((o) => {
    const ns = o.kind === 'Role' ? (o.metadata?.namespace ?? '') : '';
    if (o.kind !== r.role.kind || ns !== r.role.namespace || o.metadata?.name !== r.role.name) {
      return o;
    }
    return { ...o, rules: rulesOf(o.rules).filter((_, i) => i !== r.index) };
  });
}

/** The server's RBAC authorizer over exactly these objects. */
export function authorizerOver(objects: readonly KubeObject[]): RbacAuthorizer {
  const index = new PolicyIndex();
  for (const o of objects) if (isRbacKind(o.kind)) index.upsert(o.kind, o);
  return new RbacAuthorizer(index);
}
