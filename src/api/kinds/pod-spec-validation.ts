/**
 * Pod spec validation shared by Pods and pod templates (upstream `ValidatePodSpec`,
 * `ValidatePodTemplateSpec`, `ValidateTolerations`, `ValidatePodSpecificAnnotations`).
 *
 * Checked: volumes, containers and init containers, host-network ports, restartPolicy,
 * dnsPolicy, dnsConfig, nodeSelector, names of referenced objects, activeDeadlineSeconds,
 * hostname/subdomain, tolerations, hostAliases, readiness and scheduling gates, OS name.
 * Not checked (accepted as sent): securityContext details, affinity, topology spread
 * constraints, resource claims, pod-level resources, overhead, Windows/Linux specifics.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../field-error.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../validation/dns.js';
import { isValidIP } from '../validation/ip.js';
import { isQualifiedName, isValidLabelValue } from '../validation/label-names.js';
import { inclusiveRangeError } from '../validation/messages.js';
import {
  validateAnnotations,
  validateLabelName,
  validateLabels,
} from '../validation/metadata-fields.js';
import { MAX_INT32 } from '../validation/numbers.js';
import {
  requiredOneOf,
  validateContainers,
  validateInitContainers,
} from './container-validation.js';
import {
  get,
  getArr,
  getNum,
  getObj,
  getStr,
  isJsonObject,
  type JsonObject,
  objects,
} from './json.js';
import { validateVolumes } from './volume-validation.js';

/** Where the pod spec sits. */
export interface PodSpecOptions {
  /** The spec is a Pod's own (not a template's): host ports must equal container ports. */
  readonly isPod: boolean;
}

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

function subdomainField(spec: JsonObject, key: string, fieldPath: FieldPath): FieldError[] {
  const v = getStr(spec, key) ?? '';
  if (v === '') return [];
  return isDNS1123Subdomain(v).map((msg) => fieldErrors.invalid(fieldPath.child(key), v, msg));
}

function labelField(spec: JsonObject, key: string, fieldPath: FieldPath): FieldError[] {
  const v = getStr(spec, key) ?? '';
  if (v === '') return [];
  return isDNS1123Label(v).map((msg) => fieldErrors.invalid(fieldPath.child(key), v, msg));
}

function validateTolerationOperator(t: JsonObject, p: FieldPath): FieldError[] {
  const operator = getStr(t, 'operator') ?? '';
  const value = getStr(t, 'value') ?? '';
  if (operator === 'Equal' || operator === '') {
    const msgs = isValidLabelValue(value);
    return msgs.length > 0 ? [fieldErrors.invalid(p.child('operator'), value, msgs.join(';'))] : [];
  }
  if (operator === 'Exists') {
    return value === ''
      ? []
      : [
          fieldErrors.invalid(
            p.child('operator'),
            value,
            "value must be empty when `operator` is 'Exists'",
          ),
        ];
  }
  return [fieldErrors.notSupported(p.child('operator'), operator, ['Equal', 'Exists'])];
}

function validateToleration(t: JsonObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const key = getStr(t, 'key') ?? '';
  const operator = getStr(t, 'operator') ?? '';
  const effect = getStr(t, 'effect') ?? '';
  if (key !== '') errs.push(...validateLabelName(key, p.child('key')));
  if (key === '' && operator !== 'Exists') {
    errs.push(
      fieldErrors.invalid(
        p.child('operator'),
        operator,
        'operator must be Exists when `key` is empty, which means "match all values and all keys"',
      ),
    );
  }
  if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
    errs.push(
      fieldErrors.invalid(
        p.child('effect'),
        effect,
        "effect must be 'NoExecute' when `tolerationSeconds` is set",
      ),
    );
  }
  errs.push(...validateTolerationOperator(t, p));
  if (effect !== '' && !TAINT_EFFECTS.includes(effect)) {
    errs.push(fieldErrors.notSupported(p.child('effect'), effect, TAINT_EFFECTS));
  }
  return errs;
}

/** Upstream `ValidateTolerations`. */
export function validateTolerations(tolerations: unknown, fieldPath: FieldPath): FieldError[] {
  const list = Array.isArray(tolerations) ? tolerations : [];
  return list.flatMap((t, i) => (isJsonObject(t) ? validateToleration(t, fieldPath.index(i)) : []));
}

