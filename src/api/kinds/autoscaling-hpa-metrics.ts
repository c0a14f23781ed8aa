/**
 * The metric specs and statuses of autoscaling/v1 (the JSON lists in its
 * `autoscaling.alpha.kubernetes.io/metrics` and `…/current-metrics` annotations) to and from
 * autoscaling/v2's, as upstream `pkg/apis/autoscaling/v1/conversion.go`'s per-source
 * functions: v1 names its targets and currents flat (`targetAverageValue`), v2 nests them
 * (`target.averageValue`); a Go non-pointer Quantity (v1 `targetValue`, v2 status values
 * converted from v1) is written as "0" when zero.
 *
 * @module
 */
import type { JsonObject } from '../object.js';
import { get, getObj, isJsonObject } from './json.js';

/** A field that is an object, else `{}`. */
export function o(v: unknown): JsonObject {
  return isJsonObject(v) ? v : {};
}

/** The objects of a list field. */
export function list(v: unknown): JsonObject[] {
  return Array.isArray(v) ? v.filter(isJsonObject) : [];
}

/** Copies `from[key]` to `to[as]` when present (a pointer or omitempty field). */
export function copy(to: JsonObject, as: string, from: JsonObject, key: string): void {
  const v = from[key];
  if (v !== undefined && v !== null) to[as] = structuredClone(v);
}

/** A Go non-pointer `resource.Quantity`: its zero is written as "0". */
export function quantity(from: JsonObject, key: string): unknown {
  const v = from[key];
  return v === undefined || v === null ? '0' : v;
}

/** `CrossVersionObjectReference`: kind and name always, apiVersion when set. */
export function ref(r: unknown): JsonObject {
  const out: JsonObject = { kind: get(r, 'kind') ?? '', name: get(r, 'name') ?? '' };
  copy(out, 'apiVersion', o(r), 'apiVersion');
  return out;
}

function identifier(name: unknown, selector: unknown): JsonObject {
  const out: JsonObject = { name: name ?? '' };
  if (selector !== undefined && selector !== null) out.selector = structuredClone(selector);
  return out;
}

/** A v2 MetricSpec as v1's (`Convert_autoscaling_MetricSpec_To_v1_MetricSpec`). */
export function metricSpecToV1(m: JsonObject): JsonObject {
  const out: JsonObject = { type: m.type ?? '' };
  const obj = getObj(m, 'object');
  if (obj !== undefined) {
    const t = o(obj.target);
    const v: JsonObject = {
      target: ref(obj.describedObject),
      metricName: get(obj.metric, 'name') ?? '',
    };
    v.targetValue = quantity(t, 'value');
    copy(v, 'selector', o(obj.metric), 'selector');
    copy(v, 'averageValue', t, 'averageValue');
    out.object = v;
  }
  const pods = getObj(m, 'pods');
  if (pods !== undefined) {
    const v: JsonObject = { metricName: get(pods.metric, 'name') ?? '' };
    v.targetAverageValue = quantity(o(pods.target), 'averageValue');
    copy(v, 'selector', o(pods.metric), 'selector');
    out.pods = v;
  }
  for (const key of ['resource', 'containerResource']) {
    const r = getObj(m, key);
    if (r === undefined) continue;
    const t = o(r.target);
    const v: JsonObject = { name: r.name ?? '' };
    copy(v, 'targetAverageUtilization', t, 'averageUtilization');
    copy(v, 'targetAverageValue', t, 'averageValue');
    if (key === 'containerResource') v.container = r.container ?? '';
    out[key] = v;
  }
  const ext = getObj(m, 'external');
  if (ext !== undefined) {
    const t = o(ext.target);
    const v: JsonObject = { metricName: get(ext.metric, 'name') ?? '' };
    copy(v, 'metricSelector', o(ext.metric), 'selector');
    copy(v, 'targetValue', t, 'value');
    copy(v, 'targetAverageValue', t, 'averageValue');
    out.external = v;
  }
  return out;
}

