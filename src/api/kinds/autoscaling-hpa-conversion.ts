/**
 * autoscaling/v1 ↔ autoscaling/v2 HorizontalPodAutoscaler, as upstream
 * `pkg/apis/autoscaling/v1/conversion.go` converts through the internal (v2-shaped) type.
 * HPAs are stored as v2; v1 carries only `targetCPUUtilizationPercentage` and
 * `currentCPUUtilizationPercentage`, and everything else v2 has travels in annotations, so a
 * v1 client that reads an HPA and writes it back loses nothing:
 *
 * - `autoscaling.alpha.kubernetes.io/metrics`: the metrics besides a CPU utilization target,
 *   as v1 `MetricSpec`s (a JSON list);
 * - `autoscaling.alpha.kubernetes.io/current-metrics`: every current metric, as v1
 *   `MetricStatus`es (the CPU one too: it keeps the raw value);
 * - `autoscaling.alpha.kubernetes.io/behavior`: `spec.behavior`, as Go marshals the internal
 *   type (no json tags: `ScaleUp`, `StabilizationWindowSeconds`…, read back ignoring case);
 * - `autoscaling.alpha.kubernetes.io/conditions`: `status.conditions`.
 *
 * Those annotations are dropped when converting to v2 and rewritten when converting to v1,
 * so they never reach storage. A v1 HPA without any metric gets upstream's implicit CPU
 * target of 80 %.
 *
 * @module
 */
import type { JsonObject, KubeObject } from '../object.js';
import {
  copy,
  isSet,
  list,
  metricSpecToV1,
  metricSpecToV2,
  metricStatusToV1,
  metricStatusToV2,
  o,
  ref,
} from './autoscaling-hpa-metrics.js';
import { get, getArr, getObj, isJsonObject } from './json.js';

export const METRIC_SPECS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
export const METRIC_STATUSES_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';
/** `autoscaling.DefaultCPUUtilization`. */
export const DEFAULT_CPU_UTILIZATION = 80;

const ROUND_TRIP_ANNOTATIONS = [
  METRIC_SPECS_ANNOTATION,
  BEHAVIOR_ANNOTATION,
  METRIC_STATUSES_ANNOTATION,
  CONDITIONS_ANNOTATION,
];

function isCpuResource(m: JsonObject): boolean {
  return m.type === 'Resource' && get(m.resource, 'name') === 'cpu';
}

function isCpuUtilizationTarget(m: JsonObject): boolean {
  const u = get(getObj(m.resource, 'target'), 'averageUtilization');
  return isCpuResource(m) && u !== undefined && u !== null;
}

/** `json.Marshal` of the internal behavior: Go field names, nil pointers as null. */
function behaviorToGoJson(b: JsonObject): JsonObject {
  const rules = (r: unknown): JsonObject | null => {
    if (!isJsonObject(r)) return null;
    const policies = Array.isArray(r.policies)
      ? list(r.policies).map((p) => ({
          Type: p.type ?? '',
          Value: p.value ?? 0,
          PeriodSeconds: p.periodSeconds ?? 0,
        }))
      : null;
    return {
      StabilizationWindowSeconds: r.stabilizationWindowSeconds ?? null,
      SelectPolicy: r.selectPolicy ?? null,
      Policies: policies,
      Tolerance: r.tolerance ?? null,
    };
  };
  return { ScaleUp: rules(b.scaleUp), ScaleDown: rules(b.scaleDown) };
}

/** A key of a Go-marshalled object, matched as `encoding/json` does: exactly, else ignoring case. */
function goField(obj: JsonObject, name: string): unknown {
  if (name in obj) return obj[name];
  const lower = name.toLowerCase();
  const key = Object.keys(obj).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : obj[key];
}

/** The behavior annotation read back; undefined when it does not decode or is empty. */
function behaviorFromGoJson(text: string): JsonObject | undefined {
  const v = parseAnnotation(text);
  if (!isJsonObject(v)) return undefined;
  const rules = (r: unknown): JsonObject | undefined => {
    if (!isJsonObject(r)) return undefined;
    const out: JsonObject = {};
    const set = (as: string, value: unknown) => {
      if (value !== undefined && value !== null) out[as] = value;
    };
    set('stabilizationWindowSeconds', goField(r, 'StabilizationWindowSeconds'));
    set('selectPolicy', goField(r, 'SelectPolicy'));
    const policies = goField(r, 'Policies');
    if (Array.isArray(policies)) {
      out.policies = list(policies).map((p) => ({
        type: goField(p, 'Type') ?? '',
        value: goField(p, 'Value') ?? 0,
        periodSeconds: goField(p, 'PeriodSeconds') ?? 0,
      }));
    }
    set('tolerance', goField(r, 'Tolerance'));
    return out;
  };
  const out: JsonObject = {};
  const up = rules(goField(v, 'ScaleUp'));
  const down = rules(goField(v, 'ScaleDown'));
  if (up !== undefined) out.scaleUp = up;
  if (down !== undefined) out.scaleDown = down;
  return Object.keys(out).length === 0 ? undefined : out;
}

function parseAnnotation(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    // upstream ignores an annotation that does not decode
    return undefined;
  }
}

/** Metadata without the round-trip annotations (upstream `DropRoundTripHorizontalPodAutoscalerAnnotations`). */
function withoutRoundTrip(meta: unknown): JsonObject {
  const out = structuredClone(o(meta));
  const annotations = getObj(out, 'annotations');
  if (annotations === undefined) return out;
  for (const k of ROUND_TRIP_ANNOTATIONS) delete annotations[k];
  if (Object.keys(annotations).length === 0) delete out.annotations;
  return out;
}

