/**
 * apps/v1 StatefulSets: `SetDefaults_StatefulSet` (with PVC defaults for claim templates),
 * `ValidateStatefulSetSpec`, `ValidateStatefulSetUpdate` (most of the spec is frozen), and
 * `/scale`. Names are DNS labels: pod names and hostnames derive from them.
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

/** What a StatefulSet update may change (upstream's exact Forbidden text follows). */
const UPDATABLE = [
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
];
const FORBIDDEN_UPDATE =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";
const RETENTION_POLICIES = ['Retain', 'Delete'];

function defaultUpdateStrategy(spec: JsonObject): void {
  const strategy = ensureObj(spec, 'updateStrategy');
  if (strategy === undefined) return;
  if ((getStr(strategy, 'type') ?? '') === '') {
    strategy.type = 'RollingUpdate';
    setDefault(strategy, 'rollingUpdate', {});
  }
  // An explicit `type: RollingUpdate` without `rollingUpdate` stays without it, as upstream.
  const rolling = getObj(strategy, 'rollingUpdate');
  if (strategy.type === 'RollingUpdate' && rolling !== undefined)
    setDefault(rolling, 'partition', 0);
}

function defaults(obj: KubeObject): void {
  const spec = specOf(obj);
  if (spec === undefined) return;
  setDefaultStr(spec, 'podManagementPolicy', 'OrderedReady');
  defaultUpdateStrategy(spec);
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

function validateUpdateStrategy(spec: JsonObject): FieldError[] {
  const strategy = getObj(spec, 'updateStrategy') ?? {};
  const rolling = strategy.rollingUpdate;
  const hasRolling = rolling !== undefined && rolling !== null;
  switch (getStr(strategy, 'type') ?? '') {
    case '':
      return [fieldErrors.required(SPEC.child('updateStrategy'), '')];
    case 'OnDelete':
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
      return [
        fieldErrors.invalid(
          SPEC.child('updateStrategy'),
          strategy,
          "must be 'RollingUpdate' or 'OnDelete'",
        ),
      ];
  }
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
    : [fieldErrors.forbidden(SPEC, FORBIDDEN_UPDATE)];
}

/** apps/v1 `statefulsets` (`sts`, category `all`, `/status`, `/scale`). */
export const statefulSetResource: ResourceDefinition = {
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
    defaults,
    prepareForCreate(obj) {
      // `replicas` and `availableReplicas` are not omitempty in StatefulSetStatus.
      obj.status = { replicas: 0, availableReplicas: 0 };
    },
    validate,
    validateUpdate,
  }),
};
