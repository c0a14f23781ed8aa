/**
 * Authenticates ServiceAccount bearer tokens as kube-apiserver does: its JWT token
 * authenticator (`pkg/serviceaccount/jwt.go`) with the bound-token validator (`claims.go`) for
 * tokens of the configured issuers, and the legacy validator (`legacy.go`, lookup on) for the
 * `kubernetes/serviceaccount` tokens of `kubernetes.io/service-account-token` Secrets.
 *
 * Outcomes, as upstream's `(response, ok, err)`:
 * - `undefined`: not a token of ours (not a JWT, or an issuer we do not issue): the next
 *   authenticator may try it;
 * - `{ ok: false, error }`: ours, but invalid: bad signature, unknown key, wrong audience,
 *   expired, or its ServiceAccount or bound object gone or replaced (another UID); the request
 *   is unauthorized. Messages are upstream's and quote no token material;
 * - `{ ok: true, user }`: the ServiceAccount's user, with upstream's extra keys.
 *
 * Objects are read through a synchronous {@link ObjectLookup} (upstream reads its informer
 * caches, falling back to live reads; the lead wires the store). A bound object deleted
 * gracefully stays valid for upstream's 60 s leeway after its deletionTimestamp.
 *
 * @module
 */
import { timingSafeEqual } from 'node:crypto';
import type { KubeObject } from '../../../api/object.js';
import type { Clock } from '../../../util/clock.js';
import {
  parseServiceAccountUsername,
  serviceAccountGroups,
  serviceAccountUsername,
  type UserInfo,
} from '../user.js';
import {
  audienceClaim,
  DEFAULT_ISSUER,
  type KubernetesClaim,
  kubernetesClaim,
  LEGACY_ISSUER,
  LEGACY_NAMESPACE_CLAIM,
  LEGACY_SA_NAME_CLAIM,
  LEGACY_SA_UID_CLAIM,
  LEGACY_SECRET_NAME_CLAIM,
  numericDateClaim,
  stringClaim,
} from './claims.js';
import {
  type JsonRecord,
  JwsError,
  MAX_TOKEN_BYTES,
  type ParsedJws,
  parseJws,
  verifyJws,
} from './jwt.js';
import type { ServiceAccountPublicKey } from './keys.js';

/** The resources a token can refer to. */
export type LookupResource = 'serviceaccounts' | 'pods' | 'secrets' | 'nodes';

/** Reads current objects (nodes with namespace ''); undefined when there is none. */
export interface ObjectLookup {
  get(resource: LookupResource, namespace: string, name: string): KubeObject | undefined;
}

/** Upstream's `user.Info` extra keys (`k8s.io/apiserver/pkg/authentication/serviceaccount`). */
export const POD_NAME_KEY = 'authentication.kubernetes.io/pod-name';
export const POD_UID_KEY = 'authentication.kubernetes.io/pod-uid';
export const NODE_NAME_KEY = 'authentication.kubernetes.io/node-name';
export const NODE_UID_KEY = 'authentication.kubernetes.io/node-uid';
export const CREDENTIAL_ID_KEY = 'authentication.kubernetes.io/credential-id';

/** go-jose's `DefaultLeeway`: clock skew allowed on exp/nbf/iat and on deletions. */
export const LEEWAY_MS = 60_000;

export type ServiceAccountAuthResult =
  | {
      readonly ok: true;
      readonly user: UserInfo;
      /** The audiences the token is valid for among the requested ones. */
      readonly audiences: readonly string[];
      /** A legacy Secret token: the Secret (upstream labels it with the last-used date). */
      readonly legacySecret?: { readonly namespace: string; readonly name: string };
      /** Seconds past `warnafter` of an extended token (upstream's stale-token audit note). */
      readonly staleSeconds?: number;
    }
  | { readonly ok: false; readonly error: string };

