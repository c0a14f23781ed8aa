/**
 * Readers over pod and node objects: the fields the scheduler plugins read, with absent values
 * turned into empty ones.
 *
 * @module
 */
import type { Node, NodeSpec, Pod, PodSpec } from '../api/model/index.js';
import type { KubeObject } from '../api/object.js';

const EMPTY: Readonly<Record<string, string>> = Object.freeze({});
/** A pod without a spec reads as one without containers (the server never stores one). */
const EMPTY_POD_SPEC: PodSpec = Object.freeze({ containers: [] });
const EMPTY_NODE_SPEC: NodeSpec = Object.freeze({});

export function podSpecOf(pod: Pod): PodSpec {
  return pod.spec ?? EMPTY_POD_SPEC;
}

export function nodeSpecOf(node: Node): NodeSpec {
  return node.spec ?? EMPTY_NODE_SPEC;
}

export function labelsOf(obj: KubeObject): Readonly<Record<string, string>> {
  return obj.metadata?.labels ?? EMPTY;
}

export function namespaceOf(obj: KubeObject): string {
  return obj.metadata?.namespace ?? '';
}

export function nameOf(obj: KubeObject): string {
  return obj.metadata?.name ?? '';
}

/** The node a pod is bound to (`spec.nodeName`), '' when unbound. */
export function boundNodeOf(pod: Pod): string {
  return pod.spec?.nodeName ?? '';
}

/** Succeeded/Failed pods hold no resources; upstream's informer drops them from the cache. */
export function isTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** Pods being deleted are not counted by topology spread (upstream `countPodsMatchSelector`). */
export function isTerminating(pod: KubeObject): boolean {
  return pod.metadata?.deletionTimestamp != null;
}
