/**
 * Validation of the authorization.k8s.io reviews (upstream
 * `pkg/apis/authorization/validation/validation.go`, apimachinery 0.33): exactly one of
 * `resourceAttributes` and `nonResourceAttributes`, a user or a group for the reviews that name
 * one, empty metadata (a LocalSubjectAccessReview may carry its namespace, which must be the
 * one of its resource attributes), and well-formed field and label selector attributes.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors, path } from '../../../api/field-error.js';
import type {
  FieldSelectorAttributes,
  LabelSelectorAttributes,
  LocalSubjectAccessReview,
  ResourceAttributes,
  SelfSubjectAccessReview,
  SelfSubjectAccessReviewSpec,
  SubjectAccessReview,
  SubjectAccessReviewSpec,
} from '../../../api/model/index.js';
import { isQualifiedName, isValidLabelValue } from '../../../api/validation/label-names.js';
import {
  GO_NIL,
  isEmptyObjectMeta,
  nonResourceAttributesValue,
  objectMetaValue,
} from './go-values.js';

/** Upstream `ValidateSelfSubjectAccessReviewSpec`: the attributes alone. */
export function validateSelfSubjectAccessReviewSpec(
  spec: SelfSubjectAccessReviewSpec,
  p: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const { resourceAttributes: ra, nonResourceAttributes: nra } = spec;
  if (ra !== undefined && nra !== undefined) {
    errs.push(
      fieldErrors.invalid(
        p.child('nonResourceAttributes'),
        nonResourceAttributesValue(nra),
        'cannot be specified in combination with resourceAttributes',
      ),
    );
  }
  if (ra === undefined && nra === undefined) {
    errs.push(
      fieldErrors.invalid(
        p.child('resourceAttributes'),
        GO_NIL,
        'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    );
  }
  return errs;
}

/** Upstream `ValidateSubjectAccessReviewSpec`: the attributes, and a user or a group. */
export function validateSubjectAccessReviewSpec(
  spec: SubjectAccessReviewSpec,
  p: FieldPath,
): FieldError[] {
  const errs = validateSelfSubjectAccessReviewSpec(spec, p);
  if ((spec.user ?? '') === '' && (spec.groups ?? []).length === 0) {
    errs.push(
      fieldErrors.invalid(
        p.child('user'),
        spec.user ?? '',
        'at least one of user or group must be specified',
      ),
    );
  }
  return errs;
}

export function validateSubjectAccessReview(r: SubjectAccessReview): FieldError[] {
  const errs = validateSubjectAccessReviewSpec(r.spec, path('spec'));
  errs.push(...validateResourceAttributes(r.spec.resourceAttributes));
  if (!isEmptyObjectMeta(r.metadata, false)) {
    errs.push(
      fieldErrors.invalid(path('metadata'), objectMetaValue(r.metadata ?? {}), 'must be empty'),
    );
  }
  return errs;
}

export function validateSelfSubjectAccessReview(r: SelfSubjectAccessReview): FieldError[] {
  const errs = validateSelfSubjectAccessReviewSpec(r.spec, path('spec'));
  errs.push(...validateResourceAttributes(r.spec.resourceAttributes));
  if (!isEmptyObjectMeta(r.metadata, false)) {
    errs.push(
      fieldErrors.invalid(path('metadata'), objectMetaValue(r.metadata ?? {}), 'must be empty'),
    );
  }
  return errs;
}

export function validateLocalSubjectAccessReview(r: LocalSubjectAccessReview): FieldError[] {
  const errs = validateSubjectAccessReviewSpec(r.spec, path('spec'));
  errs.push(...validateResourceAttributes(r.spec.resourceAttributes));
  if (!isEmptyObjectMeta(r.metadata, true)) {
    errs.push(
      fieldErrors.invalid(
        path('metadata'),
        objectMetaValue(r.metadata ?? {}),
        'must be empty except for namespace',
      ),
    );
  }
  const ra = r.spec.resourceAttributes;
  if (ra !== undefined && (ra.namespace ?? '') !== (r.metadata?.namespace ?? '')) {
    errs.push(
      fieldErrors.invalid(
        'spec.resourceAttributes.namespace',
        ra.namespace ?? '',
        'must match metadata.namespace',
      ),
    );
  }
  const nra = r.spec.nonResourceAttributes;
  if (nra !== undefined) {
    errs.push(
      fieldErrors.invalid(
        'spec.nonResourceAttributes',
        nonResourceAttributesValue(nra),
        'disallowed on this kind of request',
      ),
    );
  }
  return errs;
}

function validateResourceAttributes(ra: ResourceAttributes | undefined): FieldError[] {
  if (ra === undefined) return [];
  const p = path('spec', 'resourceAttributes');
  return [
    ...validateSelectorAttributes(ra.fieldSelector, p.child('fieldSelector'), false),
    ...validateSelectorAttributes(ra.labelSelector, p.child('labelSelector'), true),
  ];
}

/**
 * Upstream `validateFieldSelectorAttributes` / `validateLabelSelectorAttributes`, unknown
 * operators allowed (a newer client may know operators this server does not).
 */
function validateSelectorAttributes(
  sel: FieldSelectorAttributes | LabelSelectorAttributes | undefined,
  p: FieldPath,
  labels: boolean,
): FieldError[] {
  if (sel === undefined) return [];
  const errs: FieldError[] = [];
  const raw = sel.rawSelector ?? '';
  const reqs = sel.requirements ?? [];
  if (raw !== '' && reqs.length > 0) {
    errs.push(
      fieldErrors.invalid(
        p.child('rawSelector'),
        raw,
        'may not specified at the same time as requirements',
      ),
    );
  }
  if (raw === '' && reqs.length === 0) {
    errs.push(
      fieldErrors.required(
        p.child('requirements'),
        `when ${String(p)} is specified, requirements or rawSelector is required`,
      ),
    );
  }
  reqs.forEach((req, i) => {
    errs.push(...validateRequirement(req, p.child('requirements').index(i), labels));
  });
  return errs;
}

/** `ValidateFieldSelectorRequirement` and `ValidateLabelSelectorRequirement`. */
function validateRequirement(
  req: { key: string; operator: string; values?: string[] },
  p: FieldPath,
  labels: boolean,
): FieldError[] {
  const errs: FieldError[] = [];
  const values = req.values ?? [];
  if (!labels && req.key === '')
    errs.push(fieldErrors.required(p.child('key'), 'must be specified'));
  if (req.operator === 'In' || req.operator === 'NotIn') {
    if (values.length === 0) {
      errs.push(
        fieldErrors.required(
          p.child('values'),
          "must be specified when `operator` is 'In' or 'NotIn'",
        ),
      );
    }
  } else if (req.operator === 'Exists' || req.operator === 'DoesNotExist') {
    if (values.length > 0) {
      errs.push(
        fieldErrors.forbidden(
          p.child('values'),
          "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        ),
      );
    }
  }
  if (!labels) return errs;
  for (const msg of isQualifiedName(req.key))
    errs.push(fieldErrors.invalid(p.child('key'), req.key, msg));
  values.forEach((v, i) => {
    for (const msg of isValidLabelValue(v))
      errs.push(fieldErrors.invalid(p.child('values').index(i), v, msg));
  });
  return errs;
}
