/**
 * The pods-by-node index every node-side controller reads (upstream's
 * `controller.PodNodeNameKeyIndex` / `GetPodsByNodeNameFunc`): the simulated kubelet, the
 * node lifecycle, taint eviction and pod GC controllers share one pod informer, so they share
 * one index on it. One function instance, so registering it again is not an indexer conflict.
 *
 * @module
 */
import type { KubeObject } from '../api/object.js';
import type { Lister } from '../client/shared-informer.js';
import type { Indexers } from '../client/store.js';

export const POD_NODE_NAME_INDEX = 'spec.nodeName';

function podNodeNameIndexFunc(pod: KubeObject): string[] {
  const node = (pod.spec as { nodeName?: unknown } | undefined)?.nodeName;
  return typeof node === 'string' && node !== '' ? [node] : [];
}

export const podNodeNameIndexers: Indexers<KubeObject> = {
  [POD_NODE_NAME_INDEX]: podNodeNameIndexFunc,
};

/** Cached pods bound to `nodeName` (the informer must carry {@link podNodeNameIndexers}). */
export function podsOnNode(pods: Lister<KubeObject>, nodeName: string): KubeObject[] {
  return pods.byIndex(POD_NODE_NAME_INDEX, nodeName);
}
