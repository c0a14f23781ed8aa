/**
 * PreBind's progress test (upstream `binder.go: checkBindings`): after PreBind pre-bound the
 * chosen PVs and handed the other claims to the provisioner (`findPodVolumes`' plan, see
 * `volume-binding-decisions.ts`), whether every claim is now fully bound to a PV that fits the
 * node, still on its way, or failed. Pure over a {@link StorageSnapshot}.
 *
 * @module
 */
import type { Node, PersistentVolume, PersistentVolumeClaim } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { nodeLabels, volumeNodeAffinityMatches } from './node-affinity.js';
import {
  isClaimFullyBound,
  type PodVolumePlan,
  type StorageSnapshot,
} from './volume-binding-decisions.js';
import { ANN_SELECTED_NODE, annotation, claimRefOf, nameOf, volumeNameOf } from './volume-util.js';

/** Where PreBind's wait stands: done, still waiting, or failed (upstream's error text). */
export type BindingProgress = { done: true } | { done: false } | { error: string };

/** Numeric resourceVersion order; false when either is not a number. */
function olderThan(obj: KubeObject, rv: string | undefined): boolean {
  if (rv === undefined) return false;
  try {
    return BigInt(obj.metadata?.resourceVersion ?? '') < BigInt(rv);
  } catch {
    return false;
  }
}

/**
 * Upstream `checkBindings`: every pre-bound PV still names its claim and the claim is fully
 * bound; every provisioned claim still selects the node (the provisioner removes the
 * annotation when it fails) and is fully bound to a PV that fits the node. `written` holds the
 * resourceVersions PreBind wrote, so a cache still older than the write counts as waiting.
 */
export function checkBindings(
  plan: PodVolumePlan,
  node: Node,
  snap: StorageSnapshot,
  written: ReadonlyMap<string, string> = new Map(),
): BindingProgress {
  let done = true;
  for (const { claim, pv } of plan.bindings) {
    const p = preBoundProgress(claim, pv, snap, written);
    if ('error' in p) return p;
    if (!p.done) done = false;
  }
  for (const claim of plan.provisions) {
    const p = provisionProgress(claim, node, snap, written);
    if ('error' in p) return p;
    if (!p.done) done = false;
  }
  return { done };
}

/** One PV PreBind pre-bound: still naming its claim, and the claim fully bound. */
function preBoundProgress(
  claim: PersistentVolumeClaim,
  planned: PersistentVolume,
  snap: StorageSnapshot,
  written: ReadonlyMap<string, string>,
): BindingProgress {
  const pv = snap.volume(nameOf(planned));
  if (pv === undefined) {
    return { error: `failed to check pv binding: persistentvolume "${nameOf(planned)}" not found` };
  }
  if (olderThan(pv, written.get(`pv/${nameOf(pv)}`))) return { done: false };
  if ((claimRefOf(pv)?.uid ?? '') === '') {
    return { error: `ClaimRef got reset for pv "${nameOf(pv)}"` };
  }
  const current = snap.claim(claim.metadata?.namespace ?? '', nameOf(claim));
  return { done: current !== undefined && isClaimFullyBound(current) };
}

/** One claim handed to the provisioner: still selecting the node, then bound to a PV there. */
function provisionProgress(
  claim: PersistentVolumeClaim,
  node: Node,
  snap: StorageSnapshot,
  written: ReadonlyMap<string, string>,
): BindingProgress {
  const nodeName = nameOf(node);
  const ns = claim.metadata?.namespace ?? '';
  const current = snap.claim(ns, nameOf(claim));
  if (current === undefined) {
    return {
      error: `failed to check provisioning pvc: persistentvolumeclaim "${nameOf(claim)}" not found`,
    };
  }
  if (olderThan(current, written.get(`pvc/${ns}/${nameOf(claim)}`))) return { done: false };
  if (annotation(current, ANN_SELECTED_NODE) !== nodeName) {
    return { error: `provisioning failed for PVC "${nameOf(claim)}"` };
  }
  const volumeName = volumeNameOf(current);
  if (volumeName !== '') {
    const pv = snap.volume(volumeName);
    // Not in the cache yet: the PV's event is on its way.
    if (pv === undefined) return { done: false };
    if (!volumeNodeAffinityMatches(pv, nodeLabels(node))) {
      return {
        error: `pv "${volumeName}" node affinity doesn't match node "${nodeName}": no matching NodeSelectorTerms`,
      };
    }
  }
  return { done: isClaimFullyBound(current) };
}
