/**
 * Builds {@link NodeInfo}s from node objects and the bound pods (upstream scheduler cache
 * snapshot). Terminal pods (Succeeded/Failed) are dropped, as upstream's informer does; pods
 * bound to unknown nodes are ignored.
 *
 * @module
 */
import type { Node, Pod } from '../api/model/index.js';
import { boundNodeOf, isTerminal, labelsOf, nameOf, nodeSpecOf, podSpecOf } from './pod-view.js';
import { addInto, podRequests, type Resources, toResources } from './resources.js';
import type { NodeInfo } from './types.js';

function allocatableOf(node: Node): Resources {
  return toResources(node.status?.allocatable);
}

export function buildNodeInfos(nodes: readonly Node[], boundPods: readonly Pod[]): NodeInfo[] {
  const byNode = new Map<string, Pod[]>();
  for (const pod of boundPods) {
    const n = boundNodeOf(pod);
    if (n === '' || isTerminal(pod)) continue;
    const list = byNode.get(n) ?? [];
    list.push(pod);
    byNode.set(n, list);
  }
  return nodes.map((node) => {
    const name = nameOf(node);
    const pods = byNode.get(name) ?? [];
    const requested: Resources = new Map();
    const nonZeroRequested: Resources = new Map();
    for (const p of pods) {
      addInto(requested, podRequests(podSpecOf(p)));
      addInto(nonZeroRequested, podRequests(podSpecOf(p), true));
    }
    return {
      name,
      node,
      labels: labelsOf(node),
      spec: nodeSpecOf(node),
      pods,
      allocatable: allocatableOf(node),
      requested,
      nonZeroRequested,
    };
  });
}
