/**
 * Which DaemonSets a child event concerns (upstream `daemon_controller.go: resolveControllerRef,
 * getDaemonSetsForPod, getDaemonSetsForHistory`, the pod and history handlers): a child with a
 * controllerRef wakes its owner only; an orphan wakes every DaemonSet in its namespace whose
 * selector matches it, so one of them adopts it.
 *
 * @module
 */
import {
  type LabelSelector,
  LabelSelectorParseError,
  labelSelectorFromObject,
} from '../../api/labels/selector.js';
import type { DaemonSet } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { controllerRefOf } from '../../controller/controller-ref.js';

/** The cached DaemonSets, as the lister gives them. */
export interface DaemonSetLookup {
  get(namespace: string, name: string): DaemonSet | undefined;
  listInNamespace(namespace: string): DaemonSet[];
}

/** The work-queue key `<namespace>/<name>`. */
export function daemonSetKey(obj: KubeObject): string {
  return `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
}

/** `spec.selector` parsed; undefined when invalid. */
export function daemonSetSelector(ds: DaemonSet): LabelSelector | undefined {
  try {
    return labelSelectorFromObject(ds.spec?.selector);
  } catch (err) {
    if (err instanceof LabelSelectorParseError) return undefined;
    throw err;
  }
}

/** Upstream `resolveControllerRef`: the cached DaemonSet a child's controllerRef names. */
export function owningDaemonSet(lookup: DaemonSetLookup, child: KubeObject): DaemonSet | undefined {
  const ref = controllerRefOf(child);
  if (ref === undefined || ref.kind !== 'DaemonSet') return undefined;
  const ds = lookup.get(child.metadata?.namespace ?? '', ref.name);
  return ds !== undefined && ds.metadata?.uid === ref.uid ? ds : undefined;
}

/** DaemonSets whose (valid, non-empty) selector matches the child's labels. */
export function matchingDaemonSets(lookup: DaemonSetLookup, child: KubeObject): DaemonSet[] {
  const labels = child.metadata?.labels;
  if (labels === undefined || labels === null || Object.keys(labels).length === 0) return [];
  return lookup.listInNamespace(child.metadata?.namespace ?? '').filter((ds) => {
    const selector = daemonSetSelector(ds);
    return selector !== undefined && !selector.isEmpty() && selector.matches(labels);
  });
}

/** Keys for one child event (an orphan being deleted wakes nobody). */
export function keysForChild(lookup: DaemonSetLookup, child: KubeObject): string[] {
  if (controllerRefOf(child) !== undefined) {
    const ds = owningDaemonSet(lookup, child);
    return ds === undefined ? [] : [daemonSetKey(ds)];
  }
  if (child.metadata?.deletionTimestamp) return [];
  return matchingDaemonSets(lookup, child).map(daemonSetKey);
}

/** Keys for a child update: the old owner too when the controllerRef changed. */
export function keysForChildUpdate(
  lookup: DaemonSetLookup,
  old: KubeObject,
  cur: KubeObject,
): string[] {
  const keys = new Set(keysForChild(lookup, cur));
  const oldRef = controllerRefOf(old);
  if (oldRef !== undefined && oldRef.uid !== controllerRefOf(cur)?.uid) {
    for (const key of keysForChild(lookup, old)) keys.add(key);
  }
  return [...keys];
}
