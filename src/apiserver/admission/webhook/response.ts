/**
 * Checking a webhook's answer, after upstream `request.VerifyAdmissionResponse`: v1 answers
 * must carry a `response` with the request's UID and be `admission.k8s.io/v1 AdmissionReview`;
 * only a mutating webhook may return `patch`, and then with `patchType`; v1beta1 answers are
 * checked as upstream checks them (neither UID nor kind; a patch is a JSON patch). Also decodes
 * the base64 `patch` into JSON Patch operations.
 *
 * @module
 */
import { isJsonObject } from '../../../api/object.js';
import type { ReviewVersion } from './review.js';

export interface VerifiedResponse {
  readonly allowed: boolean;
  /** The `status` (upstream `Result`), as sent. */
  readonly result: unknown;
  /** The base64 text of `patch` ('' when none). */
  readonly patch: string;
  readonly patchType: string;
  readonly warnings: readonly string[];
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

/** A response that does not pass; the message is upstream's. */
export class InvalidResponseError extends Error {}

function fail(message: string): never {
  throw new InvalidResponseError(message);
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function stringMap(v: unknown): Record<string, string> {
  if (!isJsonObject(v)) return {};
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

function gvkText(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const k = typeof kind === 'string' ? kind : '';
  const slash = av.indexOf('/');
  // Go's GroupVersionKind.String(): `group/version, Kind=kind`, `/version` for the core group.
  return `${slash < 0 ? `/${av}` : av}, Kind=${k}`;
}

interface PatchFields {
  readonly patch: string;
  /** `patchType` present (even as ''), as Go's pointer field tells. */
  readonly typeSet: boolean;
  readonly patchType: string;
}

/** Upstream's v1 identity checks: the request's UID and `admission.k8s.io/v1 AdmissionReview`. */
function checkV1Identity(uid: string, review: Record<string, unknown>, got: unknown): void {
  const answered = typeof got === 'string' ? got : '';
  if (answered !== uid) {
    fail(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(answered)}`);
  }
  if (review.apiVersion !== 'admission.k8s.io/v1' || review.kind !== 'AdmissionReview') {
    fail(
      `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gvkText(review.apiVersion, review.kind)}`,
    );
  }
}

/** Upstream's v1 patch checks: both or neither for a mutating webhook, none for a validating one. */
function checkV1Patch(mutating: boolean, p: PatchFields): void {
  if (!mutating) {
    if (p.patch !== '') fail('validating webhook may not return response.patch');
    if (p.typeSet) fail('validating webhook may not return response.patchType');
    return;
  }
  if (p.patch !== '' && !p.typeSet)
    fail('webhook returned response.patch but not response.patchType');
  if (p.patch === '' && p.typeSet)
    fail('webhook returned response.patchType but not response.patch');
  if (p.typeSet && p.patchType === '') fail('webhook returned invalid response.patchType of ""');
}

export function verifyAdmissionResponse(
  version: ReviewVersion,
  uid: string,
  mutating: boolean,
  review: unknown,
): VerifiedResponse {
  if (!isJsonObject(review)) fail('webhook response was absent');
  const r = review.response;
  if (!isJsonObject(r)) fail('webhook response was absent');
  const sent: PatchFields = {
    patch: typeof r.patch === 'string' ? r.patch : '',
    typeSet: r.patchType !== undefined && r.patchType !== null,
    patchType: typeof r.patchType === 'string' ? r.patchType : '',
  };
  let patch = sent.patch;
  let patchType = sent.patchType;
  if (version === 'v1') {
    checkV1Identity(uid, review, r.uid);
    checkV1Patch(mutating, sent);
  } else {
    // Upstream pins a v1beta1 patch to JSONPatch and ignores a validating webhook's.
    patch = mutating ? sent.patch : '';
    patchType = patch !== '' ? 'JSONPatch' : '';
  }
  return {
    allowed: r.allowed === true,
    result: r.status,
    patch,
    patchType,
    warnings: strings(r.warnings),
    auditAnnotations: stringMap(r.auditAnnotations),
  };
}

/** A decoded JSON patch, or an Error saying why it is not one (upstream `jsonpatch.DecodePatch`). */
export function decodePatch(base64: string): unknown[] {
  const text = Buffer.from(base64, 'base64').toString('utf8');
  const ops: unknown = JSON.parse(text);
  if (!Array.isArray(ops)) {
    throw new Error('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  }
  return ops;
}
