/**
 * The claims of ServiceAccount tokens, as upstream builds and reads them:
 * - bound tokens from the TokenRequest API (`pkg/serviceaccount/claims.go` `Claims`): `iss`,
 *   `sub`, `aud`, `exp`, `iat`, `nbf`, `jti`, and `kubernetes.io` naming the namespace, the
 *   ServiceAccount and the object the token is bound to, all with UIDs;
 * - legacy tokens in `kubernetes.io/service-account-token` Secrets (`legacy.go`
 *   `LegacyClaims`): issuer `kubernetes/serviceaccount`, no expiry, no audience.
 *
 * Times are NumericDates: whole seconds since the epoch (go-jose truncates).
 *
 * @module
 */
import { serviceAccountUsername } from '../user.js';
import type { JsonRecord, JsonValue } from './jwt.js';

/** kube-apiserver's issuer when `--service-account-issuer` is the in-cluster name. */
export const DEFAULT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** Upstream `LegacyIssuer`. */
export const LEGACY_ISSUER = 'kubernetes/serviceaccount';

/** A name and UID of an object a token refers to. */
export interface ObjectRef {
  readonly name: string;
  readonly uid: string;
}

/** A node reference: the uid is left out (go-jose `omitempty`) when the node was not found. */
export interface NodeRef {
  readonly name: string;
  readonly uid?: string;
}

/** What the `kubernetes.io` claim says. */
export interface KubernetesClaim {
  readonly namespace: string;
  readonly serviceaccount: ObjectRef;
  readonly pod?: ObjectRef;
  readonly secret?: ObjectRef;
  /** The bound node, or a bound pod's node (no uid when that node did not exist). */
  readonly node?: NodeRef;
  /** NumericDate after which a still-accepted token is reported stale (extended tokens). */
  readonly warnafter?: number;
}

/** The claims of a bound token. */
export interface BoundClaims {
  readonly iss: string;
  readonly sub: string;
  readonly aud: readonly string[];
  readonly exp: number;
  readonly iat: number;
  readonly nbf: number;
  readonly jti?: string;
  readonly 'kubernetes.io': KubernetesClaim;
}

export interface BoundClaimsInput {
  readonly issuer: string;
  readonly namespace: string;
  readonly serviceAccount: ObjectRef;
  /** At most one of pod and secret; a node with a pod is the pod's node (extra info only). */
  readonly pod?: ObjectRef;
  readonly secret?: ObjectRef;
  /** The node a token is bound to, or the bound pod's node (its uid '' when the node is gone). */
  readonly node?: NodeRef;
  readonly audiences: readonly string[];
  /** Milliseconds since the epoch. */
  readonly now: number;
  readonly expirationSeconds: number;
  /** Seconds from now after which the token counts as stale; 0 or absent: none. */
  readonly warnAfterSeconds?: number;
  readonly jti?: string;
}

/** Upstream `Claims`: the claims of a bound token issued at `now`. */
export function boundClaims(input: BoundClaimsInput): BoundClaims {
  if (input.secret !== undefined && (input.pod !== undefined || input.node !== undefined)) {
    throw new Error('internal error, token can only be bound to one object type');
  }
  const now = Math.floor(input.now / 1000);
  const kubernetes: {
    namespace: string;
    serviceaccount: ObjectRef;
    pod?: ObjectRef;
    secret?: ObjectRef;
    node?: NodeRef;
    warnafter?: number;
  } = { namespace: input.namespace, serviceaccount: input.serviceAccount };
  if (input.pod !== undefined) kubernetes.pod = input.pod;
  if (input.secret !== undefined) kubernetes.secret = input.secret;
  // go-jose omits an empty uid (`omitempty`): a pod's node that no longer exists has a name only.
  if (input.node !== undefined) {
    kubernetes.node = input.node.uid
      ? { name: input.node.name, uid: input.node.uid }
      : { name: input.node.name };
  }
  if (input.warnAfterSeconds) kubernetes.warnafter = now + input.warnAfterSeconds;
  return {
    iss: input.issuer,
    sub: serviceAccountUsername(input.namespace, input.serviceAccount.name),
    aud: [...input.audiences],
    iat: now,
    nbf: now,
    exp: now + input.expirationSeconds,
    ...(input.jti ? { jti: input.jti } : {}),
    'kubernetes.io': kubernetes,
  };
}

