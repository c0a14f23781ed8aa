/**
 * Upstream `ValidatePodUpdate`: a Pod's spec is immutable except container images,
 * `activeDeadlineSeconds` (set, or lowered), added tolerations (or changed tolerationSeconds),
 * removed scheduling gates, and a negative grace period raised to 1.
 *
 * @module
 */
import { type FieldError, fieldErrors } from '../field-error.js';
import { inclusiveRangeError } from '../validation/messages.js';
import { MAX_INT32 } from '../validation/numbers.js';
import { SPEC, semanticEqual } from './common.js';
import { gatedNodeAffinityErrors, mungeGatedNodeAffinity } from './gated-node-affinity.js';
import {
  deepEqualJson,
  getArr,
  getNum,
  getStr,
  isJsonObject,
  type JsonObject,
  objects,
  semanticNormalize,
} from './json.js';

/** Upstream `updatablePodSpecFields`, joined as upstream joins them. */
const UPDATABLE = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
].join(',');

function validateActiveDeadline(spec: JsonObject, oldSpec: JsonObject): FieldError[] {
  const p = SPEC.child('activeDeadlineSeconds');
  const next = getNum(spec, 'activeDeadlineSeconds');
  const prev = getNum(oldSpec, 'activeDeadlineSeconds');
  if (next === undefined) {
    return prev === undefined
      ? []
      : [fieldErrors.invalid(p, null, 'must not update from a positive integer to nil value')];
  }
  if (next < 0 || next > MAX_INT32)
    return [fieldErrors.invalid(p, next, inclusiveRangeError(0, MAX_INT32))];
  if (prev !== undefined && prev < next)
    return [fieldErrors.invalid(p, next, 'must be less than or equal to previous value')];
  return [];
}

function withoutSeconds(t: JsonObject): unknown {
  const { tolerationSeconds: _s, ...rest } = t;
  return semanticNormalize(rest);
}

/** Upstream `validateOnlyAddedTolerations`: every old toleration is still there. */
function validateTolerationUpdate(spec: JsonObject, oldSpec: JsonObject): FieldError[] {
  const next = objects(spec, 'tolerations').map(withoutSeconds);
  for (const old of objects(oldSpec, 'tolerations')) {
    const o = withoutSeconds(old);
    if (!next.some((n) => deepEqualJson(n, o))) {
      return [
        fieldErrors.forbidden(
          SPEC.child('tolerations'),
          'existing toleration can not be modified except its tolerationSeconds',
        ),
      ];
    }
  }
  return [];
}

/** Upstream `validateOnlyDeletedSchedulingGates`. */
function validateGateUpdate(spec: JsonObject, oldSpec: JsonObject): FieldError[] {
  const old = new Set(objects(oldSpec, 'schedulingGates').map((g) => getStr(g, 'name') ?? ''));
  const errs: FieldError[] = [];
  objects(spec, 'schedulingGates').forEach((g, i) => {
    const name = getStr(g, 'name') ?? '';
    if (old.has(name)) return;
    errs.push(
      fieldErrors.forbidden(
        SPEC.child('schedulingGates').index(i).child('name'),
        `only deletion is allowed, but found new scheduling gate '${name}'`,
      ),
    );
  });
  return errs;
}

/** The new spec with every updatable field reset to the old value (upstream's "munged" spec). */
function mungeSpec(spec: JsonObject, oldSpec: JsonObject): JsonObject {
  const munged: JsonObject = structuredClone(spec);
  for (const key of ['containers', 'initContainers']) {
    const olds = objects(oldSpec, key);
    objects(munged, key).forEach((c, i) => {
      const prev = olds[i];
      if (prev !== undefined) c.image = prev.image;
    });
  }
  for (const key of ['activeDeadlineSeconds', 'schedulingGates', 'tolerations']) {
    if (oldSpec[key] === undefined) delete munged[key];
    else munged[key] = oldSpec[key];
  }
  // While a pod is scheduling-gated its nodeSelector may gain entries, never change or lose one
  // (upstream's mutable scheduling directives, beta v1.27, GA v1.30): a controller pins the pod
  // before it removes its gate.
  if (objects(oldSpec, 'schedulingGates').length > 0) {
    if (selectorOnlyGrew(oldSpec, spec)) {
      if (oldSpec.nodeSelector === undefined) delete munged.nodeSelector;
      else munged.nodeSelector = oldSpec.nodeSelector;
    }
    mungeGatedNodeAffinity(munged, oldSpec);
  }
  const oldGrace = getNum(oldSpec, 'terminationGracePeriodSeconds');
  if (oldGrace !== undefined && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = oldGrace;
  }
  return munged;
}

/** Every old nodeSelector entry is kept with its value; new ones may be added. */
function selectorOnlyGrew(oldSpec: JsonObject, spec: JsonObject): boolean {
  const before = isJsonObject(oldSpec.nodeSelector) ? oldSpec.nodeSelector : {};
  const after = isJsonObject(spec.nodeSelector) ? spec.nodeSelector : {};
  return Object.entries(before).every(([k, v]) => after[k] === v);
}

/**
 * A short diff of two specs: the changed paths, old (`-`) and new (`+`). Upstream prints a
 * `cmp.Diff` of the Go structs here; this shows the same changes in JSON terms.
 */
export function specDiff(oldSpec: unknown, newSpec: unknown, prefix = 'spec'): string {
  const lines: string[] = [];
  const walk = (a: unknown, b: unknown, at: string): void => {
    if (deepEqualJson(a, b)) return;
    if (isJsonObject(a) && isJsonObject(b)) {
      for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort())
        walk(a[k], b[k], `${at}.${k}`);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      for (const [i, x] of a.entries()) walk(x, b[i], `${at}[${i}]`);
      return;
    }
    if (a !== undefined) lines.push(`- ${at}: ${JSON.stringify(a)}`);
    if (b !== undefined) lines.push(`+ ${at}: ${JSON.stringify(b)}`);
  };
  walk(semanticNormalize(oldSpec), semanticNormalize(newSpec), prefix);
  return lines.join('\n');
}

/** Upstream `ValidatePodUpdate`'s spec rules (metadata is checked by the server). */
export function validatePodSpecUpdate(spec: JsonObject, oldSpec: JsonObject): FieldError[] {
  for (const key of ['containers', 'initContainers']) {
    if ((getArr(spec, key) ?? []).length !== (getArr(oldSpec, key) ?? []).length) {
      return [
        fieldErrors.forbidden(SPEC.child(key), 'pod updates may not add or remove containers'),
      ];
    }
  }
  const errs = validateActiveDeadline(spec, oldSpec);
  if (errs.length > 0) return errs;
  errs.push(...validateTolerationUpdate(spec, oldSpec), ...validateGateUpdate(spec, oldSpec));
  if (objects(oldSpec, 'schedulingGates').length > 0) {
    errs.push(...gatedNodeAffinityErrors(spec, oldSpec));
  }
  if (semanticEqual(spec, oldSpec)) return errs;
  const munged = mungeSpec(spec, oldSpec);
  if (!semanticEqual(munged, oldSpec)) {
    const detail = `pod updates may not change fields other than ${UPDATABLE}\n${specDiff(oldSpec, munged)}`;
    errs.push(fieldErrors.forbidden(SPEC, detail));
  }
  return errs;
}
