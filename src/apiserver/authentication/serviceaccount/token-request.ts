/**
 * The TokenRequest API, `POST /api/v1/namespaces/{ns}/serviceaccounts/{name}/token`
 * (upstream `pkg/registry/core/serviceaccount/storage/token.go` `TokenREST.Create`, with
 * `pkg/apis/authentication/validation` `ValidateTokenRequest` and the v1 defaults): what
 * `kubectl create token` and the kubelet call.
 *
 * In upstream's order: body name/namespace must match the URL (422), the ServiceAccount must
 * exist (404), audiences default to the API server's, expirationSeconds to 3600 and must lie in
 * [600, 2^32] (422), a bound object (a Pod of that ServiceAccount, a Secret or a Node) must
 * exist (404, 400 for a pod of another account or another kind) with the UID given (409);
 * `--service-account-max-token-expiration` shortens with a warning, and a pod-bound token of
 * exactly 3607 s for the API server's audiences is extended to a year with `warnafter`
 * (`--service-account-extend-token-expiration`, on by default upstream).
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { badRequest, conflict, invalid, notFound } from '../../../api/errors.js';
import type { FieldError } from '../../../api/field-error.js';
import type {
  AuthenticationV1TokenRequest,
  BoundObjectReference,
} from '../../../api/model/index.js';
import type { KubeObject } from '../../../api/object.js';
import type { Clock } from '../../../util/clock.js';
import type { ObjectLookup } from './authenticator.js';
import { boundClaims, claimsPayload, type NodeRef, type ObjectRef } from './claims.js';
import { signJws } from './jwt.js';
import type { ServiceAccountKey } from './keys.js';

/** v1 `SetDefaults_TokenRequestSpec`: one hour. */
export const DEFAULT_EXPIRATION_SECONDS = 3600;
/** `ValidateTokenRequest`: 10 minutes … 2^32 seconds. */
export const MIN_EXPIRATION_SECONDS = 600;
export const MAX_EXPIRATION_SECONDS = 2 ** 32;
/** Upstream `WarnOnlyBoundTokenExpirationSeconds` (the kubelet's default, 1 h 7 s). */
export const WARN_ONLY_EXPIRATION_SECONDS = 3607;
/** Upstream `ExpirationExtensionSeconds`: one year. */
export const EXTENDED_EXPIRATION_SECONDS = 365 * 24 * 3600;

const TOKEN_REQUEST_KIND = { group: 'authentication.k8s.io', kind: 'TokenRequest' };

export interface IssueTokenRequestOptions {
  /** The URL's namespace and ServiceAccount name. */
  readonly namespace: string;
  readonly name: string;
  /** The ServiceAccount the URL names, as stored; undefined when it does not exist (404). */
  readonly serviceAccount: KubeObject | undefined;
  /** The decoded request body. */
  readonly request: AuthenticationV1TokenRequest;
  /** Reads the bound object (pods, secrets, nodes). */
  readonly lookup: ObjectLookup;
  readonly clock: Pick<Clock, 'now'>;
  readonly key: ServiceAccountKey;
  /** `--service-account-issuer` (the first one signs). */
  readonly issuer: string;
  /** `--api-audiences`: the default audiences. */
  readonly apiAudiences: readonly string[];
  /** `--service-account-max-token-expiration` in seconds; 0 or absent: no limit. */
  readonly maxExpirationSeconds?: number;
  /** `--service-account-extend-token-expiration`. @default true */
  readonly extendExpiration?: boolean;
  /** Makes the `jti` (a random UUID by default). */
  readonly newJti?: () => string;
}

export interface IssuedTokenRequest {
  /** The TokenRequest to answer with (201). */
  readonly response: AuthenticationV1TokenRequest;
  /** Warning headers (`299 - "…"`) to send. */
  readonly warnings: readonly string[];
  /** Upstream's `authentication.kubernetes.io/issued-credential-id` audit annotation value. */
  readonly credentialId: string;
}

/** Issues a token for a TokenRequest, or throws the StatusError upstream answers with. */
export function issueTokenRequest(options: IssueTokenRequestOptions): IssuedTokenRequest {
  const { namespace, name, request } = options;
  const meta = request.metadata ?? {};
  checkBodyNames(meta, namespace, name);
  const sa = options.serviceAccount;
  if (sa === undefined) throw notFound({ group: '', resource: 'serviceaccounts' }, name);
  const spec = request.spec ?? { audiences: [] };
  const audiences = spec.audiences?.length ? [...spec.audiences] : [...options.apiAudiences];
  let expirationSeconds = spec.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS;
  const now = options.clock.now();
  const errors = validateExpiration(expirationSeconds);
  if (errors.length > 0) throw invalid(TOKEN_REQUEST_KIND, '', errors);

  const bound = spec.boundObjectRef
    ? resolveBoundObject(spec.boundObjectRef, namespace, name, options.lookup)
    : {};

  const warnings: string[] = [];
  const max = options.maxExpirationSeconds ?? 0;
  if (max > 0 && expirationSeconds > max) {
    warnings.push(
      `requested expiration of ${expirationSeconds} seconds shortened to ${max} seconds`,
    );
    expirationSeconds = max;
  }
  const extend =
    options.extendExpiration !== false &&
    bound.pod !== undefined &&
    expirationSeconds === WARN_ONLY_EXPIRATION_SECONDS &&
    audiences.every((a) => options.apiAudiences.includes(a));
  const exp = extend ? EXTENDED_EXPIRATION_SECONDS : expirationSeconds;
  const warnAfterSeconds = extend ? expirationSeconds : 0;
  const jti = (options.newJti ?? randomUUID)();
  const claims = boundClaims({
    issuer: options.issuer,
    namespace,
    serviceAccount: { name: sa.metadata?.name ?? name, uid: sa.metadata?.uid ?? '' },
    ...bound,
    audiences,
    now,
    expirationSeconds: exp,
    warnAfterSeconds,
    jti,
  });
  const token = signJws(options.key, claimsPayload(claims));
  const response: AuthenticationV1TokenRequest = {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    metadata: {
      ...meta,
      name: meta.name || (sa.metadata?.name ?? name),
      namespace: meta.namespace || (sa.metadata?.namespace ?? namespace),
      creationTimestamp: rfc3339(now),
    },
    spec: {
      ...spec,
      audiences,
      expirationSeconds,
    },
    // Upstream: now + the (possibly shortened) requested seconds, never the extended ones.
    status: { token, expirationTimestamp: rfc3339(now + expirationSeconds * 1000) },
  };
  return { response, warnings, credentialId: `JTI=${jti}` };
}