export interface ServiceAccountTokenAuthenticatorOptions {
  /** `--service-account-issuer` values; tokens of any are accepted. @default [DEFAULT_ISSUER] */
  readonly issuers?: readonly string[];
  /** `--api-audiences`. @default the first issuer, as kube-apiserver */
  readonly apiAudiences?: readonly string[];
  /** The signing key's public half and older keys still trusted. */
  readonly keys: readonly ServiceAccountPublicKey[];
  readonly lookup: ObjectLookup;
  readonly clock: Pick<Clock, 'now'>;
  /** Accept `kubernetes/serviceaccount` Secret tokens (upstream's default). @default true */
  readonly legacyTokens?: boolean;
}

const fail = (error: string): ServiceAccountAuthResult => ({ ok: false, error });

export class ServiceAccountTokenAuthenticator {
  readonly #issuers: ReadonlySet<string>;
  readonly #apiAudiences: readonly string[];
  readonly #options: ServiceAccountTokenAuthenticatorOptions;

  constructor(options: ServiceAccountTokenAuthenticatorOptions) {
    const issuers = options.issuers?.length ? options.issuers : [DEFAULT_ISSUER];
    this.#issuers = new Set(issuers);
    this.#apiAudiences = options.apiAudiences?.length ? options.apiAudiences : [issuers[0] ?? ''];
    this.#options = options;
  }

