/**
 * What a pod event means for the ReplicaSet controller (upstream `replica_set.go: addPod,
 * updatePod, deletePod`), as data: which ReplicaSet keys to enqueue (now or later) and which
 * creations and deletions the expectations observe. The controller applies the effects; this
 * file decides them, so every branch is table-tested without a server.
 *
 * @module
 */
import type { Pod, ReplicaSet } from '../../api/model/index.js';
import { deepEqual } from '../../api/object.js';
import { controllerRefOf } from '../../controller/controller-ref.js';
import { minReadySecondsOf } from '../../controller/workload-defaults.js';
import {
  objectKeyOf,
  podReplicaSets,
  type ReplicaSetLookup,
  resolveControllerRef,
} from './lookup.js';
import { isPodReady } from './status.js';

/** The effects of one pod event. Keys are ReplicaSet keys (`<namespace>/<name>`). */
export interface PodEventEffects {
  /** ReplicaSets whose expectations observe one creation. */
  readonly creationsObserved: string[];
  /** Deletions observed: the ReplicaSet key and the pod key (`<namespace>/<name>`). */
  readonly deletionsObserved: { readonly rsKey: string; readonly podKey: string }[];
  /** ReplicaSets to sync now. */
  readonly enqueue: string[];
  /** ReplicaSets to sync after a delay (the availability re-check), with the delay in ms. */
  readonly enqueueAfter: { readonly rsKey: string; readonly ms: number }[];
}

function noEffects(): PodEventEffects {
  return { creationsObserved: [], deletionsObserved: [], enqueue: [], enqueueAfter: [] };
}

function hasDeletionTimestamp(pod: Pod): boolean {
  const ts = pod.metadata?.deletionTimestamp;
  return ts !== undefined && ts !== null;
}

/** The owning ReplicaSet of a pod by its controllerRef, if that resolves in the cache. */
function owner(lookup: ReplicaSetLookup, pod: Pod): ReplicaSet | undefined {
  const ref = controllerRefOf(pod);
  return ref === undefined
    ? undefined
    : resolveControllerRef(lookup, pod.metadata?.namespace ?? '', ref);
}

/**
 * Upstream `deletePod`: the owner observes the deletion of this pod and syncs. Orphans are no
 * one's concern. (A tombstone's last state is passed in as `pod`.)
 */
export function podDeleted(lookup: ReplicaSetLookup, pod: Pod): PodEventEffects {
  const effects = noEffects();
  addDeletion(effects, lookup, pod);
  return effects;
}

function addDeletion(effects: PodEventEffects, lookup: ReplicaSetLookup, pod: Pod): void {
  const rs = owner(lookup, pod);
  if (rs === undefined) return;
  const rsKey = objectKeyOf(rs);
  effects.deletionsObserved.push({ rsKey, podKey: objectKeyOf(pod) });
  effects.enqueue.push(rsKey);
}

/**
 * Upstream `addPod`: a pod already being deleted counts as a deletion (after a controller restart
 * it must not count as a creation); an owned pod is a creation its owner observes; an orphan
 * wakes every ReplicaSet whose selector matches it, without observing anything.
 */
export function podAdded(lookup: ReplicaSetLookup, pod: Pod): PodEventEffects {
  if (hasDeletionTimestamp(pod)) return podDeleted(lookup, pod);
  const effects = noEffects();
  if (controllerRefOf(pod) !== undefined) {
    const rs = owner(lookup, pod);
    if (rs === undefined) return effects;
    const rsKey = objectKeyOf(rs);
    effects.creationsObserved.push(rsKey);
    effects.enqueue.push(rsKey);
    return effects;
  }
  for (const rs of podReplicaSets(lookup, pod)) effects.enqueue.push(objectKeyOf(rs));
  return effects;
}

/**
 * Upstream `updatePod`:
 * - same resourceVersion → nothing (a resync);
 * - now being deleted → a deletion for the current owner, and for the old one if labels changed;
 * - controllerRef changed → the old owner syncs;
 * - owned → the owner syncs, and again after minReadySeconds + 1 s when the pod just became
 *   ready (the extra second absorbs timer skew, upstream issue 39785);
 * - orphan whose labels or controllerRef changed → every matching ReplicaSet syncs.
 */
export function podUpdated(lookup: ReplicaSetLookup, oldPod: Pod, curPod: Pod): PodEventEffects {
  const effects = noEffects();
  if (oldPod.metadata?.resourceVersion === curPod.metadata?.resourceVersion) return effects;
  const labelChanged = !deepEqual(oldPod.metadata?.labels ?? {}, curPod.metadata?.labels ?? {});
  if (hasDeletionTimestamp(curPod)) {
    addDeletion(effects, lookup, curPod);
    if (labelChanged) addDeletion(effects, lookup, oldPod);
    return effects;
  }
  const curRef = controllerRefOf(curPod);
  const oldRef = controllerRefOf(oldPod);
  const refChanged = !deepEqual(curRef ?? null, oldRef ?? null);
  if (refChanged && oldRef !== undefined) {
    const old = owner(lookup, oldPod);
    if (old !== undefined) effects.enqueue.push(objectKeyOf(old));
  }
  if (curRef !== undefined) {
    ownedPodUpdated(effects, lookup, oldPod, curPod);
    return effects;
  }
  if (labelChanged || refChanged) {
    for (const rs of podReplicaSets(lookup, curPod)) effects.enqueue.push(objectKeyOf(rs));
  }
  return effects;
}

/** An owned pod changed: its owner syncs, and again once a just-ready pod may be available. */
function ownedPodUpdated(
  effects: PodEventEffects,
  lookup: ReplicaSetLookup,
  oldPod: Pod,
  curPod: Pod,
): void {
  const rs = owner(lookup, curPod);
  if (rs === undefined) return;
  const rsKey = objectKeyOf(rs);
  effects.enqueue.push(rsKey);
  const minReadySeconds = minReadySecondsOf(rs);
  if (!isPodReady(oldPod) && isPodReady(curPod) && minReadySeconds > 0) {
    effects.enqueueAfter.push({ rsKey, ms: (minReadySeconds + 1) * 1000 });
  }
}
