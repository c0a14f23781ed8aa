/**
 * Finding StatefulSets from their pods, claims and revisions, as pure functions over cached
 * objects (upstream `stateful_set.go: resolveControllerRef, getPodStatefulSets, addPod, updatePod,
 * deletePod, addRevision…`): the controller turns every child event into the keys to sync.
 *
 * @module
 */
import {
  type LabelSelector,
  LabelSelectorParseError,
  labelSelectorFromObject,
} from '../../api/labels/selector.js';
import type { Pod, StatefulSet } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { controllerRefOf } from '../../controller/controller-ref.js';
import { minReadySecondsOf } from '../../controller/workload-defaults.js';
import { isPodReady } from '../replicaset/status.js';

/** Read access to cached StatefulSets (a lister fits). */
export interface SetLookup {
  get(namespace: string, name: string): StatefulSet | undefined;
  listInNamespace(namespace: string): StatefulSet[];
}

/** The work-queue key `<namespace>/<name>`. */
export function setKeyOf(obj: KubeObject): string {
  return `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
}

/** `spec.selector` parsed; undefined when invalid (upstream logs and does not retry). */
export function setSelector(set: StatefulSet): LabelSelector | undefined {
  try {
    return labelSelectorFromObject(set.spec?.selector);
  } catch (err) {
    if (err instanceof LabelSelectorParseError) return undefined;
    throw err;
  }
}

/** Upstream `resolveControllerRef`: the cached StatefulSet the child's controllerRef names. */
export function owningSet(lookup: SetLookup, child: KubeObject): StatefulSet | undefined {
  const ref = controllerRefOf(child);
  if (ref === undefined || ref.kind !== 'StatefulSet') return undefined;
  const set = lookup.get(child.metadata?.namespace ?? '', ref.name);
  return set !== undefined && set.metadata?.uid === ref.uid ? set : undefined;
}

/**
 * Upstream `getPodStatefulSets` / `getStatefulSetsForRevision`: the sets in the child's
 * namespace whose (non-empty, valid) selector matches its labels; a labelless child matches none.
 */
export function matchingSets(lookup: SetLookup, child: KubeObject): StatefulSet[] {
  const labels = child.metadata?.labels;
  if (labels === undefined || labels === null || Object.keys(labels).length === 0) return [];
  return lookup.listInNamespace(child.metadata?.namespace ?? '').filter((set) => {
    const selector = setSelector(set);
    return selector !== undefined && !selector.isEmpty() && selector.matches(labels);
  });
}

/**
 * Keys to sync for one child event: its owner when it has a controllerRef (the owner only if it
 * resolves), else every set that might adopt it (orphans are adopted on the next sync).
 */
export function keysForChild(lookup: SetLookup, child: KubeObject): string[] {
  if (controllerRefOf(child) !== undefined) {
    const set = owningSet(lookup, child);
    return set === undefined ? [] : [setKeyOf(set)];
  }
  if (child.metadata?.deletionTimestamp) return [];
  return matchingSets(lookup, child).map(setKeyOf);
}

/** Keys for a child update: the old and the new owner when the controllerRef changed. */
export function keysForChildUpdate(lookup: SetLookup, old: KubeObject, cur: KubeObject): string[] {
  const keys = new Set(keysForChild(lookup, cur));
  const oldRef = controllerRefOf(old);
  const curRef = controllerRefOf(cur);
  if (oldRef !== undefined && oldRef.uid !== curRef?.uid) {
    for (const key of keysForChild(lookup, old)) keys.add(key);
  }
  return [...keys];
}

/**
 * Upstream `updatePod`: a pod that just turned Ready under a set with minReadySeconds is
 * re-synced after minReadySeconds + 1 s, when it counts as available. Milliseconds, or undefined.
 */
export function availabilityRecheckMs(
  lookup: SetLookup,
  old: Pod,
  cur: Pod,
): { key: string; ms: number } | undefined {
  const set = owningSet(lookup, cur);
  if (set === undefined || isPodReady(old) || !isPodReady(cur)) return undefined;
  const mrs = minReadySecondsOf(set);
  return mrs > 0 ? { key: setKeyOf(set), ms: (mrs + 1) * 1000 } : undefined;
}