/** Upstream `ValidatePodSpecificAnnotations` (the checks that apply to templates too). */
export function validatePodSpecificAnnotations(
  annotations: unknown,
  spec: JsonObject,
  fieldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const mirror = getStr(annotations, 'kubernetes.io/config.mirror');
  if (mirror !== undefined && (getStr(spec, 'nodeName') ?? '') === '') {
    errs.push(
      fieldErrors.invalid(
        fieldPath.key('kubernetes.io/config.mirror'),
        mirror,
        'must set spec.nodeName if mirror pod annotation is set',
      ),
    );
  }
  const cost = getStr(annotations, 'controller.kubernetes.io/pod-deletion-cost');
  if (cost !== undefined && !isInt32Text(cost)) {
    errs.push(
      fieldErrors.invalid(
        fieldPath.key('controller.kubernetes.io/pod-deletion-cost'),
        cost,
        'must be a 32bit integer',
      ),
    );
  }
  return errs;
}

function isInt32Text(s: string): boolean {
  if (!/^[+-]?[0-9]+$/.test(s)) return false;
  const n = Number(s);
  return n >= -2147483648 && n <= MAX_INT32;
}

function validateDNSConfig(spec: JsonObject, fieldPath: FieldPath): FieldError[] {
  const config = getObj(spec, 'dnsConfig');
  const servers = (getArr(config, 'nameservers') ?? []).filter(
    (s): s is string => typeof s === 'string',
  );
  if (getStr(spec, 'dnsPolicy') === 'None') {
    if (config === undefined)
      return [fieldErrors.required(fieldPath, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (servers.length === 0) {
      return [
        fieldErrors.required(
          fieldPath.child('nameservers'),
          'must provide at least one DNS nameserver when `dnsPolicy` is None',
        ),
      ];
    }
  }
  if (config === undefined) return [];
  const errs: FieldError[] = [];
  if (servers.length > 3) {
    errs.push(
      fieldErrors.invalid(
        fieldPath.child('nameservers'),
        servers,
        'must not have more than 3 nameservers',
      ),
    );
  }
  errs.push(...servers.flatMap((ns, i) => isValidIP(fieldPath.child('nameservers').index(i), ns)));
  objects(config, 'options').forEach((o, i) => {
    if ((getStr(o, 'name') ?? '') === '')
      errs.push(fieldErrors.required(fieldPath.child('options').index(i), 'must not be empty'));
  });
  return errs;
}

function validateHostNetworkPorts(
  spec: JsonObject,
  opts: PodSpecOptions,
  fieldPath: FieldPath,
): FieldError[] {
  if (spec.hostNetwork !== true) return [];
  const errs: FieldError[] = [];
  objects(spec, 'containers').forEach((c, ci) => {
    objects(c, 'ports').forEach((port, pi) => {
      const hp = getNum(port, 'hostPort') ?? 0;
      const cp = getNum(port, 'containerPort') ?? 0;
      if ((opts.isPod || hp !== 0) && hp !== cp) {
        const p = fieldPath
          .child('containers')
          .index(ci)
          .child('ports')
          .index(pi)
          .child('hostPort');
        errs.push(
          fieldErrors.invalid(p, hp, 'must match `containerPort` when `hostNetwork` is true'),
        );
      }
    });
  });
  return errs;
}

function validateGates(spec: JsonObject, fieldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  objects(spec, 'readinessGates').forEach((g, i) => {
    const t = getStr(g, 'conditionType') ?? '';
    const p = fieldPath.child('readinessGates').index(i).child('conditionType');
    for (const msg of isQualifiedName(t)) errs.push(fieldErrors.invalid(p, t, msg));
  });
  const seen = new Set<string>();
  objects(spec, 'schedulingGates').forEach((g, i) => {
    const name = getStr(g, 'name') ?? '';
    const p = fieldPath.child('schedulingGates').index(i);
    for (const msg of isQualifiedName(name)) errs.push(fieldErrors.invalid(p, name, msg));
    if (seen.has(name)) errs.push(fieldErrors.duplicate(p, name));
    seen.add(name);
  });
  return errs;
}

function validateMisc(spec: JsonObject, fieldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['serviceAccountName', 'nodeName', 'priorityClassName'])
    errs.push(...subdomainField(spec, key, fieldPath));
  if (typeof spec.runtimeClassName === 'string') {
    for (const msg of isDNS1123Subdomain(spec.runtimeClassName)) {
      errs.push(
        fieldErrors.invalid(fieldPath.child('runtimeClassName'), spec.runtimeClassName, msg),
      );
    }
  }
  const deadline = spec.activeDeadlineSeconds;
  if (typeof deadline === 'number' && (deadline < 1 || deadline > MAX_INT32)) {
    errs.push(
      fieldErrors.invalid(
        fieldPath.child('activeDeadlineSeconds'),
        deadline,
        inclusiveRangeError(1, MAX_INT32),
      ),
    );
  }
  errs.push(
    ...labelField(spec, 'hostname', fieldPath),
    ...labelField(spec, 'subdomain', fieldPath),
  );
  errs.push(...validateTolerations(spec.tolerations, fieldPath.child('tolerations')));
  objects(spec, 'hostAliases').forEach((alias, i) => {
    const p = fieldPath.child('hostAliases').index(i);
    errs.push(...isValidIP(p.child('ip'), getStr(alias, 'ip') ?? ''));
    (getArr(alias, 'hostnames') ?? []).forEach((h, j) => {
      const host = typeof h === 'string' ? h : '';
      for (const msg of isDNS1123Subdomain(host))
        errs.push(fieldErrors.invalid(p.child('hostnames').index(j), host, msg));
    });
  });
  if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== null) {
    const policy = getStr(spec, 'preemptionPolicy') ?? '';
    errs.push(
      ...requiredOneOf(
        policy,
        ['PreemptLowerPriority', 'Never'],
        fieldPath.child('preemptionPolicy'),
      ),
    );
  }
  const os = getObj(spec, 'os');
  if (os !== undefined) {
    const name = getStr(os, 'name') ?? '';
    if (name !== 'linux' && name !== 'windows') {
      errs.push(
        fieldErrors.notSupported(fieldPath.child('os', 'name'), name, ['linux', 'windows']),
      );
    }
  }
  return errs;
}

