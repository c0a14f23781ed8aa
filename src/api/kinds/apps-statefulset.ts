/**
 * apps/v1 StatefulSets: `SetDefaults_StatefulSet` (with PVC defaults for claim templates),
 * `ValidateStatefulSetSpec`, `ValidateStatefulSetUpdate` (most of the spec is frozen), and
 * `/scale`. Names are DNS labels: pod names and hostnames derive from them.
 *
 * Two feature gates change the kind (upstream reads them from the process-wide gate set; here
 * they are an argument of {@link createStatefulSetResource}, so the API server builds the
 * definition for its own gates): MaxUnavailableStatefulSet (`rollingUpdate.maxUnavailable`,
 * dropped when off unless the stored object already uses it, defaulted to 1 when on) and
 * StatefulSetRecreateStrategy (`updateStrategy.type: Recreate`, refused when off unless the
 * stored object already uses it).
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
import { nonNegativeInt, validateStatefulSetTemplate, WORKLOAD_SCALE } from './apps-common.js';
import { SPEC, semanticEqual, withBuiltinMetadata } from './common.js';
import {
  ensureObj,
  getObj,
  getStr,
  type JsonObject,
  objects,
  setDefault,
  setDefaultStr,
  specOf,
} from './json.js';
import { defaultPVCSpec, defaultTemplateOf } from './pod-defaults.js';

/**
 * What a StatefulSet update may change (upstream's exact Forbidden text follows), as in v1.33,
 * the version served. A later release (kubernetes#130263) made `revisionHistoryLimit` mutable
 * and names it in the message; docs/design/statefulset.md §12 notes the difference.
 */
const UPDATABLE = [
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
];
export const FORBIDDEN_STATEFULSET_UPDATE =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";
const RETENTION_POLICIES = ['Retain', 'Delete'];
const RECREATE = 'Recreate';

/** The feature gates that change the StatefulSet kind (also what its controller reads). */
export interface StatefulSetFeatures {
  /** MaxUnavailableStatefulSet (alpha in 1.33, off). */
  readonly maxUnavailableStatefulSet: boolean;
  /** StatefulSetRecreateStrategy (alpha, off). */
  readonly statefulSetRecreateStrategy: boolean;
}

/** Both gates off: the defaults of the Kubernetes version the server reports. */
export const STATEFULSET_FEATURES_OFF: StatefulSetFeatures = {
  maxUnavailableStatefulSet: false,
  statefulSetRecreateStrategy: false,
};

function defaultUpdateStrategy(spec: JsonObject, features: StatefulSetFeatures): void {
  const strategy = ensureObj(spec, 'updateStrategy');
  if (strategy === undefined) return;
  if ((getStr(strategy, 'type') ?? '') === '') {
    strategy.type = 'RollingUpdate';
    setDefault(strategy, 'rollingUpdate', {});
  }
  // An explicit `type: RollingUpdate` without `rollingUpdate` stays without it, as upstream.
  const rolling = getObj(strategy, 'rollingUpdate');
  if (strategy.type === 'RollingUpdate' && rolling !== undefined) {
    setDefault(rolling, 'partition', 0);
    if (features.maxUnavailableStatefulSet) setDefault(rolling, 'maxUnavailable', 1);
  }
}

function defaults(obj: KubeObject, features: StatefulSetFeatures): void {
  const spec = specOf(obj);
  if (spec === undefined) return;
  setDefaultStr(spec, 'podManagementPolicy', 'OrderedReady');
  defaultUpdateStrategy(spec, features);
  const retention = ensureObj(spec, 'persistentVolumeClaimRetentionPolicy');
  if (retention !== undefined) {
    setDefaultStr(retention, 'whenDeleted', 'Retain');
    setDefaultStr(retention, 'whenScaled', 'Retain');
  }
  setDefault(spec, 'replicas', 1);
  setDefault(spec, 'revisionHistoryLimit', 10);
  defaultTemplateOf(spec);
  for (const claim of objects(spec, 'volumeClaimTemplates')) {
    defaultPVCSpec(getObj(claim, 'spec'));
    // Claim templates are PersistentVolumeClaims, so their status gets its default phase too.
    const status = ensureObj(claim, 'status');
    if (status !== undefined) setDefaultStr(status, 'phase', 'Pending');
  }
}

