/**
 * CRD names (`spec.names`, `status.acceptedNames`; upstream
 * `ValidateCustomResourceDefinitionNames`) and the API-approval annotation required for
 * `*.k8s.io` and `*.kubernetes.io` groups (upstream `validateAPIApproval`).
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors, path } from '../../api/field-error.js';
import type { JsonObject } from '../../api/object.js';
import { isDNS1035Label } from '../../api/validation/dns.js';
import { text } from './crd-internal.js';

const MIXED_CASE = 'may have mixed case, but should otherwise match: ';

function strings(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function validateNames(names: JsonObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['plural', 'singular']) {
    const v = text(names[key]);
    const bad = isDNS1035Label(v);
    if (v !== '' && bad.length > 0) errs.push(fieldErrors.invalid(p.child(key), v, bad.join(',')));
  }
  for (const key of ['kind', 'listKind']) {
    const v = text(names[key]);
    const bad = isDNS1035Label(v.toLowerCase());
    if (v !== '' && bad.length > 0)
      errs.push(fieldErrors.invalid(p.child(key), v, MIXED_CASE + bad.join(',')));
  }
  strings(names.shortNames).forEach((s, i) => {
    const bad = isDNS1035Label(text(s));
    if (bad.length > 0)
      errs.push(fieldErrors.invalid(p.child('shortNames').index(i), s, bad.join(',')));
  });
  const kind = text(names.kind);
  if (kind !== '' && kind === text(names.listKind)) {
    errs.push(
      fieldErrors.invalid(p.child('listKind'), kind, 'kind and listKind may not be the same'),
    );
  }
  strings(names.categories).forEach((c, i) => {
    const bad = isDNS1035Label(text(c));
    if (bad.length > 0)
      errs.push(fieldErrors.invalid(p.child('categories').index(i), c, bad.join(',')));
  });
  return errs;
}

/** Names a `spec.names` must have (status names may be empty). */
export function validateRequiredNames(names: JsonObject, p: FieldPath): FieldError[] {
  return ['plural', 'singular', 'kind', 'listKind']
    .filter((k) => text(names[k]) === '')
    .map((k) => fieldErrors.required(p.child(k)));
}

export const API_APPROVAL_ANNOTATION = 'api-approved.kubernetes.io';
const ENHANCEMENT = 'https://github.com/kubernetes/enhancements/pull/1111';

function isProtectedGroup(group: string): boolean {
  return ['k8s.io', 'kubernetes.io'].some((g) => group === g || group.endsWith(`.${g}`));
}

type Approval = 'approved' | 'bypassed' | 'missing' | 'invalid';

function approvalState(annotations: JsonObject): Approval {
  if (!Object.hasOwn(annotations, API_APPROVAL_ANNOTATION)) return 'missing';
  const v = text(annotations[API_APPROVAL_ANNOTATION]);
  if (v.startsWith('unapproved')) return 'bypassed';
  try {
    const u = new URL(v);
    return u.protocol !== '' && u.host !== '' ? 'approved' : 'invalid';
  } catch {
    return 'invalid';
  }
}

/** Upstream `validateAPIApproval`: unchanged approval states never fail (old CRDs keep working). */
export function validateApiApproval(
  group: string,
  annotations: JsonObject,
  oldAnnotations: JsonObject | undefined,
): FieldError[] {
  if (!isProtectedGroup(group)) return [];
  const state = approvalState(annotations);
  if (oldAnnotations && approvalState(oldAnnotations) === state) return [];
  const p = path('metadata', 'annotations').key(API_APPROVAL_ANNOTATION);
  if (state === 'missing') {
    return [
      fieldErrors.required(
        p,
        `protected groups must have approval annotation "${API_APPROVAL_ANNOTATION}", see ${ENHANCEMENT}`,
      ),
    ];
  }
  if (state === 'invalid') {
    return [
      fieldErrors.invalid(
        p,
        text(annotations[API_APPROVAL_ANNOTATION]),
        `protected groups must have approval annotation "${API_APPROVAL_ANNOTATION}" with either a URL or a reason starting with "unapproved", see ${ENHANCEMENT}`,
      ),
    ];
  }
  return [];
}
