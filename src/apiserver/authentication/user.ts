/**
 * Who a request is from, after authentication (upstream `user.Info`,
 * `k8s.io/apiserver/pkg/authentication/user`): a name, an optional UID, groups and extra
 * attributes. Every authenticator produces one; authorization, admission (a webhook's
 * `request.userInfo`, a policy's `request.userInfo`) and audit read it.
 *
 * @module
 */

export interface UserInfo {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** Members are allowed everything, before any authorizer is asked (upstream's privileged group). */
export const SYSTEM_MASTERS = 'system:masters';
/** Added to every authenticated user's groups (upstream `AuthenticatedGroupAdder`). */
export const SYSTEM_AUTHENTICATED = 'system:authenticated';
export const SYSTEM_UNAUTHENTICATED = 'system:unauthenticated';
export const ANONYMOUS_USER = 'system:anonymous';

/** A request without credentials, as upstream's anonymous authenticator names it. */
export const ANONYMOUS: UserInfo = { username: ANONYMOUS_USER, groups: [SYSTEM_UNAUTHENTICATED] };

/** The user of the admin token in the kubeconfig `up` writes (kubeadm's admin is alike). */
export const ADMIN: UserInfo = {
  username: 'kubernetes-admin',
  groups: [SYSTEM_MASTERS, SYSTEM_AUTHENTICATED],
};

/** The API server's own loopback client (upstream `system:apiserver`, in system:masters). */
export const LOOPBACK: UserInfo = {
  username: 'system:apiserver',
  uid: 'fleetyard-apiserver-loopback',
  groups: [SYSTEM_MASTERS, SYSTEM_AUTHENTICATED],
};

/** `system:serviceaccount:<namespace>:<name>`, the username of a ServiceAccount. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/** The groups of a ServiceAccount's user: all service accounts, and those of its namespace. */
export function serviceAccountGroups(namespace: string): string[] {
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, SYSTEM_AUTHENTICATED];
}

/** `[namespace, name]` of a ServiceAccount username, undefined for any other name. */
export function parseServiceAccountUsername(
  username: string,
): readonly [namespace: string, name: string] | undefined {
  const prefix = 'system:serviceaccount:';
  if (!username.startsWith(prefix)) return undefined;
  const parts = username.slice(prefix.length).split(':');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  return [parts[0]!, parts[1]!];
}

/** The group of every kubelet's user (upstream's Node authorizer and NodeRestriction read it). */
export const NODES_GROUP = 'system:nodes';

/** `system:node:<name>`, the user a node's kubelet authenticates as. */
export function nodeUsername(node: string): string {
  return `system:node:${node}`;
}
