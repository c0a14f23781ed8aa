/**
 * Builders for the DaemonSet controller's tests: a DaemonSet, nodes, and daemon pods in the
 * shapes the planner reads (owner, node pin, hash label, readiness).
 *
 * @module
 */
import type { DaemonSet, Node, Pod, Taint } from '../../../api/model/index.js';
import { formatTime } from '../../../api/time.js';
import { DAEMONSET_HASH_LABEL, pinToNode } from '../node-eligibility.js';

export const NOW = Date.parse('2026-01-01T00:00:00Z');

export function makeDaemonSet(spec: Partial<NonNullable<DaemonSet['spec']>> = {}): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default', uid: 'ds-uid', generation: 1 },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: { containers: [{ name: 'agent', image: 'agent:v1' }] },
      },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      ...spec,
    },
  };
}

export function makeNode(
  name: string,
  labels: Record<string, string> = {},
  taints: Taint[] = [],
): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
    spec: taints.length > 0 ? { taints } : {},
  };
}

export interface PodOptions {
  readonly hash?: string;
  readonly ready?: boolean;
  /** Bound (`spec.nodeName`) or only pinned by affinity. @default true */
  readonly bound?: boolean;
  readonly phase?: string;
  readonly createdAt?: number;
  readonly deleting?: boolean;
  /** Ready since (epoch ms). @default createdAt */
  readonly readySince?: number;
}

export function makePod(name: string, node: string, opts: PodOptions = {}): Pod {
  const created = opts.createdAt ?? NOW - 60_000;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      creationTimestamp: formatTime(created),
      labels: { app: 'agent', [DAEMONSET_HASH_LABEL]: opts.hash ?? 'h1' },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          name: 'agent',
          uid: 'ds-uid',
          controller: true,
        },
      ],
      ...(opts.deleting ? { deletionTimestamp: formatTime(NOW) } : {}),
    },
    spec: {
      containers: [{ name: 'agent', image: 'agent' }],
      affinity: pinToNode(undefined, node),
      ...(opts.bound === false ? {} : { nodeName: node }),
    },
    status: {
      phase: opts.phase ?? 'Running',
      conditions: [
        {
          type: 'Ready',
          status: opts.ready === false ? 'False' : 'True',
          lastTransitionTime: formatTime(opts.readySince ?? created),
        },
      ],
    },
  };
}
