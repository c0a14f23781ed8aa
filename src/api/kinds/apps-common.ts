/**
 * What Deployments, ReplicaSets and StatefulSets share: the `/scale` mapping, the pod-template
 * rules for workloads (selector must match, `restartPolicy: Always`, no
 * `activeDeadlineSeconds`), the immutable `spec.selector` of apps/v1, and integer fields.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ScaleSpec } from '../resource.js';
import { validateNonnegativeField, validateOptionalInteger } from '../validation/numbers.js';
import { checkTemplateLabels, checkWorkloadSelector, immutable, SPEC } from './common.js';
import { getObj, getStr, type JsonObject } from './json.js';
import { validatePodTemplateSpec } from './pod-spec-validation.js';

/** `/scale` of apps/v1 workloads. */
export const WORKLOAD_SCALE: ScaleSpec = {
  specReplicasPath: 'spec.replicas',
  statusReplicasPath: 'status.replicas',
  labelSelectorPath: 'spec.selector',
};

/** A non-negative integer field (absent is fine): type check, then `ValidateNonnegativeField`. */
export function nonNegativeInt(
  spec: JsonObject,
  key: string,
  fieldPath: FieldPath = SPEC,
): FieldError[] {
  const v = spec[key];
  const typeErrs = validateOptionalInteger(v, fieldPath.child(key));
  if (typeErrs.length > 0 || typeof v !== 'number') return typeErrs;
  return validateNonnegativeField(v, fieldPath.child(key));
}

function restartAndDeadline(
  template: unknown,
  kindName: string,
  templatePath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const podSpec = getObj(template, 'spec');
  const restartPolicy = getStr(podSpec, 'restartPolicy') ?? '';
  if (restartPolicy !== 'Always') {
    errs.push(
      fieldErrors.notSupported(templatePath.child('spec', 'restartPolicy'), restartPolicy, [
        'Always',
      ]),
    );
  }
  if (podSpec?.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
    errs.push(
      fieldErrors.forbidden(
        templatePath.child('spec', 'activeDeadlineSeconds'),
        `activeDeadlineSeconds in ${kindName} is not Supported`,
      ),
    );
  }
  return errs;
}

/**
 * Upstream's selector-and-template block of `ValidateDeploymentSpec` / `ValidateReplicaSetSpec`
 * (`ValidatePodTemplateSpecForReplicaSet`). Both say "deployment" for an empty selector and
 * "ReplicaSet" for activeDeadlineSeconds, whichever kind it is: upstream shares the code.
 */
export function validateReplicaSetLikeTemplate(spec: JsonObject): FieldError[] {
  const selectorPath = SPEC.child('selector');
  const { selector, badShape, errs } = checkWorkloadSelector(spec, 'deployment', selectorPath);
  if (selector === undefined) {
    if (badShape !== true)
      errs.push(fieldErrors.invalid(selectorPath, spec.selector, 'invalid label selector'));
    return errs;
  }
  const templatePath = SPEC.child('template');
  errs.push(
    ...checkTemplateLabels(selector, spec.template, templatePath.child('metadata', 'labels')),
  );
  errs.push(...validatePodTemplateSpec(spec.template, templatePath));
  errs.push(...restartAndDeadline(spec.template, 'ReplicaSet', templatePath));
  return errs;
}

/**
 * The StatefulSet variant: the pod spec itself is not validated (upstream validates it only
 * when pods are created), only template labels and annotations.
 */
export function validateStatefulSetTemplate(spec: JsonObject): FieldError[] {
  const selectorPath = SPEC.child('selector');
  const templatePath = SPEC.child('template');
  const { selector, badShape, errs } = checkWorkloadSelector(spec, 'statefulset', selectorPath);
  if (selector === undefined) {
    if (badShape !== true) errs.push(fieldErrors.invalid(selectorPath, spec.selector, ''));
  } else {
    errs.push(
      ...checkTemplateLabels(selector, spec.template, templatePath.child('metadata', 'labels')),
    );
    errs.push(...validateTemplateMetadata(spec.template, templatePath));
  }
  errs.push(...restartAndDeadline(spec.template, 'StatefulSet', templatePath));
  return errs;
}

function validateTemplateMetadata(template: unknown, templatePath: FieldPath): FieldError[] {
  // Reuse the full template check and keep only what upstream checks for StatefulSets.
  const keep = [
    templatePath.child('labels').toString(),
    templatePath.child('annotations').toString(),
  ];
  return validatePodTemplateSpec(template, templatePath).filter((e) =>
    keep.some((k) => e.field.startsWith(k)),
  );
}

/** apps/v1: `spec.selector: Invalid value: …: field is immutable`. */
export function immutableSelector(obj: KubeObject, old: KubeObject): FieldError[] {
  return immutable(
    getObj(obj, 'spec')?.selector,
    getObj(old, 'spec')?.selector,
    SPEC.child('selector'),
  );
}