/** A v1 MetricSpec as v2's (`Convert_v1_MetricSpec_To_autoscaling_MetricSpec`). */
export function metricSpecToV2(m: JsonObject): JsonObject {
  const out: JsonObject = { type: m.type ?? '' };
  const obj = getObj(m, 'object');
  if (obj !== undefined) {
    const target: JsonObject = { type: isSet(obj.averageValue) ? 'AverageValue' : 'Value' };
    target.value = quantity(obj, 'targetValue');
    copy(target, 'averageValue', obj, 'averageValue');
    out.object = {
      describedObject: ref(obj.target),
      target,
      metric: identifier(obj.metricName, obj.selector),
    };
  }
  const pods = getObj(m, 'pods');
  if (pods !== undefined) {
    out.pods = {
      metric: identifier(pods.metricName, pods.selector),
      target: { type: 'AverageValue', averageValue: quantity(pods, 'targetAverageValue') },
    };
  }
  for (const key of ['resource', 'containerResource']) {
    const r = getObj(m, key);
    if (r === undefined) continue;
    const utilization = isSet(r.targetAverageUtilization);
    const target: JsonObject = { type: utilization ? 'Utilization' : 'AverageValue' };
    copy(target, 'averageValue', r, 'targetAverageValue');
    copy(target, 'averageUtilization', r, 'targetAverageUtilization');
    const v: JsonObject = { name: r.name ?? '', target };
    if (key === 'containerResource') v.container = r.container ?? '';
    out[key] = v;
  }
  const ext = getObj(m, 'external');
  if (ext !== undefined) {
    const target: JsonObject = { type: isSet(ext.targetValue) ? 'Value' : 'AverageValue' };
    copy(target, 'value', ext, 'targetValue');
    copy(target, 'averageValue', ext, 'targetAverageValue');
    out.external = { metric: identifier(ext.metricName, ext.metricSelector), target };
  }
  return out;
}

/** Go's non-nil. */
export function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** A v2 MetricStatus as v1's. */
export function metricStatusToV1(m: JsonObject): JsonObject {
  const out: JsonObject = { type: m.type ?? '' };
  const obj = getObj(m, 'object');
  if (obj !== undefined) {
    const c = o(obj.current);
    const v: JsonObject = {
      target: ref(obj.describedObject),
      metricName: get(obj.metric, 'name') ?? '',
    };
    v.currentValue = quantity(c, 'value');
    copy(v, 'selector', o(obj.metric), 'selector');
    copy(v, 'averageValue', c, 'averageValue');
    out.object = v;
  }
  const pods = getObj(m, 'pods');
  if (pods !== undefined) {
    const v: JsonObject = { metricName: get(pods.metric, 'name') ?? '' };
    v.currentAverageValue = quantity(o(pods.current), 'averageValue');
    copy(v, 'selector', o(pods.metric), 'selector');
    out.pods = v;
  }
  for (const key of ['resource', 'containerResource']) {
    const r = getObj(m, key);
    if (r === undefined) continue;
    const c = o(r.current);
    const v: JsonObject = { name: r.name ?? '' };
    copy(v, 'currentAverageUtilization', c, 'averageUtilization');
    v.currentAverageValue = quantity(c, 'averageValue');
    if (key === 'containerResource') v.container = r.container ?? '';
    out[key] = v;
  }
  const ext = getObj(m, 'external');
  if (ext !== undefined) {
    const c = o(ext.current);
    const v: JsonObject = { metricName: get(ext.metric, 'name') ?? '' };
    copy(v, 'metricSelector', o(ext.metric), 'selector');
    v.currentValue = quantity(c, 'value');
    copy(v, 'currentAverageValue', c, 'averageValue');
    out.external = v;
  }
  return out;
}

/** A v1 MetricStatus as v2's. */
export function metricStatusToV2(m: JsonObject): JsonObject {
  const out: JsonObject = { type: m.type ?? '' };
  const obj = getObj(m, 'object');
  if (obj !== undefined) {
    const current: JsonObject = { value: quantity(obj, 'currentValue') };
    copy(current, 'averageValue', obj, 'averageValue');
    out.object = {
      metric: identifier(obj.metricName, obj.selector),
      current,
      describedObject: ref(obj.target),
    };
  }
  const pods = getObj(m, 'pods');
  if (pods !== undefined) {
    out.pods = {
      metric: identifier(pods.metricName, pods.selector),
      current: { averageValue: quantity(pods, 'currentAverageValue') },
    };
  }
  for (const key of ['resource', 'containerResource']) {
    const r = getObj(m, key);
    if (r === undefined) continue;
    const current: JsonObject = { averageValue: quantity(r, 'currentAverageValue') };
    copy(current, 'averageUtilization', r, 'currentAverageUtilization');
    const v: JsonObject = { name: r.name ?? '', current };
    if (key === 'containerResource') v.container = r.container ?? '';
    out[key] = v;
  }
  const ext = getObj(m, 'external');
  if (ext !== undefined) {
    const current: JsonObject = { value: quantity(ext, 'currentValue') };
    copy(current, 'averageValue', ext, 'currentAverageValue');
    out.external = { metric: identifier(ext.metricName, ext.metricSelector), current };
  }
  return out;
}