function rollingUpdateOf(obj: KubeObject | undefined): JsonObject | undefined {
  return getObj(getObj(getObj(obj, 'spec'), 'updateStrategy'), 'rollingUpdate');
}

function usesMaxUnavailable(obj: KubeObject | undefined): boolean {
  const v = rollingUpdateOf(obj)?.maxUnavailable;
  return v !== undefined && v !== null;
}

function strategyType(obj: KubeObject | undefined): string {
  return getStr(getObj(getObj(obj, 'spec'), 'updateStrategy'), 'type') ?? '';
}

/**
 * Upstream `dropStatefulSetDisabledFields`: with MaxUnavailableStatefulSet off,
 * `maxUnavailable` is cleared unless the stored object (`old`, absent on create) uses it, so
 * turning a gate off never makes an existing object unwritable.
 */
export function dropStatefulSetDisabledFields(
  obj: KubeObject,
  old: KubeObject | undefined,
  features: StatefulSetFeatures,
): void {
  if (features.maxUnavailableStatefulSet || usesMaxUnavailable(old)) return;
  const rolling = rollingUpdateOf(obj);
  if (rolling !== undefined) delete rolling.maxUnavailable;
}

function validateRollingUpdate(rolling: JsonObject): FieldError[] {
  const p = SPEC.child('updateStrategy', 'rollingUpdate');
  const errs = nonNegativeInt(rolling, 'partition', p);
  const maxUnavailable = rolling.maxUnavailable;
  if (maxUnavailable !== undefined && maxUnavailable !== null) {
    const mp = p.child('maxUnavailable');
    errs.push(...validatePositiveIntOrPercent(maxUnavailable, mp));
    if (getIntOrPercentValue(maxUnavailable) === 0)
      errs.push(fieldErrors.invalid(mp, maxUnavailable, 'cannot be 0'));
    errs.push(...isNotMoreThan100Percent(maxUnavailable, mp));
  }
  return errs;
}

function unsupportedStrategy(strategy: JsonObject): FieldError {
  return fieldErrors.invalid(
    SPEC.child('updateStrategy'),
    strategy,
    "must be 'RollingUpdate' or 'OnDelete'",
  );
}

/** `updateStrategy`; `Recreate` is a known type here, its gate is checked on create/update. */
function validateUpdateStrategy(spec: JsonObject): FieldError[] {
  const strategy = getObj(spec, 'updateStrategy') ?? {};
  const rolling = strategy.rollingUpdate;
  const hasRolling = rolling !== undefined && rolling !== null;
  switch (getStr(strategy, 'type') ?? '') {
    case '':
      return [fieldErrors.required(SPEC.child('updateStrategy'), '')];
    case 'OnDelete':
    case RECREATE:
      return hasRolling
        ? [
            fieldErrors.invalid(
              SPEC.child('updateStrategy', 'rollingUpdate'),
              rolling,
              "only allowed for updateStrategy 'RollingUpdate'",
            ),
          ]
        : [];
    case 'RollingUpdate': {
      const r = getObj(strategy, 'rollingUpdate');
      return r === undefined ? [] : validateRollingUpdate(r);
    }
    default:
      return [unsupportedStrategy(strategy)];
  }
}

/**
 * `Recreate` with its gate off: the same Invalid as an unknown type (upstream's strategy test
 * expects `spec.updateStrategy` Invalid), unless the stored object already uses it.
 */
function validateRecreateGate(
  obj: KubeObject,
  old: KubeObject | undefined,
  features: StatefulSetFeatures,
): FieldError[] {
  if (features.statefulSetRecreateStrategy || strategyType(obj) !== RECREATE) return [];
  if (strategyType(old) === RECREATE) return [];
  return [unsupportedStrategy(getObj(getObj(obj, 'spec'), 'updateStrategy') ?? {})];
}

