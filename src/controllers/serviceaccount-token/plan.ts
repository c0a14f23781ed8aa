/**
 * What the tokens controller does to one `kubernetes.io/service-account-token` Secret
 * (upstream `pkg/controller/serviceaccount/tokens_controller.go`, `syncSecret`):
 * - its ServiceAccount (the `kubernetes.io/service-account.name` annotation, and the `.uid`
 *   annotation when set) is gone: delete the Secret, with its uid as precondition;
 * - otherwise fill what is missing: `data.token` (a legacy token), `data["ca.crt"]` (the
 *   cluster CA, when there is one, replaced when it differs), `data.namespace`, and set both
 *   annotations; nothing when all are there.
 *
 * Secret data is base64 on the wire, as everywhere in the API.
 *
 * @module
 */
import type { Secret, ServiceAccount } from '../../api/model/index.js';
import { deepCopy } from '../../api/object.js';

export const SERVICE_ACCOUNT_TOKEN_TYPE = 'kubernetes.io/service-account-token';
/** Upstream `v1.ServiceAccountNameKey` / `ServiceAccountUIDKey`. */
export const SERVICE_ACCOUNT_NAME_KEY = 'kubernetes.io/service-account.name';
export const SERVICE_ACCOUNT_UID_KEY = 'kubernetes.io/service-account.uid';
/** Upstream `ServiceAccountTokenKey`, `ServiceAccountRootCAKey`, `ServiceAccountNamespaceKey`. */
export const TOKEN_KEY = 'token';
export const ROOT_CA_KEY = 'ca.crt';
export const NAMESPACE_KEY = 'namespace';

export function isServiceAccountTokenSecret(secret: Secret | undefined): secret is Secret {
  return secret?.type === SERVICE_ACCOUNT_TOKEN_TYPE;
}

/** The ServiceAccount a token Secret names: its name, and its uid when annotated ('' if not). */
export function referencedServiceAccount(secret: Secret): { name: string; uid: string } {
  const annotations = secret.metadata?.annotations ?? {};
  return {
    name: annotations[SERVICE_ACCOUNT_NAME_KEY] ?? '',
    uid: annotations[SERVICE_ACCOUNT_UID_KEY] ?? '',
  };
}

/** Upstream `IsServiceAccountToken(secret, sa)`: a token Secret of exactly this account. */
export function isTokenOf(secret: Secret, sa: ServiceAccount): boolean {
  if (!isServiceAccountTokenSecret(secret)) return false;
  const ref = referencedServiceAccount(secret);
  return ref.name === sa.metadata?.name && (ref.uid === '' || ref.uid === sa.metadata?.uid);
}

/** What is missing (upstream `secretUpdateNeeded`). */
export interface TokenSecretNeeds {
  readonly ca: boolean;
  readonly namespace: boolean;
  readonly token: boolean;
}

export type TokenSecretPlan =
  | { readonly action: 'none' }
  | { readonly action: 'delete'; readonly uid: string }
  | { readonly action: 'fill'; readonly needs: TokenSecretNeeds };

/**
 * The action for `secret`, given the ServiceAccount of its name annotation (undefined when
 * there is none, after a live read on a cache miss, as upstream).
 */
export function planTokenSecret(
  secret: Secret | undefined,
  serviceAccount: ServiceAccount | undefined,
  rootCA: string,
): TokenSecretPlan {
  if (!isServiceAccountTokenSecret(secret)) return { action: 'none' };
  if (serviceAccount === undefined || !isTokenOf(secret, serviceAccount)) {
    return { action: 'delete', uid: secret.metadata?.uid ?? '' };
  }
  const needs = tokenSecretNeeds(secret, rootCA);
  return needs.ca || needs.namespace || needs.token
    ? { action: 'fill', needs }
    : { action: 'none' };
}

/** Upstream `secretUpdateNeeded`: a CA that differs from ours, an empty namespace or token. */
export function tokenSecretNeeds(secret: Secret, rootCA: string): TokenSecretNeeds {
  const data = secret.data ?? {};
  const ca = rootCA !== '' && decoded(data[ROOT_CA_KEY]) !== rootCA;
  return {
    ca,
    namespace: decoded(data[NAMESPACE_KEY]) === '',
    token: decoded(data[TOKEN_KEY]) === '',
  };
}

/**
 * `live` with what `needs` says filled in and both annotations set (upstream
 * `generateTokenIfNeeded`); `token` is the legacy token when one is needed.
 */
export function filledTokenSecret(
  live: Secret,
  serviceAccount: ServiceAccount,
  needs: TokenSecretNeeds,
  rootCA: string,
  token: string | undefined,
): Secret {
  const next = deepCopy(live);
  const data: Record<string, string> = { ...(next.data ?? {}) };
  if (needs.ca) data[ROOT_CA_KEY] = encoded(rootCA);
  if (needs.namespace) data[NAMESPACE_KEY] = encoded(live.metadata?.namespace ?? '');
  if (needs.token && token !== undefined) data[TOKEN_KEY] = encoded(token);
  next.data = data;
  next.metadata = {
    ...next.metadata,
    annotations: {
      ...(next.metadata?.annotations ?? {}),
      [SERVICE_ACCOUNT_NAME_KEY]: serviceAccount.metadata?.name ?? '',
      [SERVICE_ACCOUNT_UID_KEY]: serviceAccount.metadata?.uid ?? '',
    },
  };
  return next;
}

/**
 * The ServiceAccount without its reference to the deleted token Secret `secretName` (upstream
 * `removeSecretReference`), or undefined when it has none.
 */
export function withoutSecretReference(
  serviceAccount: ServiceAccount,
  secretName: string,
): ServiceAccount | undefined {
  const refs = serviceAccount.secrets ?? [];
  const kept = refs.filter((r) => r.name !== secretName);
  if (kept.length === refs.length) return undefined;
  const next = deepCopy(serviceAccount);
  next.secrets = kept;
  return next;
}

function decoded(value: string | undefined): string {
  return value === undefined ? '' : Buffer.from(value, 'base64').toString('utf8');
}

function encoded(value: string): string {
  return Buffer.from(value, 'utf8').toString('base64');
}
