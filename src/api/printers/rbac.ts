/**
 * `kubectl get` rows of RoleBindings and ClusterRoleBindings, as upstream `printRoleBinding`
 * and `printClusterRoleBinding`: the bound role as `Kind/name`, the age, and (wide) the users,
 * groups and service accounts (`namespace/name`) bound. Roles and ClusterRoles have no printer
 * upstream, so they get the default table (Name, Created At).
 *
 * Kept beside the kinds rather than in `src/api/printers`, which registers these printers.
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import { ageOf, nameOf, obj, objs, str } from './access.js';
import { AGE, column, NAME } from './columns.js';
import type { PrintedRow, TableColumnDefinition } from './types.js';

const WIDE = { priority: 1 };

/** The wide columns both binding kinds share. */
const SUBJECT_COLUMNS = [
  column('Users', 'string', { text: 'Users in the roleBinding' }, WIDE),
  column('Groups', 'string', { text: 'Groups in the roleBinding' }, WIDE),
  column('ServiceAccounts', 'string', { text: 'ServiceAccounts in the roleBinding' }, WIDE),
];

/** Upstream describes the Role column with the v1beta1 `roleRef` field docs. */
export const ROLE_BINDING_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('Role', 'string', {
    text: 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.',
  }),
  AGE,
  ...SUBJECT_COLUMNS,
];

export const CLUSTER_ROLE_BINDING_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('Role', 'string', {
    text: 'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.',
  }),
  AGE,
  ...SUBJECT_COLUMNS,
];

/** Upstream `rbac.SubjectsStrings`: users, groups and service accounts, each in order. */
export function subjectsStrings(subjects: unknown): [string[], string[], string[]] {
  const users: string[] = [];
  const groups: string[] = [];
  const serviceAccounts: string[] = [];
  for (const s of objs(subjects)) {
    const name = str(s.name);
    if (s.kind === 'ServiceAccount') serviceAccounts.push(`${str(s.namespace)}/${name}`);
    else if (s.kind === 'User') users.push(name);
    else if (s.kind === 'Group') groups.push(name);
  }
  return [users, groups, serviceAccounts];
}

/** One row of either binding kind (the server always prints the wide cells). */
export function printRoleBinding(o: KubeObject, now: Date): PrintedRow {
  const ref = obj(o.roleRef);
  const [users, groups, serviceAccounts] = subjectsStrings(o.subjects);
  return {
    cells: [
      nameOf(o),
      `${str(ref.kind)}/${str(ref.name)}`,
      ageOf(o, now),
      users.join(', '),
      groups.join(', '),
      serviceAccounts.join(', '),
    ],
  };
}
