/**
 * HorizontalPodAutoscaler validation, upstream `pkg/apis/autoscaling/validation`
 * (`ValidateHorizontalPodAutoscaler`), on the autoscaling/v2 form (upstream validates the
 * internal type, which is v2-shaped, so an autoscaling/v1 request is converted first and its
 * errors name the same fields).
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors, path } from '../field-error.js';
import type { JsonObject, KubeObject } from '../object.js';
import { isDNS1123Label } from '../validation/dns.js';
import { isValidPathSegmentName } from '../validation/names.js';
import { parseQuantity } from '../validation/quantity.js';
import { get, getObj, isJsonObject } from './json.js';

/** Upstream `MaxPeriodSeconds`: the longest scaling policy period. */
const MAX_PERIOD_SECONDS = 1800;
/** Upstream `MaxStabilizationWindowSeconds`: one hour. */
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];
/** The field of each metric source type (`strings.ToLower` upstream, but camelCase for containerResource). */
const SOURCE_FIELDS: Readonly<Record<string, string>> = {
  Object: 'object',
  Pods: 'pods',
  Resource: 'resource',
  External: 'external',
  ContainerResource: 'containerResource',
};

export interface HpaValidationOptions {
  /** 1; 0 when the HPAScaleToZero gate is on or the old object already had 0 (ratcheting). */
  readonly minReplicasLowerBound: number;
}

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** `Sign() == 1` of a quantity; an unparsable one is not positive. */
function positive(v: unknown): boolean {
  if (typeof v !== 'string' && typeof v !== 'number') return false;
  const q = parseQuantity(v);
  return q.ok && q.quantity.nanos > 0n;
}

export function validateCrossVersionObjectReference(ref: unknown, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['kind', 'name']) {
    const value = str(get(ref, key));
    if (value === '') errs.push(fieldErrors.required(p.child(key), ''));
    for (const msg of value === '' ? [] : isValidPathSegmentName(value)) {
      errs.push(fieldErrors.invalid(p.child(key), value, msg));
    }
  }
  return errs;
}

function validateMetricIdentifier(id: unknown, p: FieldPath): FieldError[] {
  const name = str(get(id, 'name'));
  if (name === '') return [fieldErrors.required(p.child('name'), 'must specify a metric name')];
  return isValidPathSegmentName(name).map((msg) => fieldErrors.invalid(p.child('name'), name, msg));
}

