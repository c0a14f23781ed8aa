/**
 * Legacy Secret tokens (upstream `LegacyClaims` signed by kube-controller-manager's tokens
 * controller with `--service-account-private-key-file`): a JWT of issuer
 * `kubernetes/serviceaccount` without expiry, valid while its Secret holds it and the
 * ServiceAccount exists.
 *
 * The token controller lives in a layer that may not import the API server's code
 * (`docs/architecture.md`), so it takes a {@link LegacyTokenGenerator} function; the cluster
 * layer builds one here, from the key file the API server made.
 *
 * @module
 */
import { claimsPayload, legacyClaims, type ObjectRef } from './claims.js';
import { signJws } from './jwt.js';
import { loadServiceAccountKey, type ServiceAccountKey } from './keys.js';

/** Signs the legacy token of `secretName` for the ServiceAccount `serviceAccount`. */
export type LegacyTokenGenerator = (
  namespace: string,
  serviceAccount: ObjectRef,
  secretName: string,
) => Promise<string>;

/** The legacy token of a Secret, signed with `key`. */
export function signLegacyToken(
  key: ServiceAccountKey,
  namespace: string,
  serviceAccount: ObjectRef,
  secretName: string,
): string {
  return signJws(key, claimsPayload(legacyClaims(namespace, serviceAccount, secretName)));
}

/** A generator with an in-memory key (tests, or an API server that holds the key). */
export function legacyTokenGenerator(key: ServiceAccountKey): LegacyTokenGenerator {
  return async (namespace, serviceAccount, secretName) =>
    signLegacyToken(key, namespace, serviceAccount, secretName);
}

/**
 * A generator that reads `dir/sa.key` on first use and never creates it: the key is the API
 * server's. Until the file exists each call rejects (the controller retries with backoff);
 * once read, the key is kept.
 */
export function legacyTokenGeneratorFromDir(dir: string): LegacyTokenGenerator {
  let key: Promise<ServiceAccountKey> | undefined;
  return async (namespace, serviceAccount, secretName) => {
    key ??= loadServiceAccountKey(dir).catch((err: unknown) => {
      key = undefined;
      throw err;
    });
    return signLegacyToken(await key, namespace, serviceAccount, secretName);
  };
}
