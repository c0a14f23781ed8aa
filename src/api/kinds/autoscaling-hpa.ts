/**
 * HorizontalPodAutoscalers, served as autoscaling/v2 (the storage version, preferred) and
 * autoscaling/v1 (converted to and from v2 on every read and write:
 * `./autoscaling-hpa-conversion.ts`), so both are one object. Namespaced, `hpa`, category
 * `all`, `/status`; no generation (upstream 1.33 sets none for HPAs: its HPAGeneration gate
 * came later).
 *
 * Defaults: v2 `SetDefaults_HorizontalPodAutoscaler` (minReplicas 1; no metrics: CPU at 80 %
 * utilization; a behavior given has its unset rules filled: scale-up with no stabilization,
 * `Max` of 4 pods or 100 % per 15 s; scale-down `Max` of 100 % per 15 s, its stabilization
 * left unset so the controller's own 300 s default applies); v1 defaults only minReplicas,
 * and its implicit 80 % CPU target comes from the conversion.
 *
 * @module
 */
import type { FieldError } from '../field-error.js';
import type { JsonObject, KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import {
  CONDITIONS_ANNOTATION,
  DEFAULT_CPU_UTILIZATION,
  hpaToV1,
  hpaToV2,
  METRIC_STATUSES_ANNOTATION,
} from './autoscaling-hpa-conversion.js';
import { validateHpaStatus, validateHpaV2 } from './autoscaling-hpa-validation.js';
import { withBuiltinMetadata } from './common.js';
import { getObj, isJsonObject, setDefault, specOf } from './json.js';

/** Upstream's bound without the HPAScaleToZero alpha gate (not served here). */
const VALIDATION = { minReplicasLowerBound: 1 };

function scaleUpRules(): JsonObject {
  return {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Max',
    policies: [
      { type: 'Pods', value: 4, periodSeconds: 15 },
      { type: 'Percent', value: 100, periodSeconds: 15 },
    ],
  };
}

function scaleDownRules(): JsonObject {
  return { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };
}

/** Upstream `copyHPAScalingRules`: the set fields of `from` over the defaults. */
function withDefaults(from: unknown, defaults: JsonObject): JsonObject {
  if (!isJsonObject(from)) return defaults;
  const out = { ...defaults };
  for (const key of ['selectPolicy', 'stabilizationWindowSeconds', 'policies', 'tolerance']) {
    if (from[key] !== undefined && from[key] !== null) out[key] = from[key];
  }
  return out;
}

/** autoscaling/v2 `SetDefaults_HorizontalPodAutoscaler`. Idempotent. */
export function defaultHpaV2(obj: KubeObject): void {
  const spec = specOf(obj);
  if (spec === undefined) return;
  setDefault(spec, 'minReplicas', 1);
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [
      {
        type: 'Resource',
        resource: {
          name: 'cpu',
          target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION },
        },
      },
    ];
  }
  const behavior = getObj(spec, 'behavior');
  if (behavior !== undefined) {
    behavior.scaleUp = withDefaults(behavior.scaleUp, scaleUpRules());
    behavior.scaleDown = withDefaults(behavior.scaleDown, scaleDownRules());
  }
}

/** A v1 HPA as the v2 object it is stored as, with v2's defaults (upstream applies them decoding from storage). */
export function hpaV1ToStorage(v1: KubeObject): KubeObject {
  const v2 = hpaToV2(v1);
  defaultHpaV2(v2);
  return v2;
}

/** The annotations that carry v2's status through v1: a write to the main resource cannot set them. */
const STATUS_ANNOTATIONS = [METRIC_STATUSES_ANNOTATION, CONDITIONS_ANNOTATION];

/** Sets `obj`'s status annotations to those of `from` (removes them when `from` is undefined). */
function keepStatusAnnotations(obj: KubeObject, from: KubeObject | undefined): void {
  const annotations = getObj(obj.metadata, 'annotations') ?? {};
  const kept = getObj(from?.metadata, 'annotations') ?? {};
  for (const key of STATUS_ANNOTATIONS) {
    if (typeof kept[key] === 'string') annotations[key] = kept[key];
    else delete annotations[key];
  }
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  if (Object.keys(annotations).length > 0)
    obj.metadata.annotations = annotations as Record<string, string>;
  else delete obj.metadata.annotations;
}

function validateV1(obj: KubeObject): FieldError[] {
  return validateHpaV2(hpaToV2(obj), VALIDATION);
}

const common = {
  kind: 'HorizontalPodAutoscaler',
  listKind: 'HorizontalPodAutoscalerList',
  plural: 'horizontalpodautoscalers',
  singular: 'horizontalpodautoscaler',
  namespaced: true,
  shortNames: ['hpa'],
  categories: ['all'],
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: true,
} as const;

/** autoscaling/v2 `horizontalpodautoscalers`: the storage version. */
export const hpaV2Resource: ResourceDefinition = {
  ...common,
  group: 'autoscaling',
  version: 'v2',
  strategy: withBuiltinMetadata({
    defaults: defaultHpaV2,
    prepareForCreate(obj) {
      // `desiredReplicas` is the one v2 status field without omitempty.
      obj.status = { desiredReplicas: 0 };
    },
    validate: (obj) => validateHpaV2(obj, VALIDATION),
    validateStatusUpdate: validateHpaStatus,
  }),
};

/** autoscaling/v1 `horizontalpodautoscalers`, kept in v2's storage. */
export const hpaV1Resource: ResourceDefinition = {
  ...common,
  group: 'autoscaling',
  version: 'v1',
  storage: {
    group: 'autoscaling',
    version: 'v2',
    plural: 'horizontalpodautoscalers',
    toStorage: hpaV1ToStorage,
    fromStorage: hpaToV1,
  },
  strategy: withBuiltinMetadata({
    defaults(obj) {
      const spec = specOf(obj);
      if (spec !== undefined) setDefault(spec, 'minReplicas', 1);
    },
    prepareForCreate(obj) {
      obj.status = { currentReplicas: 0, desiredReplicas: 0 };
      keepStatusAnnotations(obj, undefined);
    },
    prepareForUpdate: keepStatusAnnotations,
    validate: validateV1,
    validateStatusUpdate: validateHpaStatus,
  }),
};
