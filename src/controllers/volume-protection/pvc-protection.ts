/**
 * The PVC protection controller (upstream `pkg/controller/volume/pvcprotection`): every live
 * PersistentVolumeClaim carries `kubernetes.io/pvc-protection` (added when missing), and a
 * deleting one loses it only once no scheduled pod uses it (see {@link podUsesClaim}), so a
 * claim outlives its delete while a pod on a node may still mount it.
 *
 * "In use" is answered from the pod cache (an index by claim) and, when the cache says no,
 * confirmed by a live pod list of the namespace (upstream's `askAPIServer`), so a pod the
 * cache has not seen yet cannot lose its volume. Pod changes requeue the claims they name.
 *
 * @module
 */
import { asKind, type PersistentVolumeClaim, type Pod } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { deletedObject } from '../../client/shared-informer.js';
import { objectKey, splitKey } from '../../client/store.js';
import {
  type ControllerContext,
  type ControllerDefinition,
  RESOURCES,
} from '../../controller/context.js';
import { type ReconcileResult, runController } from '../../controller/controller.js';
import { kindInformer } from '../../controller/kind-informer.js';
import { podClaimIndexers, podClaimKeys, podsUsingClaim } from '../../controller/pod-indexes.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { syncProtection } from './finalizers.js';

export const PVC_PROTECTION_CONTROLLER_NAME = 'pvc-protection-controller';
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';

interface ClaimUse {
  /** The claim's name. */
  readonly claim: string;
  /** A generic ephemeral volume's claim (`<pod>-<volume>`). */
  readonly ephemeral: boolean;
}

function podClaimUses(pod: Pod): ClaimUse[] {
  const out: ClaimUse[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    const claim = v.persistentVolumeClaim?.claimName;
    if (claim) out.push({ claim, ephemeral: false });
    else if (v.ephemeral !== undefined && v.ephemeral !== null) {
      out.push({ claim: `${pod.metadata?.name ?? ''}-${v.name ?? ''}`, ephemeral: true });
    }
  }
  return out;
}

/** The claims a pod's volumes name: PVC volumes and generic ephemeral `<pod>-<volume>`. */
export function podClaimNames(pod: Pod): string[] {
  return podClaimUses(pod).map((u) => u.claim);
}

/** Upstream `podIsShutDown`: force-deleted (deletionTimestamp with a grace period of 0). */
function podIsShutDown(pod: Pod): boolean {
  const m = pod.metadata;
  return (
    m?.deletionTimestamp !== undefined &&
    m.deletionTimestamp !== null &&
    m.deletionGracePeriodSeconds === 0
  );
}

/**
 * Upstream `podUsesPVC`: only a scheduled pod (the kubelet may have mounted the volume)
 * holds a claim. A terminated pod (Succeeded/Failed) still does until it is deleted: its
 * unmount is asynchronous to the phase change (kubernetes#120756 stays open for that reason);
 * a generic ephemeral volume's claim is released once its pod is shut down.
 */
export function podUsesClaim(pod: Pod, claim: KubeObject): boolean {
  if (pod.metadata?.namespace !== claim.metadata?.namespace) return false;
  const nodeName = pod.spec?.nodeName ?? '';
  if (nodeName === '') return false;
  const name = claim.metadata?.name ?? '';
  return podClaimUses(pod).some((u) => u.claim === name && (!u.ephemeral || !podIsShutDown(pod)));
}

/** True when one of `pods` uses the claim ({@link podUsesClaim}). */
export function claimInUse(claim: KubeObject, pods: readonly Pod[]): boolean {
  return pods.some((p) => podUsesClaim(p, claim));
}

/** The PVC protection controller, for the controller manager. */
export function pvcProtectionController(): ControllerDefinition {
  return { name: PVC_PROTECTION_CONTROLLER_NAME, start: run };
}

async function run(ctx: ControllerContext): Promise<void> {
  const claims = kindInformer(
    ctx.informers.informer(RESOURCES.persistentvolumeclaims),
    'PersistentVolumeClaim',
  );
  const pods = kindInformer(
    ctx.informers.informer(RESOURCES.pods, { indexers: podClaimIndexers }),
    'Pod',
  );
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'pvcprotection',
    metrics: ctx.metrics.queue,
  });
  const onClaim = (c: KubeObject) => queue.add(objectKey(c));
  claims.informer.addEventHandler({ onAdd: onClaim, onUpdate: (_, cur) => onClaim(cur) });
  const onPod = (p: KubeObject) => {
    for (const key of podClaimKeys(p)) queue.add(key);
  };
  pods.informer.addEventHandler({
    onAdd: onPod,
    onUpdate: (_, cur) => onPod(cur),
    onDelete: (d) => onPod(deletedObject(d)),
  });
  if (!(await ctx.informers.waitForSync([claims.informer, pods.informer], ctx.signal))) return;
  const inUse = async (claim: PersistentVolumeClaim): Promise<boolean> => {
    if (claimInUse(claim, podsUsingClaim(pods.lister, objectKey(claim)))) return true;
    const namespace = claim.metadata?.namespace ?? '';
    const live = await ctx.client.list({ ...RESOURCES.pods, namespace });
    return claimInUse(
      claim,
      live.items.map((p) => asKind(p, 'Pod')),
    );
  };
  const sync = async (key: string): Promise<ReconcileResult> => {
    const [namespace, name] = splitKey(key);
    const claim = claims.lister.get(namespace, name);
    if (claim === undefined) return {};
    const ref = { ...RESOURCES.persistentvolumeclaims, namespace, name };
    await syncProtection(
      ctx.client,
      ref,
      claim,
      PVC_PROTECTION_FINALIZER,
      async () => !(await inUse(claim)),
    );
    return {};
  };
  await runController({
    name: PVC_PROTECTION_CONTROLLER_NAME,
    queue,
    reconcile: sync,
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
  });
}
