/**
 * core/v1 ReplicationControllers (`rc`, category `all`, `/status`, `/scale`): upstream
 * `SetDefaults_ReplicationController` (replicas 1; an empty selector and empty labels are
 * taken from the template's labels) and `ValidateReplicationControllerSpec` (a non-empty
 * map selector matching the template's labels, a valid pod template that always restarts
 * and has no active deadline, non-negative replicas and minReadySeconds).
 *
 * `/scale` reports the map selector as a selector string (`app=web`), as upstream's RC scale.
 *
 * @module
 */
import { type FieldError, fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { nonNegativeInt } from './apps-common.js';
import { SPEC, withBuiltinMetadata } from './common.js';
import { getNum, getObj, getStr, getStringMap, isJsonObject, specOf } from './json.js';
import { defaultTemplateOf } from './pod-defaults.js';
import { validatePodTemplateSpec } from './pod-spec-validation.js';

function nonEmpty(map: Record<string, string> | undefined): map is Record<string, string> {
  return map !== undefined && Object.keys(map).length > 0;
}

/** Upstream `SetDefaults_ReplicationController` plus the template's pod defaults. */
export function defaultReplicationController(obj: KubeObject): void {
  const spec = specOf(obj);
  if (spec === undefined) return;
  const labels = getStringMap(getObj(spec.template, 'metadata'), 'labels');
  if (labels !== undefined) {
    if (!nonEmpty(getStringMap(spec, 'selector'))) spec.selector = { ...labels };
    const meta = obj.metadata ?? {};
    if (!nonEmpty(meta.labels ?? undefined)) {
      meta.labels = { ...labels };
      obj.metadata = meta;
    }
  }
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  // `template` is a pointer in core/v1: an absent one stays absent (validation requires it).
  if (isJsonObject(spec.template)) defaultTemplateOf(spec);
}

function matches(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** Upstream `ValidateReplicationControllerSpec`. */
export function validateReplicationControllerSpec(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const errs = nonNegativeInt(spec, 'minReadySeconds');
  const selector = getStringMap(spec, 'selector') ?? {};
  if (!nonEmpty(selector)) errs.push(fieldErrors.required(SPEC.child('selector'), ''));
  errs.push(...nonNegativeInt(spec, 'replicas'));
  const templatePath = SPEC.child('template');
  const template = spec.template;
  if (!isJsonObject(template)) {
    errs.push(fieldErrors.required(templatePath, ''));
    return errs;
  }
  const labels = getStringMap(getObj(template, 'metadata'), 'labels') ?? {};
  if (nonEmpty(selector) && !matches(selector, labels)) {
    errs.push(
      fieldErrors.invalid(
        templatePath.child('metadata', 'labels'),
        getObj(template, 'metadata')?.labels ?? null,
        '`selector` does not match template `labels`',
      ),
    );
  }
  errs.push(...validatePodTemplateSpec(template, templatePath));
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
        'activeDeadlineSeconds in ReplicationController is not Supported',
      ),
    );
  }
  return errs;
}

const STATUS = path('status');

/** Upstream `ValidateReplicationControllerStatus`. */
export function validateReplicationControllerStatus(obj: KubeObject): FieldError[] {
  const status = getObj(obj, 'status') ?? {};
  const errs: FieldError[] = [];
  for (const key of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas']) {
    errs.push(...nonNegativeInt(status, key, STATUS));
  }
  errs.push(...nonNegativeInt(status, 'observedGeneration', STATUS));
  const n = (key: string) => getNum(status, key) ?? 0;
  const notAbove = (key: string, bound: string) => {
    if (n(key) > n(bound)) {
      errs.push(
        fieldErrors.invalid(STATUS.child(key), n(key), `cannot be greater than status.${bound}`),
      );
    }
  };
  notAbove('fullyLabeledReplicas', 'replicas');
  notAbove('readyReplicas', 'replicas');
  notAbove('availableReplicas', 'replicas');
  notAbove('availableReplicas', 'readyReplicas');
  return errs;
}

/** core/v1 `replicationcontrollers`. */
export const replicationControllerResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'ReplicationController',
  listKind: 'ReplicationControllerList',
  plural: 'replicationcontrollers',
  singular: 'replicationcontroller',
  namespaced: true,
  shortNames: ['rc'],
  categories: ['all'],
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: true,
  scale: {
    specReplicasPath: 'spec.replicas',
    statusReplicasPath: 'status.replicas',
    labelSelectorPath: 'spec.selector',
    selectorIsMap: true,
  },
  strategy: withBuiltinMetadata({
    defaults: defaultReplicationController,
    prepareForCreate(obj) {
      // `replicas` is not omitempty in ReplicationControllerStatus.
      obj.status = { replicas: 0 };
    },
    validate: validateReplicationControllerSpec,
    validateStatusUpdate: validateReplicationControllerStatus,
  }),
};