  /**
   * Authenticates `token` for `audiences` (a TokenReview's `spec.audiences`; the API server's
   * audiences when absent or empty).
   */
  authenticate(token: string, audiences?: readonly string[]): ServiceAccountAuthResult | undefined {
    const issuer = unverifiedIssuer(token);
    const legacy = issuer === LEGACY_ISSUER && this.#options.legacyTokens !== false;
    if (issuer === undefined || (!legacy && !this.#issuers.has(issuer))) return undefined;
    let jws: ParsedJws;
    try {
      jws = parseJws(token);
    } catch {
      return undefined; // upstream: a token go-jose cannot parse is not one of ours
    }
    try {
      verifyJws(jws, this.#options.keys);
    } catch (err) {
      return fail(err instanceof JwsError ? err.message : 'invalid signature');
    }
    const requested = audiences?.length ? audiences : this.#apiAudiences;
    const tokenAudiences = audienceClaim(jws.payload);
    if (tokenAudiences === undefined) return fail('service account token audience is malformed');
    // Legacy tokens have no audience: they are valid for the API server's own (upstream).
    const effective = tokenAudiences.length === 0 ? this.#apiAudiences : tokenAudiences;
    const matched = effective.filter((a) => requested.includes(a));
    if (matched.length === 0 && this.#apiAudiences.length !== 0) {
      return fail(
        `token audiences ${goQuote(effective)} is invalid for the target audiences ${goQuote(requested)}`,
      );
    }
    const result = legacy
      ? this.#validateLegacy(token, jws.payload)
      : this.#validateBound(jws.payload);
    if (!result.ok) return result;
    return { ...result, audiences: matched };
  }

  /** Upstream `validator.Validate` (claims.go). */
  #validateBound(payload: JsonRecord): ServiceAccountAuthResult {
    const now = this.#options.clock.now();
    const timeError = checkTimes(payload, now);
    if (timeError !== undefined) return fail(timeError);
    const k = kubernetesClaim(payload);
    if (k === undefined) {
      return fail(
        'service account token claims could not be validated due to unexpected private claim',
      );
    }
    const refError = checkBoundReferences(k, this.#options.lookup, now - LEEWAY_MS);
    if (refError !== undefined) return fail(refError);
    const info: BoundInfo = {
      namespace: k.namespace,
      name: k.serviceaccount.name,
      uid: k.serviceaccount.uid,
      ...(k.pod ? { pod: k.pod } : {}),
      // A pod-bound token's node is information only (ServiceAccountTokenPodNodeInfo).
      ...(k.node ? { node: k.node } : {}),
    };
    const jti = stringClaim(payload, 'jti');
    if (jti !== '') info.credentialId = `JTI=${jti}`;
    const stale = staleSeconds(k, now);
    return {
      ok: true,
      user: boundUser(info),
      audiences: [],
      ...(stale !== undefined ? { staleSeconds: stale } : {}),
    };
  }

  /** Upstream `legacyValidator.Validate` with lookup on (legacy.go). */
  #validateLegacy(token: string, payload: JsonRecord): ServiceAccountAuthResult {
    const sub = stringClaim(payload, 'sub');
    const namespace = stringClaim(payload, LEGACY_NAMESPACE_CLAIM);
    const secretName = stringClaim(payload, LEGACY_SECRET_NAME_CLAIM);
    const saName = stringClaim(payload, LEGACY_SA_NAME_CLAIM);
    const saUid = stringClaim(payload, LEGACY_SA_UID_CLAIM);
    if (sub === '') return fail('sub claim is missing');
    if (namespace === '') return fail('namespace claim is missing');
    if (secretName === '') return fail('secretName claim is missing');
    if (saName === '') return fail('serviceAccountName claim is missing');
    if (saUid === '') return fail('serviceAccountUID claim is missing');
    const subject = parseServiceAccountUsername(sub);
    if (subject === undefined || subject[0] !== namespace || subject[1] !== saName) {
      return fail('sub claim is invalid');
    }
    const { lookup } = this.#options;
    const secret = lookup.get('secrets', namespace, secretName);
    if (secret === undefined || deletionTime(secret) !== undefined) {
      return fail('Token has been invalidated');
    }
    if (!sameBytes(secretTokenBytes(secret), Buffer.from(token))) {
      return fail("Token does not match server's copy");
    }
    const sa = lookup.get('serviceaccounts', namespace, saName);
    if (sa === undefined) return fail(`serviceaccounts "${saName}" not found`);
    if (deletionTime(sa) !== undefined) {
      return fail(`ServiceAccount ${namespace}/${saName} has been deleted`);
    }
    if (uidOf(sa) !== saUid) {
      return fail(`ServiceAccount UID (${uidOf(sa)}) does not match claim (${saUid})`);
    }
    return {
      ok: true,
      user: boundUser({ namespace, name: saName, uid: saUid }),
      audiences: [],
      legacySecret: { namespace, name: secretName },
    };
  }
}

const INVALIDATED = 'service account token has been invalidated';

/**
 * Upstream's checks of the objects a bound token names, in its order: the ServiceAccount,
 * then a Secret, a Pod, or a Node bound without a pod. An object whose deletionTimestamp is
 * before `deletedBefore` counts as gone. Returns the error, or undefined when all hold.
 */
function checkBoundReferences(
  k: KubernetesClaim,
  lookup: ObjectLookup,
  deletedBefore: number,
): string | undefined {
  const ns = k.namespace;
  const sa = lookup.get('serviceaccounts', ns, k.serviceaccount.name);
  if (sa === undefined) return `serviceaccounts "${k.serviceaccount.name}" not found`;
  if (uidOf(sa) !== k.serviceaccount.uid) {
    return `service account UID (${uidOf(sa)}) does not match claim (${k.serviceaccount.uid})`;
  }
  if (deletedBeforeTime(sa, deletedBefore)) {
    return `service account ${ns}/${k.serviceaccount.name} has been deleted`;
  }
  const check = (obj: KubeObject | undefined, kind: string, uid: string): string | undefined => {
    if (obj === undefined) return INVALIDATED;
    if (uidOf(obj) !== uid) {
      return `${kind} UID (${uidOf(obj)}) does not match service account ${kind} ref claim (${uid})`;
    }
    return deletedBeforeTime(obj, deletedBefore) ? INVALIDATED : undefined;
  };
  if (k.secret !== undefined) {
    const err = check(lookup.get('secrets', ns, k.secret.name), 'secret', k.secret.uid);
    if (err !== undefined) return err;
  }
  if (k.pod !== undefined) return check(lookup.get('pods', ns, k.pod.name), 'pod', k.pod.uid);
  if (k.node !== undefined) {
    return check(lookup.get('nodes', '', k.node.name), 'node', k.node.uid ?? '');
  }
  return undefined;
}

/** Upstream `ServiceAccountInfo`. */
interface BoundInfo {
  namespace: string;
  name: string;
  uid: string;
  pod?: { name: string; uid: string };
  node?: { name: string; uid?: string };
  credentialId?: string;
}

/** Upstream `ServiceAccountInfo.UserInfo()`, with `system:authenticated` already added. */
function boundUser(info: BoundInfo): UserInfo {
  const extra: Record<string, string[]> = {};
  if (info.pod?.name && info.pod.uid) {
    extra[POD_NAME_KEY] = [info.pod.name];
    extra[POD_UID_KEY] = [info.pod.uid];
  }
  if (info.credentialId) extra[CREDENTIAL_ID_KEY] = [info.credentialId];
  if (info.node?.name) {
    extra[NODE_NAME_KEY] = [info.node.name];
    if (info.node.uid) extra[NODE_UID_KEY] = [info.node.uid];
  }
  return {
    username: serviceAccountUsername(info.namespace, info.name),
    uid: info.uid,
    groups: serviceAccountGroups(info.namespace),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}

/** go-jose `Claims.ValidateWithLeeway` on exp, nbf and iat, with upstream's messages. */
function checkTimes(payload: JsonRecord, nowMs: number): string | undefined {
  const exp = numericDateClaim(payload, 'exp');
  const nbf = numericDateClaim(payload, 'nbf');
  const iat = numericDateClaim(payload, 'iat');
  if (exp === null || nbf === null || iat === null) {
    return 'service account token claims could not be validated due to unexpected validation error';
  }
  const now = nowMs / 1000;
  const leeway = LEEWAY_MS / 1000;
  if (nbf !== undefined && now + leeway < nbf) return 'service account token is not valid yet';
  if (exp !== undefined && now - leeway > exp) return 'service account token has expired';
  if (iat !== undefined && now + leeway < iat)
    return 'service account token is issued in the future';
  return undefined;
}

function staleSeconds(k: KubernetesClaim, nowMs: number): number | undefined {
  if (!k.warnafter) return undefined;
  const now = Math.floor(nowMs / 1000);
  return now > k.warnafter ? now - k.warnafter : undefined;
}

/**
 * The `iss` of a token that looks like a compact JWS, unverified (upstream `hasCorrectIssuer`),
 * used only to decide whether the token is ours; undefined for anything else.
 */
function unverifiedIssuer(token: string): string | undefined {
  if (token.length > MAX_TOKEN_BYTES || token.trimStart().startsWith('{')) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString('utf8'));
    if (claims === null || typeof claims !== 'object' || !('iss' in claims)) return undefined;
    return typeof claims.iss === 'string' ? claims.iss : undefined;
  } catch {
    return undefined;
  }
}

function uidOf(obj: KubeObject): string {
  return obj.metadata?.uid ?? '';
}

function deletionTime(obj: KubeObject): number | undefined {
  const ts = obj.metadata?.deletionTimestamp;
  return typeof ts === 'string' ? Date.parse(ts) : undefined;
}

function deletedBeforeTime(obj: KubeObject, before: number): boolean {
  const t = deletionTime(obj);
  return t !== undefined && t < before;
}

/** `data.token` of a Secret as stored (base64 on the wire). */
function secretTokenBytes(secret: KubeObject): Buffer {
  const data = secret.data;
  if (data === null || typeof data !== 'object' || !('token' in data)) return Buffer.alloc(0);
  return typeof data.token === 'string' ? Buffer.from(data.token, 'base64') : Buffer.alloc(0);
}

/** Constant-time comparison, as upstream's `subtle.ConstantTimeCompare`. */
function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Go's `%q` of a string slice: `["a" "b"]`. */
function goQuote(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}
