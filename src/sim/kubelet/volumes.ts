/**
 * The kubelet's volume gate for `persistentVolumeClaim` volumes (upstream volume manager:
 * `desired_state_of_world_populator.go` processes the pod's claims, `WaitForAttachAndMount`
 * holds the pod until they mount). A claim that is missing, being deleted, or not Bound keeps
 * the pod's containers at ContainerCreating (the planner's mounting-volumes stage) with a
 * Warning `FailedMount` event; once every claim is Bound the pod starts.
 *
 * Only containers that never started are held, as upstream, where volumes are mounted before a
 * pod's first start: a claim that turns Lost under a running pod changes nothing.
 *
 * ReadWriteOnce volumes attach to one node (upstream's attach/detach controller): a pod whose
 * Bound ReadWriteOnce claim is in use by a running pod on another node stays ContainerCreating
 * with a Warning `FailedAttachVolume` "Multi-Attach error …" until that pod is gone. (The
 * scheduler does not check this, as upstream; ReadWriteOncePod is the scheduler's.)
 *
 * The pods informer carries the shared index from a pod to its claims
 * (`src/controller/pod-indexes.ts`), so a claim event queues only the pods that use it and
 * still wait to start.
 *
 * @module
 */

import { asKind, type PersistentVolumeClaim } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import type { Lister } from '../../client/shared-informer.js';
import { podClaimKeys, podsUsingClaim } from '../../controller/pod-indexes.js';
import { readsConfig } from './config-index.js';
import { isKubeletPod, type KubeletPod } from './kubelet-pod.js';

/** The Event reason upstream records (`events.FailedMountVolume`). */
export const FAILED_MOUNT = 'FailedMount';

function claimVolumes(pod: KubeletPod): { volume: string; claim: string }[] {
  return (pod.spec.volumes ?? []).flatMap((v) => {
    const claim = v.persistentVolumeClaim?.claimName;
    return claim ? [{ volume: v.name, claim }] : [];
  });
}

/** Upstream `getPVCExtractPV`'s error for one claim, or undefined when it can be mounted. */
function claimError(name: string, found: KubeObject | undefined): string | undefined {
  if (found === undefined) {
    return `failed to fetch PVC from API server: persistentvolumeclaims "${name}" not found`;
  }
  const claim = asKind(found, 'PersistentVolumeClaim');
  if (claim.metadata?.deletionTimestamp) return 'PVC is being deleted';
  if (claim.status?.phase !== 'Bound') return 'PVC is not bound';
  if (!claim.spec?.volumeName) return 'PVC has empty pvc.Spec.VolumeName';
  return undefined;
}

/**
 * The FailedMount message for the pod's claims, or undefined when all are Bound: upstream's
 * `Unable to attach or mount volumes: unmounted volumes=[…], unattached volumes=[…], failed to
 * process volumes=[…]: error processing PVC <ns>/<claim>: <why>` (the first failing claim).
 */
export function claimVolumeError(
  pod: KubeletPod,
  claimOf: (namespace: string, name: string) => KubeObject | undefined,
): string | undefined {
  const ns = pod.metadata?.namespace ?? '';
  const failed: string[] = [];
  let first: string | undefined;
  for (const { volume, claim } of claimVolumes(pod)) {
    const why = claimError(claim, claimOf(ns, claim));
    if (why === undefined) continue;
    failed.push(volume);
    first ??= `error processing PVC ${ns}/${claim}: ${why}`;
  }
  if (first === undefined) return undefined;
  const names = `[${[...failed].sort().join(' ')}]`;
  return `Unable to attach or mount volumes: unmounted volumes=${names}, unattached volumes=[], failed to process volumes=${names}: ${first}`;
}

/** Upstream's event reason for a refused attach (`events.FailedAttachVolume`). */
export const FAILED_ATTACH = 'FailedAttachVolume';

const MULTI_ATTACH_MODES = new Set(['ReadWriteMany', 'ReadOnlyMany']);

/** Upstream `IsMultiAttachAllowed`: a volume with only ReadWriteOnce(Pod) modes is single-node. */
function singleNode(claim: PersistentVolumeClaim): boolean {
  const modes = claim.status?.accessModes ?? claim.spec?.accessModes ?? [];
  return modes.length > 0 && !modes.some((m) => MULTI_ATTACH_MODES.has(m));
}

/**
 * The attach/detach controller's Multi-Attach error for the pod, or undefined: its first
 * Bound single-node claim that a Running pod on another node holds. `usersOf` lists the pods
 * mounting a claim (`<ns>/<claim>`).
 */
export function multiAttachError(
  pod: KubeletPod,
  claimOf: (namespace: string, name: string) => KubeObject | undefined,
  usersOf: (key: string) => readonly KubeObject[],
): string | undefined {
  const ns = pod.metadata?.namespace ?? '';
  for (const { claim } of claimVolumes(pod)) {
    const cached = claimOf(ns, claim);
    const found = cached === undefined ? undefined : asKind(cached, 'PersistentVolumeClaim');
    if (found === undefined || !singleNode(found)) continue;
    const holders = usersOf(`${ns}/${claim}`)
      .map((p) => asKind(p, 'Pod'))
      .filter(
        (p) =>
          p.metadata?.uid !== pod.metadata?.uid &&
          (p.spec?.nodeName ?? '') !== '' &&
          p.spec?.nodeName !== pod.spec?.nodeName &&
          p.status?.phase === 'Running',
      );
    if (holders.length === 0) continue;
    const volume = found.spec?.volumeName ?? '';
    const names = holders.map((p) => p.metadata?.name ?? '').sort();
    return `Multi-Attach error for volume "${volume}" Volume is already used by pod(s) ${names.join(', ')}`;
  }
  return undefined;
}

/** The pods waiting to start that mount one of `pod`'s claims (to wake when it goes). */
export function podsSharingClaims(
  pods: Lister<KubeObject>,
  pod: KubeObject,
  owns: (pod: KubeObject) => boolean,
): KubeObject[] {
  const uid = pod.metadata?.uid;
  return podClaimKeys(pod).flatMap((key) =>
    podsUsingClaim(pods, key).filter(
      (p) => p.metadata?.uid !== uid && owns(p) && isKubeletPod(p) && readsConfig(p),
    ),
  );
}

/**
 * The pods to look at again after `claim` was added or changed: those mounting it, bound to
 * one of our nodes (`owns`), with a container yet to start.
 */
export function podsWaitingForClaim(
  pods: Lister<KubeObject>,
  claim: KubeObject,
  owns: (pod: KubeObject) => boolean,
): KubeObject[] {
  const key = `${claim.metadata?.namespace ?? ''}/${claim.metadata?.name ?? ''}`;
  return podsUsingClaim(pods, key).filter((p) => owns(p) && isKubeletPod(p) && readsConfig(p));
}

/** Whether the gate's event applies: the pod still has a container waiting to start. */
export function waitsForVolumes(pod: KubeletPod): boolean {
  return readsConfig(pod);
}
