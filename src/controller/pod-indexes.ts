/**
 * The pod indexes several controllers read, defined once because they share one pod informer
 * per process (one function instance each, so registering one again is not an indexer
 * conflict, and each pod event computes it once):
 *
 * - pods by node (upstream's `controller.PodNodeNameKeyIndex` / `GetPodsByNodeNameFunc`): the
 *   simulated kubelet, the node lifecycle, taint eviction and pod GC controllers, the
 *   EndpointSlice controller;
 * - pods by the claims they use (`<ns>/<claim>`: `persistentVolumeClaim` volumes and generic
 *   ephemeral ones, `<pod>-<volume>`): the kubelet's volume gate, the scheduler's volume hook,
 *   the PVC protection controller.
 *
 * @module
 */
import { asKind } from '../api/model/index.js';
import type { KubeObject } from '../api/object.js';
import type { Lister } from '../client/shared-informer.js';
import type { Indexers } from '../client/store.js';

export const POD_NODE_NAME_INDEX = 'spec.nodeName';

/** Index functions take the pod informer's plain objects, and narrow them. */
function podNodeNameIndexFunc(pod: KubeObject): string[] {
  const node = asKind(pod, 'Pod').spec?.nodeName;
  return node ? [node] : [];
}

export const podNodeNameIndexers: Indexers<KubeObject> = {
  [POD_NODE_NAME_INDEX]: podNodeNameIndexFunc,
};

/** Cached pods bound to `nodeName` (the informer must carry {@link podNodeNameIndexers}). */
export function podsOnNode<T extends KubeObject>(pods: Lister<T>, nodeName: string): T[] {
  return pods.byIndex(POD_NODE_NAME_INDEX, nodeName);
}

export const POD_CLAIM_INDEX = 'spec.volumes.claims';

/** Every claim a pod's volumes use, as `<ns>/<claim>` keys, each once. */
export function podClaimKeys(obj: KubeObject): string[] {
  const pod = asKind(obj, 'Pod');
  const ns = pod.metadata?.namespace ?? '';
  const keys = new Set<string>();
  for (const v of pod.spec?.volumes ?? []) {
    const claim = v.persistentVolumeClaim?.claimName;
    if (claim) keys.add(`${ns}/${claim}`);
    else if (v.ephemeral !== undefined && v.ephemeral !== null) {
      keys.add(`${ns}/${pod.metadata?.name ?? ''}-${v.name}`);
    }
  }
  return [...keys];
}

export const podClaimIndexers: Indexers<KubeObject> = { [POD_CLAIM_INDEX]: podClaimKeys };

/** Cached pods using claim `<ns>/<claim>` (the informer must carry {@link podClaimIndexers}). */
export function podsUsingClaim<T extends KubeObject>(pods: Lister<T>, claimKey: string): T[] {
  return pods.byIndex(POD_CLAIM_INDEX, claimKey);
}