/** The body's name and namespace, when set, must be the URL's. */
function checkBodyNames(
  meta: { readonly name?: string; readonly namespace?: string },
  namespace: string,
  name: string,
): void {
  if (meta.name && meta.name !== name) {
    throw invalid(TOKEN_REQUEST_KIND, name, [
      mismatch('metadata.name', meta.name, 'must match the service account name if specified'),
    ]);
  }
  if (meta.namespace && meta.namespace !== namespace) {
    throw invalid(TOKEN_REQUEST_KIND, name, [
      mismatch(
        'metadata.namespace',
        meta.namespace,
        'must match the service account namespace if specified',
      ),
    ]);
  }
}

function mismatch(field: string, value: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, badValue: value, detail };
}

/** Upstream `ValidateTokenRequest` (attestations are not in the v1 API). */
export function validateExpiration(seconds: number): FieldError[] {
  const field = 'spec.expirationSeconds';
  const errors: FieldError[] = [];
  if (seconds < MIN_EXPIRATION_SECONDS) {
    errors.push({
      type: 'FieldValueInvalid',
      field,
      badValue: seconds,
      detail: 'may not specify a duration less than 10 minutes',
    });
  }
  if (seconds > MAX_EXPIRATION_SECONDS) {
    errors.push({
      type: 'FieldValueInvalid',
      field,
      badValue: seconds,
      detail: 'may not specify a duration larger than 2^32 seconds',
    });
  }
  return errors;
}

interface BoundObjects {
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: NodeRef;
}

/** Go's `schema.FromAPIVersionAndKind`: the group of `apiVersion` ('' for `v1` or garbage). */
function groupVersionOf(apiVersion: string): { group: string; version: string } {
  const parts = apiVersion.split('/');
  if (apiVersion === '' || parts.length > 2) return { group: '', version: '' };
  return parts.length === 1
    ? { group: '', version: apiVersion }
    : { group: parts[0] ?? '', version: parts[1] ?? '' };
}

function resolveBoundObject(
  ref: BoundObjectReference,
  namespace: string,
  saName: string,
  lookup: ObjectLookup,
): BoundObjects {
  const gv = groupVersionOf(ref.apiVersion ?? '');
  const kind = ref.kind ?? '';
  const refName = ref.name ?? '';
  const kinds: Record<string, () => { out: BoundObjects; uid: string }> = {
    Pod: () => boundPod(lookup, namespace, refName, saName),
    Node: () => {
      const uid = found(lookup.get('nodes', '', refName), 'nodes', refName);
      return { out: { node: { name: refName, uid } }, uid };
    },
    Secret: () => {
      const uid = found(lookup.get('secrets', namespace, refName), 'secrets', refName);
      return { out: { secret: { name: refName, uid } }, uid };
    },
  };
  const resolve = gv.group === '' && Object.hasOwn(kinds, kind) ? kinds[kind] : undefined;
  if (resolve === undefined) {
    throw badRequest(`cannot bind token to object of type ${gv.group}/${gv.version}, Kind=${kind}`);
  }
  const { out, uid } = resolve();
  if (ref.uid && ref.uid !== uid) {
    throw conflict(
      { group: gv.group, resource: kind },
      refName,
      `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  return out;
}

/** The object's uid; a 404 for `resource` when there is none. */
function found(obj: KubeObject | undefined, resource: string, name: string): string {
  if (obj === undefined) throw notFound({ group: '', resource }, name);
  return obj.metadata?.uid ?? '';
}

function stringField(obj: unknown, key: string): string {
  if (obj === null || typeof obj !== 'object' || !(key in obj)) return '';
  const v: unknown = Reflect.get(obj, key);
  return typeof v === 'string' ? v : '';
}

/** A pod of the ServiceAccount, with its node (a missing node named without uid, upstream). */
function boundPod(
  lookup: ObjectLookup,
  namespace: string,
  name: string,
  saName: string,
): { out: BoundObjects; uid: string } {
  const pod = lookup.get('pods', namespace, name);
  const uid = found(pod, 'pods', name);
  if (stringField(pod?.spec, 'serviceAccountName') !== saName) {
    throw badRequest(
      `cannot bind token for serviceaccount ${JSON.stringify(saName)} to pod running with different serviceaccount name.`,
    );
  }
  const out: BoundObjects = { pod: { name, uid } };
  const nodeName = stringField(pod?.spec, 'nodeName');
  if (nodeName !== '') {
    const nodeUid = lookup.get('nodes', '', nodeName)?.metadata?.uid;
    out.node = { name: nodeName, ...(nodeUid ? { uid: nodeUid } : {}) };
  }
  return { out, uid };
}

/** `metav1.Time` on the wire: RFC 3339 in UTC, whole seconds. */
function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
