/**
 * The AdmissionReview a webhook is sent, after upstream `request/admissionreview.go`
 * (`CreateAdmissionObjects`, `CreateV1AdmissionReview`): the first of the webhook's
 * `admissionReviewVersions` this server speaks (v1, v1beta1: the same request shape), a fresh
 * UID per call, `kind`/`resource` as matched (an equivalent's under `matchPolicy: Equivalent`)
 * and `requestKind`/`requestResource` as requested, `object`/`oldObject` as `null` when absent
 * (Go's empty RawExtension), and the operation's options.
 *
 * @module
 */
import type { KubeObject } from '../../../api/object.js';
import type { Invocation } from './matching.js';
import type { AdmissionAttributes } from './types.js';

export const REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;
export type ReviewVersion = (typeof REVIEW_VERSIONS)[number];

/** The version to speak, or undefined (then the call fails with upstream's message). */
export function reviewVersionFor(
  versions: readonly string[] | undefined,
): ReviewVersion | undefined {
  for (const v of versions ?? []) {
    if (v === 'v1' || v === 'v1beta1') return v;
  }
  return undefined;
}

export const NO_KNOWN_REVIEW_VERSION =
  'webhook does not accept known AdmissionReview versions (v1, v1beta1)';

/** Upstream's options kinds per operation, for a request the lead sent none with. */
function defaultOptions(op: AdmissionAttributes['operation']): KubeObject | null {
  const kind =
    op === 'CREATE'
      ? 'CreateOptions'
      : op === 'UPDATE'
        ? 'UpdateOptions'
        : op === 'DELETE'
          ? 'DeleteOptions'
          : undefined;
  return kind === undefined ? null : { kind, apiVersion: 'meta.k8s.io/v1' };
}

function userInfoJson(a: AdmissionAttributes): Record<string, unknown> {
  const u = a.userInfo;
  const out: Record<string, unknown> = {};
  // Go's omitempty on every field of authentication/v1 UserInfo.
  if (u.username !== '') out.username = u.username;
  if (u.uid !== undefined && u.uid !== '') out.uid = u.uid;
  if (u.groups.length > 0) out.groups = [...u.groups];
  if (u.extra !== undefined && Object.keys(u.extra).length > 0) {
    out.extra = Object.fromEntries(Object.entries(u.extra).map(([k, v]) => [k, [...v]]));
  }
  return out;
}

/**
 * The AdmissionRequest without uid and objects: what `request` is in match conditions and the
 * frame of the one sent.
 */
export function requestFrame(a: AdmissionAttributes, inv: Invocation): Record<string, unknown> {
  const out: Record<string, unknown> = {
    kind: { group: inv.kind.group, version: inv.kind.version, kind: inv.kind.kind },
    resource: {
      group: inv.resource.group,
      version: inv.resource.version,
      resource: inv.resource.resource,
    },
  };
  if (inv.subresource !== '') out.subResource = inv.subresource;
  out.requestKind = { group: a.kind.group, version: a.kind.version, kind: a.kind.kind };
  out.requestResource = {
    group: a.resource.group,
    version: a.resource.version,
    resource: a.resource.resource,
  };
  if (a.subresource !== '') out.requestSubResource = a.subresource;
  if (a.name !== '') out.name = a.name;
  if (a.namespace !== '') out.namespace = a.namespace;
  out.operation = a.operation;
  out.userInfo = userInfoJson(a);
  return out;
}

/** The whole AdmissionReview body, fields in upstream's order. */
export function admissionReview(
  version: ReviewVersion,
  uid: string,
  a: AdmissionAttributes,
  inv: Invocation,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
): Record<string, unknown> {
  const { userInfo, ...frame } = requestFrame(a, inv);
  const request = {
    uid,
    ...frame,
    userInfo,
    object: object ?? null,
    oldObject: oldObject ?? null,
    dryRun: a.dryRun,
    options: a.options ?? defaultOptions(a.operation),
  };
  return { kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${version}`, request };
}
