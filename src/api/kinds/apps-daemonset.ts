/**
 * apps/v1 DaemonSets: `SetDefaults_DaemonSet`, `ValidateDaemonSetSpec`, `ValidateDaemonSetUpdate`
 * (immutable selector, template generation) and `ValidateDaemonSetStatusUpdate`, after upstream
 * `pkg/apis/apps/validation` and `pkg/registry/apps/daemonset/strategy.go`.
 *
 * The template generation: upstream's internal `spec.templateGeneration` is, in apps/v1, the
 * annotation `deprecated.daemonset.template.generation`. It starts at 1 and goes up by one each
 * time an update changes `spec.template`; the controller copies it into its pods'
 * `pod-template-generation` label. One difference: an update that leaves the template alone and
 * drops the annotation keeps the stored value here, where upstream answers
 * `spec.templateGeneration: must not be decremented` (a `kubectl replace` of a file without the
 * annotation would fail there).
 *
 * @module
 */
import { type FieldError, fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import {
  getIntOrPercentValue,
  isNotMoreThan100Percent,
  validatePositiveIntOrPercent,
} from '../validation/int-or-string.js';
import { immutableSelector, nonNegativeInt } from './apps-common.js';
import {
  checkTemplateLabels,
  checkWorkloadSelector,
  SPEC,
  semanticEqual,
  withBuiltinMetadata,
} from './common.js';
import { ensureObj, getObj, getStr, type JsonObject, setDefault, specOf } from './json.js';
import { defaultTemplateOf } from './pod-defaults.js';
import { validatePodTemplateSpec } from './pod-spec-validation.js';

/** The apps/v1 form of `spec.templateGeneration` (upstream `DeprecatedTemplateGeneration`). */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';
const STRATEGIES = ['RollingUpdate', 'OnDelete'];
const STATUS_COUNTS = [
  'currentNumberScheduled',
  'numberMisscheduled',
  'desiredNumberScheduled',
  'numberReady',
  'observedGeneration',
  'updatedNumberScheduled',
  'numberAvailable',
  'numberUnavailable',
  'collisionCount',
];

/** Upstream `SetDefaults_DaemonSet` plus the pod template's defaults. */
function defaults(obj: KubeObject): void {
  const spec = specOf(obj);
  if (spec === undefined) return;
  const strategy = ensureObj(spec, 'updateStrategy');
  if (strategy !== undefined) {
    if ((getStr(strategy, 'type') ?? '') === '') strategy.type = 'RollingUpdate';
    if (strategy.type === 'RollingUpdate') {
      const rolling = ensureObj(strategy, 'rollingUpdate');
      if (rolling !== undefined) {
        setDefault(rolling, 'maxUnavailable', 1);
        setDefault(rolling, 'maxSurge', 0);
      }
    }
  }
  setDefault(spec, 'revisionHistoryLimit', 10);
  defaultTemplateOf(spec);
}

/** The template generation an object carries (a positive integer), or undefined. */
export function templateGeneration(obj: KubeObject | undefined): number | undefined {
  const text = obj?.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  if (text === undefined || !/^[0-9]+$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

function setTemplateGeneration(obj: KubeObject, generation: number): void {
  const meta = obj.metadata ?? {};
  obj.metadata = meta;
  meta.annotations = {
    ...(meta.annotations ?? {}),
    [TEMPLATE_GENERATION_ANNOTATION]: `${generation}`,
  };
}

/** Upstream `PrepareForCreate`: a fresh status; template generation at least 1. */
function prepareForCreate(obj: KubeObject): void {
  // The four counts are not omitempty in DaemonSetStatus, so a fresh status shows them as 0.
  obj.status = {
    currentNumberScheduled: 0,
    numberMisscheduled: 0,
    desiredNumberScheduled: 0,
    numberReady: 0,
  };
  const generation = templateGeneration(obj) ?? 0;
  setTemplateGeneration(obj, Math.max(1, generation));
}

/**
 * Upstream `PrepareForUpdate`: a changed template moves the template generation to the stored
 * one plus one. Runs before the server's defaulting, so the template is defaulted here first:
 * a client that sends it as written must not look like it changed it.
 */
function prepareForUpdate(obj: KubeObject, old: KubeObject): void {
  defaults(obj);
  const oldGeneration = templateGeneration(old) ?? 1;
  const changed = !semanticEqual(getObj(obj.spec, 'template'), getObj(old.spec, 'template'));
  if (changed) setTemplateGeneration(obj, oldGeneration + 1);
  else if (templateGeneration(obj) === undefined) setTemplateGeneration(obj, oldGeneration);
}

/** Upstream `ValidateRollingUpdateDaemonSet`: exactly one of the two is non-zero. */
function validateRollingUpdate(rolling: JsonObject): FieldError[] {
  const p = SPEC.child('updateStrategy', 'rollingUpdate');
  const { maxUnavailable, maxSurge } = rolling;
  const errs = [
    ...validatePositiveIntOrPercent(maxUnavailable, p.child('maxUnavailable')),
    ...validatePositiveIntOrPercent(maxSurge, p.child('maxSurge')),
    ...isNotMoreThan100Percent(maxUnavailable, p.child('maxUnavailable')),
    ...isNotMoreThan100Percent(maxSurge, p.child('maxSurge')),
  ];
  const hasUnavailable = getIntOrPercentValue(maxUnavailable) !== 0;
  const hasSurge = getIntOrPercentValue(maxSurge) !== 0;
  if (hasUnavailable && hasSurge) {
    errs.push(
      fieldErrors.invalid(
        p.child('maxSurge'),
        maxSurge,
        'may not be set when maxUnavailable is non-zero',
      ),
    );
  } else if (!hasUnavailable && !hasSurge) {
    errs.push(fieldErrors.required(p.child('maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
  }
  return errs;
}

/**
 * Upstream `ValidateDaemonSetUpdateStrategy`. As upstream, `OnDelete` with a `rollingUpdate`
 * is accepted (the controller ignores it): `kubectl patch` of the type alone keeps the block.
 */
function validateUpdateStrategy(spec: JsonObject): FieldError[] {
  const strategy = getObj(spec, 'updateStrategy') ?? {};
  switch (getStr(strategy, 'type') ?? '') {
    case 'OnDelete':
      return [];
    case 'RollingUpdate': {
      const rolling = getObj(strategy, 'rollingUpdate');
      if (rolling === undefined)
        return [fieldErrors.required(SPEC.child('updateStrategy', 'rollingUpdate'), '')];
      return validateRollingUpdate(rolling);
    }
    default:
      return [fieldErrors.notSupported(SPEC.child('updateStrategy'), strategy, STRATEGIES)];
  }
}

/** The selector and template block of upstream `ValidateDaemonSetSpec`. */
function validateTemplate(spec: JsonObject): FieldError[] {
  const selectorPath = SPEC.child('selector');
  const templatePath = SPEC.child('template');
  const { selector, badShape, errs } = checkWorkloadSelector(spec, 'daemonset', selectorPath);
  if (selector !== undefined) {
    errs.push(
      ...checkTemplateLabels(selector, spec.template, templatePath.child('metadata', 'labels')),
    );
  } else if (badShape !== true) {
    errs.push(fieldErrors.invalid(selectorPath, spec.selector, 'invalid label selector'));
  }
  errs.push(...validatePodTemplateSpec(spec.template, templatePath));
  const podSpec = getObj(getObj(spec, 'template'), 'spec');
  const restartPolicy = getStr(podSpec, 'restartPolicy') ?? '';
  if (restartPolicy !== 'Always') {
    errs.push(
      fieldErrors.notSupported(templatePath.child('spec', 'restartPolicy'), restartPolicy, [
        'Always',
      ]),
    );
  }
  const deadline = podSpec?.activeDeadlineSeconds;
  if (deadline !== undefined && deadline !== null) {
    errs.push(
      fieldErrors.invalid(
        templatePath.child('spec', 'activeDeadlineSeconds'),
        deadline,
        'activeDeadlineSeconds in DaemonSet is not Supported',
      ),
    );
  }
  return errs;
}

/** Upstream `ValidateDaemonSetSpec`. */
function validate(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  return [
    ...validateTemplate(spec),
    ...nonNegativeInt(spec, 'minReadySeconds'),
    ...validateUpdateStrategy(spec),
    ...nonNegativeInt(spec, 'revisionHistoryLimit'),
  ];
}

/** Upstream `ValidateDaemonSetSpecUpdate` (template generation) and the immutable selector. */
function validateUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs = immutableSelector(obj, old);
  const next = templateGeneration(obj) ?? 0;
  const prev = templateGeneration(old) ?? 0;
  const p = SPEC.child('templateGeneration');
  const changed = !semanticEqual(getObj(obj.spec, 'template'), getObj(old.spec, 'template'));
  if (next < prev) errs.push(fieldErrors.invalid(p, next, 'must not be decremented'));
  else if (next === prev && changed)
    errs.push(fieldErrors.invalid(p, next, 'must be incremented upon template update'));
  else if (next > prev && !changed)
    errs.push(fieldErrors.invalid(p, next, 'must not be incremented without template update'));
  return errs;
}

/** Upstream `ValidateDaemonSetStatusUpdate`: counts are non-negative, collisionCount never goes down. */
function validateStatusUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const status = getObj(obj, 'status') ?? {};
  const statusPath = path('status');
  const errs = STATUS_COUNTS.flatMap((key) => nonNegativeInt(status, key, statusPath));
  const count = status.collisionCount;
  const oldCount = getObj(old, 'status')?.collisionCount;
  if (typeof oldCount === 'number' && (typeof count !== 'number' || count < oldCount)) {
    errs.push(
      fieldErrors.invalid(
        statusPath.child('collisionCount'),
        typeof count === 'number' ? count : 0,
        'cannot be decremented',
      ),
    );
  }
  return errs;
}

/** apps/v1 `daemonsets` (`ds`, category `all`, `/status`). */
export const daemonSetResource: ResourceDefinition = {
  group: 'apps',
  version: 'v1',
  kind: 'DaemonSet',
  listKind: 'DaemonSetList',
  plural: 'daemonsets',
  singular: 'daemonset',
  namespaced: true,
  shortNames: ['ds'],
  categories: ['all'],
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: true,
  strategy: withBuiltinMetadata({
    defaults,
    prepareForCreate,
    prepareForUpdate,
    validate,
    validateUpdate,
    validateStatusUpdate,
  }),
};