function validateMetricTarget(t: JsonObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(t.type);
  if (type === '')
    errs.push(fieldErrors.required(p.child('type'), 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') {
    errs.push(
      fieldErrors.invalid(
        p.child('type'),
        type,
        'must be either Utilization, Value, or AverageValue',
      ),
    );
  }
  for (const key of ['value', 'averageValue']) {
    if (isSet(t[key]) && !positive(t[key]))
      errs.push(fieldErrors.invalid(p.child(key), t[key], 'must be positive'));
  }
  const u = t.averageUtilization;
  if (typeof u === 'number' && u < 1) {
    errs.push(fieldErrors.invalid(p.child('averageUtilization'), u, 'must be greater than 0'));
  }
  return errs;
}

/** Which of a target's values the source needs (and which it may not combine). */
function targetPresence(field: string, target: JsonObject, tp: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const value = isSet(target.value);
  const average = isSet(target.averageValue);
  const utilization = isSet(target.averageUtilization);
  switch (field) {
    case 'object':
      if (!value && !average)
        errs.push(
          fieldErrors.required(
            tp.child('averageValue'),
            'must set either a target value or averageValue',
          ),
        );
      break;
    case 'pods':
      if (!average)
        errs.push(
          fieldErrors.required(
            tp.child('averageValue'),
            'must specify a positive target averageValue',
          ),
        );
      break;
    case 'external':
      if (!value && !average)
        errs.push(
          fieldErrors.required(
            tp.child('averageValue'),
            'must set either a target value for metric or a per-pod target',
          ),
        );
      if (value && average)
        errs.push(
          fieldErrors.forbidden(
            tp.child('value'),
            'may not set both a target value for metric and a per-pod target',
          ),
        );
      break;
    default:
      if (!utilization && !average)
        errs.push(
          fieldErrors.required(
            tp.child('averageUtilization'),
            'must set either a target raw value or a target utilization',
          ),
        );
      if (utilization && average)
        errs.push(
          fieldErrors.forbidden(
            tp.child('averageValue'),
            'may not set both a target raw value and a target utilization',
          ),
        );
  }
  return errs;
}

function validateSource(field: string, src: JsonObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const target = getObj(src, 'target') ?? {};
  const tp = p.child('target');
  if (field === 'object')
    errs.push(
      ...validateCrossVersionObjectReference(src.describedObject, p.child('describedObject')),
    );
  if (field === 'object' || field === 'pods' || field === 'external') {
    errs.push(...validateMetricIdentifier(src.metric, p.child('metric')));
  }
  if (field === 'resource' || field === 'containerResource') {
    const name = str(src.name);
    if (name === '')
      errs.push(fieldErrors.required(p.child('name'), 'must specify a resource name'));
    if (field === 'containerResource') {
      const container = str(src.container);
      if (container === '')
        errs.push(fieldErrors.required(p.child('container'), 'must specify a container'));
      for (const msg of container === '' ? [] : isDNS1123Label(container)) {
        errs.push(fieldErrors.invalid(p.child('container'), container, msg));
      }
    }
  }
  errs.push(...validateMetricTarget(target, tp), ...targetPresence(field, target, tp));
  return errs;
}

function validateMetricSpec(spec: JsonObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(spec.type);
  if (type === '')
    errs.push(fieldErrors.required(p.child('type'), 'must specify a metric source type'));
  const present: string[] = [];
  for (const field of ['object', 'external', 'pods', 'resource', 'containerResource']) {
    const src = spec[field];
    if (!isSet(src)) continue;
    present.push(field);
    if (present.length === 1 && isJsonObject(src))
      errs.push(...validateSource(field, src, p.child(field)));
  }
  const expected = SOURCE_FIELDS[type];
  if (expected === undefined) {
    errs.push(fieldErrors.notSupported(p.child('type'), type, METRIC_SOURCE_TYPES));
  } else if (!present.includes(expected)) {
    errs.push(
      fieldErrors.required(
        p.child(expected),
        'must populate information for the given metric source',
      ),
    );
  }
  if (present.length !== 1) {
    for (const field of present.filter((f) => f !== expected)) {
      errs.push(
        fieldErrors.forbidden(p.child(field), 'must populate the given metric source only'),
      );
    }
  }
  return errs;
}

function validateScalingRules(rules: unknown, p: FieldPath): FieldError[] {
  if (!isJsonObject(rules)) return [];
  const errs: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (typeof window === 'number' && window < 0) {
    errs.push(
      fieldErrors.invalid(
        p.child('stabilizationWindowSeconds'),
        window,
        'must be greater than or equal to zero',
      ),
    );
  }
  if (typeof window === 'number' && window > MAX_STABILIZATION_WINDOW_SECONDS) {
    errs.push(
      fieldErrors.invalid(
        p.child('stabilizationWindowSeconds'),
        window,
        `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`,
      ),
    );
  }
  if (isSet(rules.selectPolicy) && !SELECT_POLICIES.includes(str(rules.selectPolicy))) {
    errs.push(
      fieldErrors.notSupported(p.child('selectPolicy'), rules.selectPolicy, SELECT_POLICIES),
    );
  }
  const pp = p.child('policies');
  const policies = Array.isArray(rules.policies) ? rules.policies : [];
  if (policies.length === 0)
    errs.push(fieldErrors.required(pp, 'must specify at least one Policy'));
  policies.forEach((policy, i) => {
    const ip = pp.index(i);
    const type = str(get(policy, 'type'));
    if (!POLICY_TYPES.includes(type))
      errs.push(fieldErrors.notSupported(ip.child('type'), type, POLICY_TYPES));
    const value = Number(get(policy, 'value') ?? 0);
    if (!(value > 0))
      errs.push(fieldErrors.invalid(ip.child('value'), value, 'must be greater than zero'));
    const period = Number(get(policy, 'periodSeconds') ?? 0);
    if (!(period > 0))
      errs.push(
        fieldErrors.invalid(ip.child('periodSeconds'), period, 'must be greater than zero'),
      );
    if (period > MAX_PERIOD_SECONDS) {
      errs.push(
        fieldErrors.invalid(
          ip.child('periodSeconds'),
          period,
          `must be less than or equal to ${MAX_PERIOD_SECONDS}`,
        ),
      );
    }
  });
  return errs;
}

/** Upstream `validateHorizontalPodAutoscalerSpec` over an autoscaling/v2 object. */
export function validateHpaV2(obj: KubeObject, opts: HpaValidationOptions): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const sp = path('spec');
  const errs: FieldError[] = [];
  const min = typeof spec.minReplicas === 'number' ? spec.minReplicas : undefined;
  const max = typeof spec.maxReplicas === 'number' ? spec.maxReplicas : 0;
  if (min !== undefined && min < opts.minReplicasLowerBound) {
    errs.push(
      fieldErrors.invalid(
        sp.child('minReplicas'),
        min,
        `must be greater than or equal to ${opts.minReplicasLowerBound}`,
      ),
    );
  }
  if (max < 1)
    errs.push(fieldErrors.invalid(sp.child('maxReplicas'), max, 'must be greater than 0'));
  if (min !== undefined && max < min) {
    errs.push(
      fieldErrors.invalid(
        sp.child('maxReplicas'),
        max,
        'must be greater than or equal to `minReplicas`',
      ),
    );
  }
  errs.push(
    ...validateCrossVersionObjectReference(spec.scaleTargetRef, sp.child('scaleTargetRef')),
  );
  const metrics = Array.isArray(spec.metrics) ? spec.metrics.filter(isJsonObject) : [];
  metrics.forEach((m, i) => {
    errs.push(...validateMetricSpec(m, sp.child('metrics').index(i)));
  });
  if (min === 0 && !metrics.some((m) => m.type === 'Object' || m.type === 'External')) {
    errs.push(
      fieldErrors.forbidden(
        sp.child('metrics'),
        'must specify at least one Object or External metric to support scaling to zero replicas',
      ),
    );
  }
  const behavior = getObj(spec, 'behavior');
  if (behavior !== undefined) {
    errs.push(...validateScalingRules(behavior.scaleUp, sp.child('behavior', 'scaleUp')));
    errs.push(...validateScalingRules(behavior.scaleDown, sp.child('behavior', 'scaleDown')));
  }
  return errs;
}

/** Upstream `ValidateHorizontalPodAutoscalerStatusUpdate`. */
export function validateHpaStatus(obj: KubeObject): FieldError[] {
  const status = getObj(obj, 'status') ?? {};
  const errs: FieldError[] = [];
  for (const key of ['currentReplicas', 'desiredReplicas']) {
    const v = status[key];
    if (typeof v === 'number' && v < 0) {
      errs.push(fieldErrors.invalid(path('status', key), v, 'must be greater than or equal to 0'));
    }
  }
  return errs;
}
