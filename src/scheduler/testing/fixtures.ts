/**
 * Builders for scheduler tests: nodes and pods as plain API objects.
 *
 * @module
 */
import type { Node, Pod, PodSpec, Taint } from '../../api/model/index.js';

export interface NodeOpts {
  labels?: Record<string, string>;
  cpu?: string;
  memory?: string;
  pods?: string;
  taints?: Taint[];
  unschedulable?: boolean;
  extra?: Record<string, string>;
}

export function makeNode(name: string, o: NodeOpts = {}): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...o.labels } },
    spec: { taints: o.taints, unschedulable: o.unschedulable },
    status: {
      allocatable: {
        cpu: o.cpu ?? '4',
        memory: o.memory ?? '8Gi',
        pods: o.pods ?? '110',
        ...o.extra,
      },
    },
  };
}

export interface PodOpts {
  ns?: string;
  labels?: Record<string, string>;
  node?: string;
  cpu?: string;
  memory?: string;
  spec?: Partial<PodSpec>;
  phase?: string;
}

export function makePod(name: string, o: PodOpts = {}): Pod {
  const requests: Record<string, string> = {};
  if (o.cpu !== undefined) requests.cpu = o.cpu;
  if (o.memory !== undefined) requests.memory = o.memory;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: o.ns ?? 'default', labels: o.labels ?? {} },
    spec: {
      nodeName: o.node,
      containers: [{ name: 'c', resources: { requests } }],
      ...o.spec,
    },
    status: { phase: o.phase ?? 'Pending' },
  };
}
