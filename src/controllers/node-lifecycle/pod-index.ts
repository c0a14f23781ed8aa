/**
 * The pods-by-node index the node lifecycle, taint eviction and pod GC controllers share on the
 * pod informer (upstream's `controller.PodNodeNameKeyIndex` / `GetPodsByNodeNameFunc`). One
 * function instance, so registering it from several controllers is not an indexer conflict.
 *
 * @module
 */

import type { KubeObject } from '../../api/object.js';
import type { Lister } from '../../client/shared-informer.js';
import type { Indexers } from '../../client/store.js';
import { podNodeName } from './taints.js';

/** Index name; prefixed so another module's `spec.nodeName` index of its own cannot clash. */
export const POD_NODE_INDEX = 'node-lifecycle/spec.nodeName';

export const podNodeIndexers: Indexers<KubeObject> = {
  [POD_NODE_INDEX]: (pod) => {
    const node = podNodeName(pod);
    return node === '' ? [] : [node];
  },
};

/** Cached pods bound to `nodeName`. */
export function podsOnNode(pods: Lister<KubeObject>, nodeName: string): KubeObject[] {
  return pods.byIndex(POD_NODE_INDEX, nodeName);
}
