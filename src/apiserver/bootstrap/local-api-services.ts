/**
 * The local APIServices kube-apiserver keeps for the group-versions it serves itself
 * (upstream's autoregister controller, `cmd/kube-apiserver/app/aggregator.go` for built-in
 * groups, `crdregistration` for CustomResourceDefinition groups): one per served
 * group-version, named `<version>.<group>` (`v1.` for core), without a service reference,
 * labelled `kube-aggregator.kubernetes.io/automanaged` (`onstart` for built-ins, `true` for CRD
 * groups), with upstream's group and version priorities, and reported `Available` with reason
 * `Local` (kube-aggregator's availability controller). A built-in group upstream has no
 * priority for gets none, as upstream skips it.
 *
 * @module
 */
import { AUTOMANAGED_LABEL, apiServiceName } from '../../api/kinds/apiregistration-apiservice.js';
import { semanticEqual } from '../../api/kinds/common.js';
import { getObj, objects } from '../../api/kinds/json.js';
import type { JsonObject, KubeObject } from '../../api/object.js';
import type { ResourceDefinition } from '../../api/resource.js';

/** `[groupPriorityMinimum, versionPriority]` by `group/version` (upstream `apiVersionPriorities`). */
const PRIORITIES: Readonly<Record<string, readonly [number, number]>> = {
  '/v1': [18000, 1],
  'apiregistration.k8s.io/v1': [18000, 15],
  'apps/v1': [17800, 15],
  'events.k8s.io/v1': [17750, 15],
  'authentication.k8s.io/v1': [17700, 15],
  'authorization.k8s.io/v1': [17600, 15],
  'autoscaling/v1': [17500, 15],
  'autoscaling/v2': [17500, 30],
  'batch/v1': [17400, 15],
  'certificates.k8s.io/v1': [17300, 15],
  'networking.k8s.io/v1': [17200, 15],
  'policy/v1': [17100, 15],
  'rbac.authorization.k8s.io/v1': [17000, 15],
  'storage.k8s.io/v1': [16800, 15],
  'apiextensions.k8s.io/v1': [16700, 15],
  'admissionregistration.k8s.io/v1': [16700, 15],
  'scheduling.k8s.io/v1': [16600, 15],
  'coordination.k8s.io/v1': [16500, 15],
  'node.k8s.io/v1': [16300, 15],
  'discovery.k8s.io/v1': [16200, 15],
  'flowcontrol.apiserver.k8s.io/v1': [16100, 21],
};

/** CRD groups: low group priority, versions ordered as any other (upstream `crdregistration`). */
const CRD_PRIORITY: readonly [number, number] = [1000, 100];

export const LOCAL_AVAILABLE_MESSAGE = 'Local APIServices are always available';

/** The local APIService wanted for each served group-version, by name. */
export function desiredAPIServices(defs: readonly ResourceDefinition[]): Map<string, KubeObject> {
  const out = new Map<string, KubeObject>();
  for (const def of defs) {
    const name = apiServiceName(def.group, def.version);
    if (out.has(name)) continue;
    const custom = def.customResource !== undefined;
    const priority = custom ? CRD_PRIORITY : PRIORITIES[`${def.group}/${def.version}`];
    if (priority === undefined) continue;
    out.set(name, {
      metadata: { name, labels: { [AUTOMANAGED_LABEL]: custom ? 'true' : 'onstart' } },
      spec: {
        group: def.group,
        version: def.version,
        groupPriorityMinimum: priority[0],
        versionPriority: priority[1],
      },
    });
  }
  return out;
}

/** Whether the server manages `current` (an APIService a user made is never touched). */
export function isAutomanaged(current: KubeObject): boolean {
  return current.metadata?.labels?.[AUTOMANAGED_LABEL] !== undefined;
}

/** The stored APIService with the wanted spec and label, or undefined when it has them. */
export function planAPIServiceUpdate(
  current: KubeObject,
  wanted: KubeObject,
): KubeObject | undefined {
  const label = wanted.metadata?.labels?.[AUTOMANAGED_LABEL];
  if (
    semanticEqual(current.spec, wanted.spec) &&
    current.metadata?.labels?.[AUTOMANAGED_LABEL] === label
  )
    return undefined;
  return {
    ...current,
    metadata: {
      ...current.metadata,
      labels: { ...current.metadata?.labels, ...wanted.metadata?.labels },
    },
    spec: wanted.spec,
  };
}

/**
 * The status of a local APIService (no `service`): `Available` True, reason `Local`; or
 * undefined when the stored condition says so already, or the APIService is not local.
 */
export function planLocalAvailable(current: KubeObject, now: string): JsonObject | undefined {
  if (getObj(current, 'spec')?.service !== undefined) return undefined;
  const status = getObj(current, 'status') ?? {};
  const conditions = objects(status, 'conditions');
  const old = conditions.find((c) => c.type === 'Available');
  if (old?.status === 'True' && old.reason === 'Local' && old.message === LOCAL_AVAILABLE_MESSAGE)
    return undefined;
  const available = {
    type: 'Available',
    status: 'True',
    lastTransitionTime: old?.status === 'True' ? (old.lastTransitionTime ?? now) : now,
    reason: 'Local',
    message: LOCAL_AVAILABLE_MESSAGE,
  };
  return { ...status, conditions: [...conditions.filter((c) => c !== old), available] };
}