function annotate(meta: JsonObject, key: string, value: unknown): void {
  const annotations = getObj(meta, 'annotations') ?? {};
  annotations[key] = JSON.stringify(value);
  meta.annotations = annotations;
}

/** A stored autoscaling/v2 HPA as autoscaling/v1 serves it. */
export function hpaToV1(v2: KubeObject): KubeObject {
  const spec = o(v2.spec);
  const status = o(v2.status);
  const metadata = withoutRoundTrip(v2.metadata);
  const metrics = list(spec.metrics);
  const v1Spec: JsonObject = { scaleTargetRef: ref(spec.scaleTargetRef) };
  copy(v1Spec, 'minReplicas', spec, 'minReplicas');
  v1Spec.maxReplicas = spec.maxReplicas ?? 0;
  // The first CPU resource metric decides, with or without a utilization target.
  const cpu = metrics.find(isCpuResource);
  copy(
    v1Spec,
    'targetCPUUtilizationPercentage',
    o(getObj(cpu?.resource, 'target')),
    'averageUtilization',
  );
  const current = list(status.currentMetrics);
  const v1Status: JsonObject = {};
  copy(v1Status, 'observedGeneration', status, 'observedGeneration');
  copy(v1Status, 'lastScaleTime', status, 'lastScaleTime');
  v1Status.currentReplicas = status.currentReplicas ?? 0;
  v1Status.desiredReplicas = status.desiredReplicas ?? 0;
  // No break upstream: the last CPU metric with a utilization wins.
  for (const m of current) {
    if (isCpuResource(m))
      copy(
        v1Status,
        'currentCPUUtilizationPercentage',
        o(getObj(m.resource, 'current')),
        'averageUtilization',
      );
  }
  const others = metrics.filter((m) => !isCpuUtilizationTarget(m)).map(metricSpecToV1);
  if (others.length > 0) annotate(metadata, METRIC_SPECS_ANNOTATION, others);
  if (current.length > 0)
    annotate(metadata, METRIC_STATUSES_ANNOTATION, current.map(metricStatusToV1));
  if (isJsonObject(spec.behavior))
    annotate(metadata, BEHAVIOR_ANNOTATION, behaviorToGoJson(spec.behavior));
  const conditions = getArr(status, 'conditions') ?? [];
  if (conditions.length > 0) annotate(metadata, CONDITIONS_ANNOTATION, conditions);
  return {
    kind: 'HorizontalPodAutoscaler',
    apiVersion: 'autoscaling/v1',
    metadata,
    spec: v1Spec,
    status: v1Status,
  };
}

/** An autoscaling/v1 HPA as the autoscaling/v2 object it stands for. */
export function hpaToV2(v1: KubeObject): KubeObject {
  const spec = o(v1.spec);
  const status = o(v1.status);
  const annotations = o(getObj(v1.metadata, 'annotations'));
  const text = (k: string) => (typeof annotations[k] === 'string' ? annotations[k] : undefined);
  const v2Spec: JsonObject = { scaleTargetRef: ref(spec.scaleTargetRef) };
  copy(v2Spec, 'minReplicas', spec, 'minReplicas');
  v2Spec.maxReplicas = spec.maxReplicas ?? 0;
  let metrics: JsonObject[] = [];
  if (isSet(spec.targetCPUUtilizationPercentage))
    metrics = [cpuTarget(spec.targetCPUUtilizationPercentage)];
  const others = parseAnnotation(text(METRIC_SPECS_ANNOTATION));
  // The spec's own CPU metric goes after the annotation's.
  if (Array.isArray(others)) metrics = [...list(others).map(metricSpecToV2), ...metrics];
  if (metrics.length === 0) metrics = [cpuTarget(DEFAULT_CPU_UTILIZATION)];
  v2Spec.metrics = metrics;
  const behavior = behaviorFromGoJson(text(BEHAVIOR_ANNOTATION) ?? '');
  if (behavior !== undefined) v2Spec.behavior = behavior;
  const v2Status: JsonObject = {};
  copy(v2Status, 'observedGeneration', status, 'observedGeneration');
  copy(v2Status, 'lastScaleTime', status, 'lastScaleTime');
  if (isSet(status.currentReplicas) && status.currentReplicas !== 0)
    v2Status.currentReplicas = status.currentReplicas;
  v2Status.desiredReplicas = status.desiredReplicas ?? 0;
  let current: JsonObject[] = [];
  if (isSet(status.currentCPUUtilizationPercentage)) {
    current = [
      {
        type: 'Resource',
        resource: {
          name: 'cpu',
          current: { averageUtilization: status.currentCPUUtilizationPercentage },
        },
      },
    ];
  }
  const statuses = parseAnnotation(text(METRIC_STATUSES_ANNOTATION));
  // "ignore any existing status values -- the ones here have more information"
  if (Array.isArray(statuses)) current = list(statuses).map(metricStatusToV2);
  if (current.length > 0) v2Status.currentMetrics = current;
  const conditions = parseAnnotation(text(CONDITIONS_ANNOTATION));
  if (Array.isArray(conditions) && conditions.length > 0) v2Status.conditions = conditions;
  return {
    kind: 'HorizontalPodAutoscaler',
    apiVersion: 'autoscaling/v2',
    metadata: withoutRoundTrip(v1.metadata),
    spec: v2Spec,
    status: v2Status,
  };
}

function cpuTarget(utilization: unknown): JsonObject {
  return {
    type: 'Resource',
    resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } },
  };
}
