/**
 * The small vocabulary the bootstrap policy is written in, after upstream's
 * `pkg/apis/rbac/v1` helpers (`NewRule(...).Groups(...).Resources(...).RuleOrDie()`,
 * `NewClusterBinding(...)`, `NewRoleBinding(...)`) and `bootstrappolicy`'s
 * `addDefaultMetadata`: a rule's verbs, groups, resources, names and URLs are sorted as
 * `RuleOrDie` sorts them, so the objects equal upstream's golden files field for field.
 *
 * @module
 */
import type {
  ClusterRole,
  ClusterRoleBinding,
  PolicyRule,
  RbacV1Subject,
  Role,
  RoleBinding,
} from '../../../api/model/index.js';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';
export const RBAC_API_VERSION = 'rbac.authorization.k8s.io/v1';
/** Upstream `bootstrappolicy.Label`. */
export const BOOTSTRAP_LABEL = 'kubernetes.io/bootstrapping';
export const BOOTSTRAP_LABEL_VALUE = 'rbac-defaults';
/** Upstream `rbacv1.AutoUpdateAnnotationKey`. */
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';

export const READ = ['get', 'list', 'watch'] as const;
export const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'] as const;
export const READ_WRITE = [...READ, ...WRITE] as const;
export const READ_UPDATE = ['get', 'list', 'watch', 'update', 'patch'] as const;

const sorted = (xs: readonly string[]): string[] => [...xs].sort();

/** A resource rule (`NewRule(verbs).Groups(groups).Resources(resources).Names(names)`). */
export function rule(
  verbs: readonly string[],
  groups: readonly string[],
  resources: readonly string[],
  names: readonly string[] = [],
): PolicyRule {
  return {
    verbs: sorted(verbs),
    apiGroups: sorted(groups),
    resources: sorted(resources),
    ...(names.length > 0 ? { resourceNames: sorted(names) } : {}),
  };
}

/** A non-resource rule (`NewRule(verbs).URLs(urls)`). */
export function urlRule(verbs: readonly string[], urls: readonly string[]): PolicyRule {
  return { verbs: sorted(verbs), nonResourceURLs: sorted(urls) };
}

/** Upstream `eventsRule()`: both event APIs, create/update/patch. */
export function eventsRule(): PolicyRule {
  return rule(['create', 'update', 'patch'], ['', 'events.k8s.io'], ['events']);
}

/** Upstream `addDefaultMetadata`: the bootstrapping label and the autoupdate annotation. */
function defaultMetadata(name: string, labels: Record<string, string> = {}, namespace?: string) {
  return {
    name,
    ...(namespace === undefined ? {} : { namespace }),
    labels: { ...labels, [BOOTSTRAP_LABEL]: BOOTSTRAP_LABEL_VALUE },
    annotations: { [AUTOUPDATE_ANNOTATION]: 'true' },
  };
}

export interface ClusterRoleSpec {
  readonly name: string;
  readonly labels?: Record<string, string>;
  /** `matchLabels` of each `aggregationRule.clusterRoleSelectors` entry. */
  readonly aggregateFrom?: readonly Record<string, string>[];
  readonly rules?: readonly PolicyRule[];
}

export function clusterRole(spec: ClusterRoleSpec): ClusterRole {
  return {
    apiVersion: RBAC_API_VERSION,
    kind: 'ClusterRole',
    metadata: defaultMetadata(spec.name, spec.labels),
    ...(spec.aggregateFrom === undefined
      ? {}
      : {
          aggregationRule: {
            clusterRoleSelectors: spec.aggregateFrom.map((m) => ({ matchLabels: { ...m } })),
          },
        }),
    // Aggregated roles start with no rules: the aggregation controller fills them.
    ...(spec.rules === undefined ? {} : { rules: [...spec.rules] }),
  };
}

export function role(namespace: string, name: string, rules: readonly PolicyRule[]): Role {
  return {
    apiVersion: RBAC_API_VERSION,
    kind: 'Role',
    metadata: defaultMetadata(name, {}, namespace),
    rules: [...rules],
  };
}

export const user = (name: string): RbacV1Subject => ({ apiGroup: RBAC_GROUP, kind: 'User', name });
export const group = (name: string): RbacV1Subject => ({
  apiGroup: RBAC_GROUP,
  kind: 'Group',
  name,
});
export const serviceAccount = (namespace: string, name: string): RbacV1Subject => ({
  kind: 'ServiceAccount',
  name,
  namespace,
});

/** Upstream `NewClusterBinding(role).Users/Groups/SAs(...)`: named after its role. */
export function clusterRoleBinding(
  roleName: string,
  subjects: readonly RbacV1Subject[],
): ClusterRoleBinding {
  return {
    apiVersion: RBAC_API_VERSION,
    kind: 'ClusterRoleBinding',
    metadata: defaultMetadata(roleName),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: roleName },
    // Upstream's system:node binding has no subjects at all (`subjects: null`).
    ...(subjects.length > 0 ? { subjects: [...subjects] } : {}),
  };
}

/** Upstream `NewRoleBindingForClusterRole`/`NewRoleBinding(role, namespace)`. */
export function roleBinding(
  namespace: string,
  name: string,
  roleName: string,
  subjects: readonly RbacV1Subject[],
): RoleBinding {
  return {
    apiVersion: RBAC_API_VERSION,
    kind: 'RoleBinding',
    metadata: defaultMetadata(name, {}, namespace),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: roleName },
    subjects: [...subjects],
  };
}

/** Upstream's golden files list objects sorted by namespace, then name (byte order). */
export function byNamespaceAndName<T extends { metadata?: { name?: string; namespace?: string } }>(
  items: readonly T[],
): T[] {
  const key = (o: T) => `${o.metadata?.namespace ?? ''}\u0000${o.metadata?.name ?? ''}`;
  return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
