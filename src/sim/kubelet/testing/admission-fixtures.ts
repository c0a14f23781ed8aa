/**
 * Node and pod objects for the admission tests: a simulated node as registered
 * (`node-registration.ts`, 4 cpu, 16Gi, 110 pods) and pods bound to it.
 *
 * @module
 */
import type { KubeObject } from '../../../api/object.js';
import { resolveOptions } from '../node-config.js';
import { initialNode } from '../node-registration.js';

export const NODE = 'fleetyard-node-1';

export function simNode(
  opts: {
    capacity?: Record<string, string>;
    taints?: { key: string; value?: string; effect: string }[];
    labels?: Record<string, string>;
  } = {},
): KubeObject {
  const resolved = resolveOptions({ count: 1, capacity: opts.capacity ?? {} });
  const id = resolved.nodes[0];
  if (id === undefined) throw new Error('no node');
  const node = initialNode(id, resolved, 0);
  return {
    ...node,
    metadata: { ...node.metadata, labels: { ...node.metadata?.labels, ...opts.labels } },
    spec: { ...(node.spec as object), ...(opts.taints ? { taints: opts.taints } : {}) },
  };
}

export interface PodOptions {
  uid?: string;
  node?: string;
  labels?: Record<string, string>;
  phase?: string;
  requests?: Record<string, string>;
  ports?: { hostPort?: number; hostIP?: string; protocol?: string; containerPort?: number }[];
  spec?: Record<string, unknown>;
  creationTimestamp?: string;
}

export function pod(name: string, o: PodOptions = {}): KubeObject {
  const container = {
    name: 'app',
    image: 'nginx',
    ...(o.requests ? { resources: { requests: o.requests } } : {}),
    ...(o.ports ? { ports: o.ports.map((p) => ({ containerPort: 80, ...p })) } : {}),
  };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: o.uid ?? `uid-${name}`,
      ...(o.labels ? { labels: o.labels } : {}),
      ...(o.creationTimestamp ? { creationTimestamp: o.creationTimestamp } : {}),
    },
    spec: { nodeName: o.node ?? NODE, containers: [container], ...o.spec },
    status: { phase: o.phase ?? 'Pending' },
  };
}
