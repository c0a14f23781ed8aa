/**
 * `kubectl get hpa` rows, as upstream `printHorizontalPodAutoscaler` (printers.go): NAME,
 * REFERENCE (`Deployment/web`), TARGETS (`formatHPAMetrics`: `cpu: 50%/80%`,
 * `<unknown>/80%` before the first measurement, at most two metrics then `+ N more...`),
 * MINPODS (`<unset>` when absent), MAXPODS, REPLICAS (current), AGE. Upstream prints the
 * internal (v2-shaped) object, so an autoscaling/v1 object is converted to v2 first.
 *
 * @module
 */
import { hpaToV2 } from '../kinds/autoscaling-hpa-conversion.js';
import type { KubeObject } from '../object.js';
import { ageOf, int, nameOf, obj, objs, optObj, str } from './access.js';
import { AGE, column, NAME } from './columns.js';
import { quantityString } from './format.js';
import type { PrintedRow, TableColumnDefinition } from './types.js';

export const HPA_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('Reference', 'string', {
    text: 'reference to scaled resource; horizontal pod autoscaler will learn the current resource consumption and will set the desired number of pods by using its Scale subresource.',
  }),
  column('Targets', 'string', {
    text: 'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond.',
  }),
  column('MinPods', 'string', {
    text: 'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available.',
  }),
  column('MaxPods', 'integer', {
    text: 'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.',
  }),
  column('Replicas', 'integer', {
    text: 'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.',
  }),
  AGE,
];

/** Upstream shows at most this many metrics, then `+ N more...`. */
const MAX_METRICS = 2;
const UNKNOWN = '<unknown>';

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** One metric's `current/target` text (upstream `formatHPAMetrics`'s switch). */
function formatMetric(
  spec: Record<string, unknown>,
  status: Record<string, unknown> | undefined,
): string {
  const type = str(spec.type);
  const field = type === 'ContainerResource' ? 'containerResource' : type.toLowerCase();
  const source = obj(spec[field]);
  const target = obj(source.target);
  const current = optObj(status?.[field]);
  const cur = obj(current?.current);
  switch (type) {
    case 'External':
    case 'Object':
      if (isSet(target.averageValue)) {
        const c = isSet(cur.averageValue) ? quantityString(cur.averageValue) : UNKNOWN;
        return `${c}/${quantityString(target.averageValue)} (avg)`;
      }
      return `${current === undefined ? UNKNOWN : quantityString(cur.value)}/${quantityString(target.value)}`;
    case 'Pods':
      return `${current === undefined ? UNKNOWN : quantityString(cur.averageValue)}/${quantityString(target.averageValue)}`;
    case 'Resource':
    case 'ContainerResource': {
      const name = str(source.name);
      if (isSet(target.averageValue)) {
        const c = current === undefined ? UNKNOWN : quantityString(cur.averageValue);
        return `${name}: ${c}/${quantityString(target.averageValue)}`;
      }
      const c = isSet(cur.averageUtilization) ? `${int(cur.averageUtilization)}%` : UNKNOWN;
      const t = isSet(target.averageUtilization) ? `${int(target.averageUtilization)}%` : '<auto>';
      return `${name}: ${c}/${t}`;
    }
    default:
      return '<unknown type>';
  }
}

/** Upstream `formatHPAMetrics`: statuses are matched to specs by position. */
export function formatHpaMetrics(
  specs: readonly Record<string, unknown>[],
  statuses: readonly Record<string, unknown>[],
): string {
  if (specs.length === 0) return '<none>';
  const list = specs.map((s, i) => formatMetric(s, statuses[i]));
  if (list.length <= MAX_METRICS) return list.join(', ');
  return `${list.slice(0, MAX_METRICS).join(', ')} + ${list.length - MAX_METRICS} more...`;
}

export function printHorizontalPodAutoscaler(o: KubeObject, now: Date): PrintedRow {
  const hpa = o.apiVersion === 'autoscaling/v1' ? hpaToV2(o) : o;
  const spec = obj(hpa.spec);
  const status = obj(hpa.status);
  const ref = obj(spec.scaleTargetRef);
  return {
    cells: [
      nameOf(o),
      `${str(ref.kind)}/${str(ref.name)}`,
      formatHpaMetrics(objs(spec.metrics), objs(status.currentMetrics)),
      isSet(spec.minReplicas) ? String(int(spec.minReplicas)) : '<unset>',
      int(spec.maxReplicas),
      int(status.currentReplicas),
      ageOf(o, now),
    ],
  };
}