/** The claims as a JSON payload for {@link signJws}. */
export function claimsPayload(claims: BoundClaims | LegacyClaims): JsonRecord {
  // A JSON round trip drops undefined members, as go-jose's `omitempty`.
  const payload: JsonRecord = JSON.parse(JSON.stringify(claims));
  return payload;
}

/** Upstream `legacyPrivateClaims` keys. */
export const LEGACY_NAMESPACE_CLAIM = 'kubernetes.io/serviceaccount/namespace';
export const LEGACY_SECRET_NAME_CLAIM = 'kubernetes.io/serviceaccount/secret.name';
export const LEGACY_SA_NAME_CLAIM = 'kubernetes.io/serviceaccount/service-account.name';
export const LEGACY_SA_UID_CLAIM = 'kubernetes.io/serviceaccount/service-account.uid';

export interface LegacyClaims {
  readonly iss: typeof LEGACY_ISSUER;
  readonly sub: string;
  readonly [LEGACY_NAMESPACE_CLAIM]: string;
  readonly [LEGACY_SECRET_NAME_CLAIM]: string;
  readonly [LEGACY_SA_NAME_CLAIM]: string;
  readonly [LEGACY_SA_UID_CLAIM]: string;
}

/** Upstream `LegacyClaims`, with the issuer the legacy generator adds. */
export function legacyClaims(
  namespace: string,
  serviceAccount: ObjectRef,
  secretName: string,
): LegacyClaims {
  return {
    iss: LEGACY_ISSUER,
    sub: serviceAccountUsername(namespace, serviceAccount.name),
    [LEGACY_NAMESPACE_CLAIM]: namespace,
    [LEGACY_SECRET_NAME_CLAIM]: secretName,
    [LEGACY_SA_NAME_CLAIM]: serviceAccount.name,
    [LEGACY_SA_UID_CLAIM]: serviceAccount.uid,
  };
}

/** A string claim, or '' when absent or not a string (Go decodes into a zero value or fails). */
export function stringClaim(payload: JsonRecord, key: string): string {
  const v = payload[key];
  return typeof v === 'string' ? v : '';
}

/** `aud` as go-jose reads it: a string or an array of strings; undefined when malformed. */
export function audienceClaim(payload: JsonRecord): string[] | undefined {
  const v = payload.aud;
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((a): a is string => typeof a === 'string')) return v;
  return undefined;
}

/** A NumericDate claim; undefined when absent, null when malformed. */
export function numericDateClaim(payload: JsonRecord, key: string): number | undefined | null {
  const v: JsonValue | undefined = payload[key];
  if (v === undefined || v === null) return undefined;
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : null;
}

/** The `kubernetes.io` claim of a bound token; undefined when missing or malformed. */
export function kubernetesClaim(payload: JsonRecord): KubernetesClaim | undefined {
  const k = payload['kubernetes.io'];
  if (k === null || typeof k !== 'object' || Array.isArray(k)) return undefined;
  const ref = (v: JsonValue | undefined): ObjectRef | undefined | null => {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'object' || Array.isArray(v)) return null;
    const name = v.name ?? '';
    const uid = v.uid ?? '';
    return typeof name === 'string' && typeof uid === 'string' ? { name, uid } : null;
  };
  const serviceaccount = ref(k.serviceaccount);
  const pod = ref(k.pod);
  const secret = ref(k.secret);
  const node = ref(k.node);
  const namespace = k.namespace ?? '';
  const warnafter = numericDateClaim(k, 'warnafter');
  if (serviceaccount === null || pod === null || secret === null || node === null) return undefined;
  if (typeof namespace !== 'string' || warnafter === null) return undefined;
  return {
    namespace,
    serviceaccount: serviceaccount ?? { name: '', uid: '' },
    ...(pod ? { pod } : {}),
    ...(secret ? { secret } : {}),
    ...(node ? { node } : {}),
    ...(warnafter !== undefined ? { warnafter } : {}),
  };
}