function validatePodManagementPolicy(spec: JsonObject): FieldError[] {
  const policy = getStr(spec, 'podManagementPolicy') ?? '';
  const p = SPEC.child('podManagementPolicy');
  if (policy === '') return [fieldErrors.required(p, '')];
  if (policy === 'OrderedReady' || policy === 'Parallel') return [];
  return [fieldErrors.invalid(p, policy, "must be 'OrderedReady' or 'Parallel'")];
}

function validateRetention(spec: JsonObject): FieldError[] {
  const policy = getObj(spec, 'persistentVolumeClaimRetentionPolicy');
  if (policy === undefined) return [];
  const errs: FieldError[] = [];
  for (const key of ['whenDeleted', 'whenScaled']) {
    const v = getStr(policy, key) ?? '';
    if (!RETENTION_POLICIES.includes(v)) {
      errs.push(
        fieldErrors.notSupported(
          SPEC.child('persistentVolumeClaimRetentionPolicy', key),
          v,
          RETENTION_POLICIES,
        ),
      );
    }
  }
  return errs;
}

/** Upstream `ValidateStatefulSetSpec`. */
function validate(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const errs = [
    ...validatePodManagementPolicy(spec),
    ...validateUpdateStrategy(spec),
    ...validateRetention(spec),
  ];
  errs.push(...nonNegativeInt(spec, 'replicas'), ...nonNegativeInt(spec, 'minReadySeconds'));
  const ordinals = getObj(spec, 'ordinals');
  if (ordinals !== undefined)
    errs.push(...nonNegativeInt(ordinals, 'start', SPEC.child('ordinals')));
  errs.push(...validateStatefulSetTemplate(spec));
  return errs;
}

function frozenSpec(spec: JsonObject): JsonObject {
  const rest: JsonObject = { ...spec };
  for (const key of UPDATABLE) delete rest[key];
  return rest;
}

/** Upstream `ValidateStatefulSetUpdate`: only the fields in the message may change. */
function validateUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const oldSpec = getObj(old, 'spec') ?? {};
  return semanticEqual(frozenSpec(spec), frozenSpec(oldSpec))
    ? []
    : [fieldErrors.forbidden(SPEC, FORBIDDEN_STATEFULSET_UPDATE)];
}

/** apps/v1 `statefulsets` (`sts`, category `all`, `/status`, `/scale`) for these gates. */
export function createStatefulSetResource(features: StatefulSetFeatures): ResourceDefinition {
  return {
    group: 'apps',
    version: 'v1',
    kind: 'StatefulSet',
    listKind: 'StatefulSetList',
    plural: 'statefulsets',
    singular: 'statefulset',
    namespaced: true,
    shortNames: ['sts'],
    categories: ['all'],
    nameValidation: 'dns-label',
    generation: 'spec',
    statusSubresource: true,
    scale: WORKLOAD_SCALE,
    strategy: withBuiltinMetadata({
      defaults: (obj) => defaults(obj, features),
      prepareForCreate(obj) {
        // `replicas` and `availableReplicas` are not omitempty in StatefulSetStatus.
        obj.status = { replicas: 0, availableReplicas: 0 };
        dropStatefulSetDisabledFields(obj, undefined, features);
      },
      prepareForUpdate: (obj, old) => dropStatefulSetDisabledFields(obj, old, features),
      validate,
      validateCreate: (obj) => validateRecreateGate(obj, undefined, features),
      validateUpdate: (obj, old) => [
        ...validateRecreateGate(obj, old, features),
        ...validateUpdate(obj, old),
      ],
    }),
  };
}

/** The StatefulSet kind with every gate at its default (off). */
export const statefulSetResource: ResourceDefinition =
  createStatefulSetResource(STATEFULSET_FEATURES_OFF);
