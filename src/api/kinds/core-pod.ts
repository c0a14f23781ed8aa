/**
 * core/v1 Pods: defaults (`SetDefaults_PodSpec`, `SetDefaults_Pod`), what creation adds
 * (`PrepareForCreate` plus the admission plugins every cluster runs: Priority and
 * ServiceAccount's default account name; DefaultTolerationSeconds is the API server's
 * `src/apiserver/admission/default-tolerations.ts`, since its seconds are a server flag), validation and field selectors.
 *
 * Generation: tracked (`spec`). Since 1.33 upstream sets `metadata.generation` to 1 on create and
 * bumps it on every spec change of a Pod, whatever the PodObservedGenerationTracking gate says.
 *
 * @module
 */
import type { FieldError } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { METADATA, SPEC, withBuiltinMetadata } from './common.js';
import {
  get,
  getArr,
  getNum,
  getObj,
  getStr,
  isJsonObject,
  type JsonObject,
  specOf,
} from './json.js';
import { defaultPodOnly, defaultPodSpec } from './pod-defaults.js';
import {
  validateContainersOnlyForPod,
  validatePodSpec,
  validatePodSpecificAnnotations,
} from './pod-spec-validation.js';
import { validatePodSpecUpdate } from './pod-update.js';
import { podQOSClass } from './qos.js';

/** The built-in priority classes (upstream `scheduling.SystemPriorityClasses`). */
const SYSTEM_PRIORITIES: Readonly<Record<string, number>> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
};

/** Upstream Priority admission, for the classes that exist without a PriorityClass object. */
function admitPriority(spec: JsonObject): void {
  const className = getStr(spec, 'priorityClassName') ?? '';
  const priority = className === '' ? 0 : SYSTEM_PRIORITIES[className];
  if (priority === undefined) return;
  if (spec.priority === undefined || spec.priority === null) spec.priority = priority;
  if (spec.preemptionPolicy === undefined || spec.preemptionPolicy === null)
    spec.preemptionPolicy = 'PreemptLowerPriority';
}

function prepareForCreate(obj: KubeObject): void {
  const spec = specOf(obj);
  if (spec === undefined) return;
  const status: JsonObject = { phase: 'Pending', qosClass: podQOSClass(spec) };
  if ((getArr(spec, 'schedulingGates') ?? []).length > 0) {
    status.conditions = [
      {
        type: 'PodScheduled',
        status: 'False',
        lastProbeTime: null,
        lastTransitionTime: null,
        reason: 'SchedulingGated',
        message: 'Scheduling is blocked due to non-empty scheduling gates',
      },
    ];
  }
  obj.status = status;
  admitPriority(spec);
  // ServiceAccount admission names the default account (its token volume is not added here).
  if ((getStr(spec, 'serviceAccountName') ?? '') === '') {
    spec.serviceAccountName = 'default';
    spec.serviceAccount = 'default';
  }
}

function validate(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const annotations = obj.metadata?.annotations;
  return [
    ...validatePodSpecificAnnotations(annotations, spec, METADATA.child('annotations')),
    ...validatePodSpec(spec, SPEC, { isPod: true }),
    ...validateContainersOnlyForPod(spec, SPEC),
  ];
}

/** Upstream pod `ToSelectableFields` (values as upstream renders them). */
function selectableFields(obj: KubeObject): Record<string, string> {
  const spec = getObj(obj, 'spec');
  const status = getObj(obj, 'status');
  const podIPs = getArr(status, 'podIPs') ?? [];
  const first = podIPs[0];
  const podIP = isJsonObject(first) ? (getStr(first, 'ip') ?? '') : (getStr(status, 'podIP') ?? '');
  return {
    'spec.nodeName': getStr(spec, 'nodeName') ?? '',
    'spec.restartPolicy': getStr(spec, 'restartPolicy') ?? '',
    'spec.schedulerName': getStr(spec, 'schedulerName') ?? '',
    'spec.serviceAccountName': getStr(spec, 'serviceAccountName') ?? '',
    'spec.hostNetwork': get(spec, 'hostNetwork') === true ? 'true' : 'false',
    'status.phase': getStr(status, 'phase') ?? '',
    'status.podIP': podIP,
    // Upstream accepts this label but never fills it, so it only ever equals ''.
    'status.podIPs': '',
    'status.nominatedNodeName': getStr(status, 'nominatedNodeName') ?? '',
  };
}

/**
 * Upstream `CheckGracefulDelete`: the request's grace period, else
 * `spec.terminationGracePeriodSeconds` (default 30); 0 when the pod never reached a node or
 * already finished (nothing to stop); negative → 1.
 */
export function podGracePeriodSeconds(pod: KubeObject, requested: number | undefined): number {
  const spec = getObj(pod, 'spec');
  const phase = getStr(getObj(pod, 'status'), 'phase');
  let grace = requested ?? getNum(spec, 'terminationGracePeriodSeconds') ?? 30;
  if (!getStr(spec, 'nodeName') || phase === 'Succeeded' || phase === 'Failed') grace = 0;
  if (grace < 0) grace = 1;
  return grace;
}

/** core/v1 `pods` (`po`, category `all`, `/status`). */
export const podResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Pod',
  listKind: 'PodList',
  plural: 'pods',
  singular: 'pod',
  namespaced: true,
  shortNames: ['po'],
  categories: ['all'],
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: true,
  returnsDeletedObject: true,
  strategy: withBuiltinMetadata({
    defaults(obj) {
      const spec = specOf(obj);
      if (spec === undefined) return;
      defaultPodSpec(spec);
      defaultPodOnly(spec);
    },
    prepareForCreate,
    gracePeriodSeconds: podGracePeriodSeconds,
    validate,
    validateUpdate(obj, old) {
      return validatePodSpecUpdate(getObj(obj, 'spec') ?? {}, getObj(old, 'spec') ?? {});
    },
    selectableFields,
  }),
};
