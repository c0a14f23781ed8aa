/**
 * What the ServiceAccounts controller creates in one namespace (upstream
 * `ServiceAccountsController.syncNamespace`): each account of the ensure list (`default`)
 * that is missing, and nothing at all in a namespace that is gone or not `Active` (one being
 * deleted must be allowed to empty).
 *
 * @module
 */
import type { Namespace, ServiceAccount } from '../../api/model/index.js';

/** Upstream `DefaultServiceAccountsControllerOptions`: every namespace gets `default`. */
export const SERVICE_ACCOUNTS_TO_ENSURE: readonly string[] = ['default'];

/** Whether a namespace takes new content: it exists and its phase is `Active`, as upstream checks. */
export function isActiveNamespace(namespace: Namespace | undefined): boolean {
  return namespace !== undefined && namespace.status?.phase === 'Active';
}

/** The ServiceAccounts to create in `namespace`, given the names already there. */
export function planServiceAccounts(
  namespace: Namespace | undefined,
  existing: ReadonlySet<string>,
  toEnsure: readonly string[] = SERVICE_ACCOUNTS_TO_ENSURE,
): ServiceAccount[] {
  if (!isActiveNamespace(namespace)) return [];
  const name = namespace?.metadata?.name ?? '';
  return toEnsure
    .filter((account) => !existing.has(account))
    .map((account) => ({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: account, namespace: name },
    }));
}
