/**
 * What the bootstrap reconciliation does with one policy object (upstream
 * `pkg/registry/rbac/reconciliation`, `computeReconciledRole` and
 * `computeReconciledRoleBinding`, as the `rbac/bootstrap-roles` post-start hook calls them:
 * `Confirm: true`, `RemoveExtraPermissions`/`RemoveExtraSubjects: false`):
 *
 * - missing: create it;
 * - present with `rbac.authorization.kubernetes.io/autoupdate: "false"`: leave it (protected);
 * - otherwise add what it lacks and never remove anything: the expected labels and
 *   annotations whose keys it lacks (its own values win), the atomic rules none of its rules
 *   covers, the aggregation selectors it lacks, the subjects it lacks; a binding whose
 *   roleRef differs (immutable) is deleted and created again, as upstream recreates it;
 * - nothing to add: no write.
 *
 * Pure: the plan for an update is a function of the current object, so a store can run it
 * again on each conflict retry.
 *
 * @module
 */
import { deepEqualJson } from '../../../api/kinds/json.js';
import {
  type ClusterRole,
  type ClusterRoleBinding,
  isKind,
  type LabelSelector,
  type PolicyRule,
  type RbacV1Subject,
  type Role,
  type RoleBinding,
} from '../../../api/model/index.js';
import { deepCopy, type KubeObject } from '../../../api/object.js';
import { uncoveredRules } from './covers.js';
import type { PolicyObject } from './policy.js';
import { AUTOUPDATE_ANNOTATION } from './rule-builder.js';

export type ReconcilePlan =
  | { readonly action: 'none' }
  | { readonly action: 'protected' }
  | { readonly action: 'create'; readonly object: KubeObject }
  | { readonly action: 'update'; readonly object: KubeObject }
  | { readonly action: 'recreate'; readonly object: KubeObject };

/** Upstream `merge(expected, existing)`: expected's entries, overridden by existing's. */
function merged(
  expected: Readonly<Record<string, string>> | null | undefined,
  existing: Readonly<Record<string, string>> | null | undefined,
): Record<string, string> | undefined {
  if (!expected && !existing) return undefined;
  return { ...expected, ...existing };
}

function isProtected(obj: KubeObject): boolean {
  return obj.metadata?.annotations?.[AUTOUPDATE_ANNOTATION] === 'false';
}

/** A copy of `existing` with the expected labels and annotations it lacks. */
function withMetadata(existing: KubeObject, expected: PolicyObject): KubeObject {
  const next = deepCopy(existing);
  const labels = merged(expected.metadata?.labels, existing.metadata?.labels);
  const annotations = merged(expected.metadata?.annotations, existing.metadata?.annotations);
  next.metadata = {
    ...next.metadata,
    ...(labels === undefined ? {} : { labels }),
    ...(annotations === undefined ? {} : { annotations }),
  };
  return next;
}

function rulesOf(obj: KubeObject): PolicyRule[] {
  return isKind(obj, 'ClusterRole') || isKind(obj, 'Role') ? (obj.rules ?? []) : [];
}

function reconcileRole(existing: KubeObject, expected: ClusterRole | Role): KubeObject {
  const next = withMetadata(existing, expected);
  const missing = uncoveredRules(rulesOf(existing), expected.rules ?? []);
  if (missing.length > 0) next.rules = [...rulesOf(existing), ...missing];
  const current = isKind(existing, 'ClusterRole') ? existing.aggregationRule : undefined;
  const wanted = isKind(expected, 'ClusterRole') ? expected.aggregationRule : undefined;
  if (wanted === undefined) {
    // Upstream: a role it did not expect to be aggregated loses its aggregation.
    if (current !== undefined) delete next.aggregationRule;
  } else {
    const have: LabelSelector[] = current?.clusterRoleSelectors ?? [];
    const lacking = (wanted.clusterRoleSelectors ?? []).filter(
      (s) => !have.some((h) => deepEqualJson(h, s)),
    );
    if (lacking.length > 0) {
      next.aggregationRule = { ...current, clusterRoleSelectors: [...have, ...lacking] };
    }
  }
  return next;
}

function subjectsOf(obj: KubeObject): RbacV1Subject[] {
  return isKind(obj, 'ClusterRoleBinding') || isKind(obj, 'RoleBinding')
    ? (obj.subjects ?? [])
    : [];
}

function reconcileBinding(
  existing: KubeObject,
  expected: ClusterRoleBinding | RoleBinding,
): { object: KubeObject; recreate: boolean } {
  const next = withMetadata(existing, expected);
  const have = subjectsOf(existing);
  const lacking = (expected.subjects ?? []).filter((s) => !have.some((h) => deepEqualJson(h, s)));
  if (lacking.length > 0) next.subjects = [...have, ...lacking];
  const recreate = !deepEqualJson(next.roleRef ?? null, expected.roleRef);
  if (recreate) {
    next.roleRef = expected.roleRef;
    // A new object: nothing of the old one's identity carries over.
    const { resourceVersion: _rv, uid: _uid, ...meta } = next.metadata ?? {};
    next.metadata = meta;
  }
  return { object: next, recreate };
}

/** The plan for `expected` given the stored object (undefined when there is none). */
export function planReconcile(
  expected: PolicyObject,
  existing: KubeObject | undefined,
): ReconcilePlan {
  if (existing === undefined) return { action: 'create', object: deepCopy(expected) };
  let next: KubeObject;
  let recreate = false;
  if (isKind(expected, 'ClusterRoleBinding') || isKind(expected, 'RoleBinding')) {
    ({ object: next, recreate } = reconcileBinding(existing, expected));
  } else {
    next = reconcileRole(existing, expected);
  }
  if (deepEqualJson(next, existing)) return { action: 'none' };
  if (isProtected(existing)) return { action: 'protected' };
  return recreate ? { action: 'recreate', object: next } : { action: 'update', object: next };
}
