/**
 * The seam through which the storage module takes part in scheduling: upstream's
 * VolumeRestrictions, VolumeBinding and VolumeZone plugins, which need PVC/PV/StorageClass
 * state the scheduler core does not read.
 *
 * The storage issue implements {@link VolumeBindingHook} from its claim, volume and class
 * caches; `schedule` runs it in upstream's filter position (after NodeResourcesFit, before
 * PodTopologySpread and InterPodAffinity). Without a hook, volumes never restrict placement.
 *
 * @module
 */
import type { Node, Pod } from '../api/model/index.js';
import type { SharedInformer } from '../client/shared-informer.js';
import type { FilterPlugin, FilterStatus } from './types.js';

/** Upstream reason strings a hook is expected to return. */
export const VOLUME_REASONS = {
  /** PreFilter (all nodes), UnschedulableAndUnresolvable. */
  unboundImmediateClaims: 'pod has unbound immediate PersistentVolumeClaims',
  /** A bound PV's nodeAffinity excludes the node (zonal or node-local volumes), unresolvable. */
  nodeAffinityConflict: 'node(s) had volume node affinity conflict',
  /** WaitForFirstConsumer claim with no matching PV and no provisioning possible there. */
  noPersistentVolumes: "node(s) didn't find available persistent volumes to bind",
  /** A ReadWriteOncePod claim already used by another pod (Unschedulable: preemptable). */
  readWriteOncePodInUse:
    'node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod',
} as const;

/**
 * Volume-aware placement checks, implemented by the storage module.
 *
 * - `preFilter` sees the pod once per attempt; a status rejects it on every node (e.g. a
 *   claim with an Immediate class still unbound, or a missing claim). Its first reason becomes
 *   the message's single reason, as upstream reports PreFilter failures.
 * - `filter` decides one node: claims bound to PVs whose `nodeAffinity` excludes the node
 *   (zonal or node-local volumes), WaitForFirstConsumer claims that no PV or provisioner
 *   topology can satisfy there, and ReadWriteOncePod claims already used by another pod.
 *   `podsOnNode` are the non-terminal pods bound to the node.
 *
 * Both must be pure over the storage module's snapshot; the binding side (selected-node
 * annotation, PV pre-binding) belongs to the caller that acts on the chosen node.
 */
export interface VolumeBindingHook {
  /** Caches the hook reads; the scheduler starts only once they have synced, as upstream. */
  readonly informers?: readonly SharedInformer[];
  preFilter?(pod: Pod): FilterStatus | null;
  filter(pod: Pod, node: Node, podsOnNode: readonly Pod[]): FilterStatus | null;
  /**
   * Upstream VolumeBinding PreBind: runs in the binding cycle after the node is chosen and
   * before `pods/binding` (bind or provision WaitForFirstConsumer claims, the selected-node
   * annotation). A rejection fails the attempt and the pod is retried after its backoff.
   */
  preBind?(pod: Pod, nodeName: string, signal: AbortSignal): Promise<void>;
}

/** The scheduler's default until the storage module provides one: volumes never restrict. */
export const permissiveVolumeBinding: VolumeBindingHook = { filter: () => null };

/** Adapts a hook to the filter pipeline. */
export function volumeBindingFilter(hook: VolumeBindingHook): FilterPlugin {
  return {
    name: 'VolumeBinding',
    prepare(ctx) {
      return (node) => hook.filter(ctx.pod, node.node, node.pods) ?? null;
    },
  };
}