/** Upstream `ValidatePodSpec` (see the module doc for what is covered). */
export function validatePodSpec(
  spec: JsonObject,
  fieldPath: FieldPath,
  opts: PodSpecOptions,
): FieldError[] {
  const errs: FieldError[] = [];
  const grace = spec.terminationGracePeriodSeconds;
  if (grace === undefined || grace === null)
    errs.push(fieldErrors.required(fieldPath.child('terminationGracePeriodSeconds'), ''));
  const { volumes, errs: volumeErrs } = validateVolumes(spec, fieldPath.child('volumes'));
  errs.push(...volumeErrs);
  const ctx = { volumes, gracePeriod: typeof grace === 'number' ? grace : undefined };
  errs.push(...validateContainers(spec, ctx, fieldPath.child('containers')));
  errs.push(...validateInitContainers(spec, ctx, fieldPath.child('initContainers')));
  errs.push(...validateHostNetworkPorts(spec, opts, fieldPath));
  errs.push(
    ...requiredOneOf(
      getStr(spec, 'restartPolicy') ?? '',
      RESTART_POLICIES,
      fieldPath.child('restartPolicy'),
    ),
  );
  errs.push(
    ...requiredOneOf(getStr(spec, 'dnsPolicy') ?? '', DNS_POLICIES, fieldPath.child('dnsPolicy')),
  );
  errs.push(...validateLabels(spec.nodeSelector, fieldPath.child('nodeSelector')));
  objects(spec, 'imagePullSecrets').forEach((s, i) => {
    if (Object.keys(s).some((k) => k !== 'name')) {
      errs.push(
        fieldErrors.invalid(
          fieldPath.child('imagePullSecrets').index(i),
          s,
          'only name may be set',
        ),
      );
    }
  });
  errs.push(...validateDNSConfig(spec, fieldPath.child('dnsConfig')));
  errs.push(...validateGates(spec, fieldPath));
  errs.push(...validateMisc(spec, fieldPath));
  return errs;
}

/** Pod-only container checks (upstream `validateContainersOnlyForPod`). */
export function validateContainersOnlyForPod(spec: JsonObject, fieldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['containers', 'initContainers']) {
    objects(spec, key).forEach((c, i) => {
      const image = getStr(c, 'image') ?? '';
      if (image !== image.trim()) {
        errs.push(
          fieldErrors.invalid(
            fieldPath.child(key).index(i).child('image'),
            image,
            'must not have leading or trailing whitespace',
          ),
        );
      }
    });
  }
  return errs;
}

/**
 * Upstream `ValidatePodTemplateSpec`. Note upstream's paths: template labels and annotations
 * are reported at `<template>.labels` / `<template>.annotations` (without `metadata`).
 */
export function validatePodTemplateSpec(template: unknown, fieldPath: FieldPath): FieldError[] {
  if (!isJsonObject(template)) return [fieldErrors.required(fieldPath, '')];
  const meta = getObj(template, 'metadata');
  const spec = getObj(template, 'spec') ?? {};
  const errs: FieldError[] = [
    ...validateLabels(get(meta, 'labels'), fieldPath.child('labels')),
    ...validateAnnotations(get(meta, 'annotations'), fieldPath.child('annotations')),
    ...validatePodSpecificAnnotations(
      get(meta, 'annotations'),
      spec,
      fieldPath.child('annotations'),
    ),
    ...validatePodSpec(spec, fieldPath.child('spec'), { isPod: false }),
  ];
  if ((getArr(spec, 'ephemeralContainers') ?? []).length > 0) {
    errs.push(
      fieldErrors.forbidden(
        fieldPath.child('spec', 'ephemeralContainers'),
        'ephemeral containers not allowed in pod template',
      ),
    );
  }
  return errs;
}
