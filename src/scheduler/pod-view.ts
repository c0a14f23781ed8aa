/**
 * Typed readers over pod and node objects: the fields the scheduler plugins read, with
 * absent values turned into empty ones.
 *
 * @module
 */
import type { KubeObject } from '../api/object.js';
import type { NodeSpecView, PodSpecView } from './types.js';

const EMPTY: Readonly<Record<string, string>> = Object.freeze({});

export function podSpecOf(pod: KubeObject): PodSpecView {
  const spec = pod.spec;
  return typeof spec === 'object' && spec !== null ? (spec as PodSpecView) : {};
}

export function nodeSpecOf(node: KubeObject): NodeSpecView {
  const spec = node.spec;
  return typeof spec === 'object' && spec !== null ? (spec as NodeSpecView) : {};
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
export function boundNodeOf(pod: KubeObject): string {
  return podSpecOf(pod).nodeName ?? '';
}

/** Succeeded/Failed pods hold no resources; upstream's informer drops them from the cache. */
export function isTerminal(pod: KubeObject): boolean {
  const status = pod.status as { phase?: string } | undefined;
  return status?.phase === 'Succeeded' || status?.phase === 'Failed';
}

/** Pods being deleted are not counted by topology spread (upstream `countPodsMatchSelector`). */
export function isTerminating(pod: KubeObject): boolean {
  return pod.metadata?.deletionTimestamp != null;
}
