/**
 * Each built-in kind's Go zero value as upstream serialises it, as far as server-side apply
 * can tell: the struct fields that are not pointers (a Deployment's `spec`,
 * `spec.template.spec`, `spec.strategy`, …) exist even in an empty object. A create's
 * `managedFields` compare against it, so those structs are not recorded as added (`".": {}`),
 * exactly as upstream records them.
 *
 * @module
 */
import { isJsonObject, type KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';

const TEMPLATE = [
  'spec.template',
  'spec.template.metadata',
  'spec.template.spec',
  'spec.template.spec.containers=null',
];

/**
 * Non-pointer struct fields by `group/kind`, from upstream's Go types, and (`=null`) fields
 * without `omitempty` whose zero value serialises as `null` (a list or map that is then
 * "changed", not "added", when a create sets it).
 */
const STRUCT_PATHS: Readonly<Record<string, readonly string[]>> = {
  '/Pod': ['spec', 'spec.containers=null', 'status'],
  '/Service': ['spec', 'status', 'status.loadBalancer'],
  '/Namespace': ['spec', 'status'],
  '/Node': [
    'spec',
    'status',
    'status.daemonEndpoints',
    'status.daemonEndpoints.kubeletEndpoint',
    'status.nodeInfo',
  ],
  '/PersistentVolumeClaim': ['spec', 'spec.resources', 'status'],
  '/PersistentVolume': ['spec', 'status'],
  '/Event': ['involvedObject', 'source'],
  '/ResourceQuota': ['spec', 'status'],
  '/LimitRange': ['spec'],
  'apps/Deployment': ['spec', 'spec.selector=null', ...TEMPLATE, 'spec.strategy', 'status'],
  'apps/ReplicaSet': ['spec', 'spec.selector=null', ...TEMPLATE, 'status'],
  'apps/StatefulSet': ['spec', 'spec.selector=null', ...TEMPLATE, 'spec.updateStrategy', 'status'],
  'events.k8s.io/Event': ['regarding'],
  'coordination.k8s.io/Lease': ['spec'],
  'policy/PodDisruptionBudget': ['spec', 'status'],
  'networking.k8s.io/NetworkPolicy': ['spec', 'spec.podSelector'],
  'apiextensions.k8s.io/CustomResourceDefinition': [
    'spec',
    'spec.names',
    'status',
    'status.acceptedNames',
  ],
};

const cache = new Map<string, KubeObject>();

/** The kind's empty object, frozen (custom resources and kinds without struct fields: `{}`). */
export function zeroObject(
  def: Pick<ResourceDefinition, 'group' | 'kind' | 'customResource'>,
): KubeObject {
  if (def.customResource !== undefined) return {};
  const key = `${def.group}/${def.kind}`;
  let zero = cache.get(key);
  if (zero === undefined) {
    zero = {};
    for (const entry of STRUCT_PATHS[key] ?? []) {
      const [path = '', value] = entry.split('=');
      setPath(zero, path.split('.'), value === 'null' ? null : undefined);
    }
    zero = deepFreeze(zero);
    cache.set(key, zero);
  }
  return zero;
}

/** Shared between requests, so frozen: a caller that tried to change it would throw. */
function deepFreeze<T extends object>(o: T): T {
  for (const v of Object.values(o)) if (typeof v === 'object' && v !== null) deepFreeze(v);
  return Object.freeze(o);
}

/** Creates the structs along `parts`; the last one becomes `leaf` (`{}` when undefined). */
function setPath(
  obj: Record<string, unknown>,
  parts: readonly string[],
  leaf: null | undefined,
): void {
  let cur = obj;
  parts.forEach((part, i) => {
    if (i === parts.length - 1 && leaf === null) {
      cur[part] = null;
      return;
    }
    const next = cur[part];
    if (isJsonObject(next)) cur = next;
    else cur = cur[part] = {};
  });
}
