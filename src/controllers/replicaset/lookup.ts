/**
 * Finding ReplicaSets from pods and pods from ReplicaSets, as pure functions over cached objects:
 * upstream `replica_set.go: resolveControllerRef`, `getPodReplicaSets` (the lister's
 * `GetPodReplicaSets`), `getReplicaSetsWithSameController` and `getIndirectlyRelatedPods`.
 *
 * @module
 */
import {
  type LabelSelector,
  LabelSelectorParseError,
  labelSelectorFromObject,
} from '../../api/labels/selector.js';
import type { Pod, ReplicaSet } from '../../api/model/index.js';
import type { KubeObject, OwnerReference } from '../../api/object.js';
import { controllerRefOf, type GroupVersionKind } from '../../controller/controller-ref.js';

/** The kind the controller's refs carry (`apps/v1 ReplicaSet`). */
export const REPLICA_SET_KIND: GroupVersionKind = {
  group: 'apps',
  version: 'v1',
  kind: 'ReplicaSet',
};

/** Name of the ReplicaSet informer index: the UID of each ReplicaSet's controller (Deployment). */
export const CONTROLLER_UID_INDEX = 'controllerUID';

/**
 * Index function for {@link CONTROLLER_UID_INDEX}; ReplicaSets without a controller are not
 * indexed. It reads metadata only, so it takes the informer's objects as they are.
 */
export function controllerUidIndexFunc(rs: KubeObject): readonly string[] {
  const ref = controllerRefOf(rs);
  return ref === undefined ? [] : [ref.uid];
}

/** The work-queue key of an object: `<namespace>/<name>` (upstream `KeyFunc`). */
export function objectKeyOf(obj: KubeObject): string {
  return `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
}

/**
 * `spec.selector` as a selector (upstream `LabelSelectorAsSelector`); undefined when the
 * selector does not parse (upstream logs and skips such ReplicaSets without retrying).
 */
export function replicaSetSelector(rs: ReplicaSet): LabelSelector | undefined {
  try {
    return labelSelectorFromObject(rs.spec?.selector);
  } catch (err) {
    if (err instanceof LabelSelectorParseError) return undefined;
    throw err;
  }
}

/** Read access to cached ReplicaSets (a lister fits). */
export interface ReplicaSetLookup {
  get(namespace: string, name: string): ReplicaSet | undefined;
  listInNamespace(namespace: string): ReplicaSet[];
}

/**
 * Upstream `resolveControllerRef`: the cached ReplicaSet a controllerRef names, only if the ref's
 * kind is ReplicaSet and the cached object's UID is the ref's (a namesake is another object).
 */
export function resolveControllerRef(
  lookup: ReplicaSetLookup,
  namespace: string,
  ref: OwnerReference,
): ReplicaSet | undefined {
  if (ref.kind !== REPLICA_SET_KIND.kind) return undefined;
  const rs = lookup.get(namespace, ref.name);
  return rs !== undefined && rs.metadata?.uid === ref.uid ? rs : undefined;
}

/**
 * Upstream `GetPodReplicaSets`: the ReplicaSets in the pod's namespace whose selector matches the
 * pod's labels. A pod without labels matches none, and so does a ReplicaSet whose selector is
 * empty or invalid ("should match nothing, not everything").
 */
export function podReplicaSets(lookup: ReplicaSetLookup, pod: Pod): ReplicaSet[] {
  const labels = pod.metadata?.labels;
  if (labels === undefined || labels === null || Object.keys(labels).length === 0) return [];
  return lookup.listInNamespace(pod.metadata?.namespace ?? '').filter((rs) => {
    const selector = replicaSetSelector(rs);
    return selector !== undefined && !selector.isEmpty() && selector.matches(labels);
  });
}

/**
 * Upstream `getIndirectlyRelatedPods`: the pods selected by any ReplicaSet sharing `rs`'s
 * controller (its Deployment), each once. `siblings` are those ReplicaSets (the controller-UID
 * index), `podsInNamespace` the namespace's cached pods. A ReplicaSet without a controller has
 * no related pods, so every co-location rank is 0.
 */
export function relatedPods(
  rs: ReplicaSet,
  siblings: readonly ReplicaSet[],
  podsInNamespace: readonly Pod[],
): Pod[] {
  if (controllerRefOf(rs) === undefined) return [];
  const seen = new Set<string>();
  const result: Pod[] = [];
  for (const sibling of siblings) {
    const selector = replicaSetSelector(sibling);
    if (selector === undefined) continue;
    for (const pod of podsInNamespace) {
      const uid = pod.metadata?.uid ?? '';
      if (seen.has(uid) || !selector.matches(pod.metadata?.labels)) continue;
      seen.add(uid);
      result.push(pod);
    }
  }
  return result;
}
