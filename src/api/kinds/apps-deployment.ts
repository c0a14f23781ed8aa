/**
 * apps/v1 Deployments: `SetDefaults_Deployment`, `ValidateDeploymentSpec`, the immutable
 * selector of apps/v1, and the `/scale` subresource.
 *
 * Generation: `spec-and-annotations`. As upstream, a Deployment's generation also goes up
 * when its annotations change (they are copied to ReplicaSets and drive rollbacks).
 *
 * @module
 */
import { type FieldError, fieldErrors } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import {
  getIntOrPercentValue,
  isNotMoreThan100Percent,
  validatePositiveIntOrPercent,
} from '../validation/int-or-string.js';
import {
  immutableSelector,
  nonNegativeInt,
  validateReplicaSetLikeTemplate,
  WORKLOAD_SCALE,
} from './apps-common.js';
import { SPEC, withBuiltinMetadata } from './common.js';
import {
  ensureObj,
  getNum,
  getObj,
  getStr,
  type JsonObject,
  setDefault,
  setDefaultStr,
  specOf,
} from './json.js';
import { defaultTemplateOf } from './pod-defaults.js';

function defaults(obj: KubeObject): void {
  const spec = specOf(obj);
  if (spec === undefined) return;
  setDefault(spec, 'replicas', 1);
  const strategy = ensureObj(spec, 'strategy');
  if (strategy !== undefined) {
    setDefaultStr(strategy, 'type', 'RollingUpdate');
    if (strategy.type === 'RollingUpdate') {
      const rolling = ensureObj(strategy, 'rollingUpdate');
      if (rolling !== undefined) {
        setDefault(rolling, 'maxUnavailable', '25%');
        setDefault(rolling, 'maxSurge', '25%');
      }
    }
  }
  setDefault(spec, 'revisionHistoryLimit', 10);
  setDefault(spec, 'progressDeadlineSeconds', 600);
  defaultTemplateOf(spec);
}

function validateRollingUpdate(rolling: JsonObject): FieldError[] {
  const p = SPEC.child('strategy', 'rollingUpdate');
  const maxUnavailable = rolling.maxUnavailable ?? 0;
  const maxSurge = rolling.maxSurge ?? 0;
  const errs = [
    ...validatePositiveIntOrPercent(maxUnavailable, p.child('maxUnavailable')),
    ...validatePositiveIntOrPercent(maxSurge, p.child('maxSurge')),
  ];
  if (getIntOrPercentValue(maxUnavailable) === 0 && getIntOrPercentValue(maxSurge) === 0) {
    errs.push(
      fieldErrors.invalid(
        p.child('maxUnavailable'),
        maxUnavailable,
        'may not be 0 when `maxSurge` is 0',
      ),
    );
  }
  errs.push(...isNotMoreThan100Percent(maxUnavailable, p.child('maxUnavailable')));
  return errs;
}

/** Upstream `ValidateDeploymentStrategy`. */
function validateStrategy(spec: JsonObject): FieldError[] {
  const strategy = getObj(spec, 'strategy') ?? {};
  const rolling = strategy.rollingUpdate;
  switch (getStr(strategy, 'type')) {
    case 'Recreate':
      return rolling === undefined || rolling === null
        ? []
        : [
            fieldErrors.forbidden(
              SPEC.child('strategy', 'rollingUpdate'),
              "may not be specified when strategy `type` is 'Recreate'",
            ),
          ];
    case 'RollingUpdate': {
      const r = getObj(strategy, 'rollingUpdate');
      if (r === undefined) {
        return [
          fieldErrors.required(
            SPEC.child('strategy', 'rollingUpdate'),
            'this should be defaulted and never be nil',
          ),
        ];
      }
      return validateRollingUpdate(r);
    }
    default:
      return [
        fieldErrors.notSupported(SPEC.child('strategy'), strategy, ['Recreate', 'RollingUpdate']),
      ];
  }
}

/** Upstream `ValidateDeploymentSpec`. */
function validate(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const errs = [
    ...nonNegativeInt(spec, 'replicas'),
    ...validateReplicaSetLikeTemplate(spec),
    ...validateStrategy(spec),
  ];
  errs.push(
    ...nonNegativeInt(spec, 'minReadySeconds'),
    ...nonNegativeInt(spec, 'revisionHistoryLimit'),
  );
  const deadline = getNum(spec, 'progressDeadlineSeconds');
  errs.push(...nonNegativeInt(spec, 'progressDeadlineSeconds'));
  if (deadline !== undefined && deadline <= (getNum(spec, 'minReadySeconds') ?? 0)) {
    errs.push(
      fieldErrors.invalid(
        SPEC.child('progressDeadlineSeconds'),
        deadline,
        'must be greater than minReadySeconds',
      ),
    );
  }
  return errs;
}

/** apps/v1 `deployments` (`deploy`, category `all`, `/status`, `/scale`). */
export const deploymentResource: ResourceDefinition = {
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  listKind: 'DeploymentList',
  plural: 'deployments',
  singular: 'deployment',
  namespaced: true,
  shortNames: ['deploy'],
  categories: ['all'],
  nameValidation: 'dns-subdomain',
  generation: 'spec-and-annotations',
  statusSubresource: true,
  scale: WORKLOAD_SCALE,
  strategy: withBuiltinMetadata({
    defaults,
    prepareForCreate(obj) {
      obj.status = {};
    },
    validate,
    validateUpdate: immutableSelector,
  }),
};
