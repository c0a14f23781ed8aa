/**
 * Builders shared by the disruption tests: pods, PDBs and workloads as plain JSON, the shapes
 * upstream's disruption_test.go and eviction_test.go build with their fixtures.
 *
 * @module
 */

import type { KubeObject, OwnerReference } from '../../object.js';

export const NOW = Date.parse('2024-05-01T12:00:00Z');
export const NS = 'default';

export function iso(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

export interface PodOptions {
  ready?: boolean;
  phase?: string;
  labels?: Record<string, string>;
  owner?: OwnerReference;
  deleting?: boolean;
  resourceVersion?: string;
  namespace?: string;
}

export function pod(name: string, o: PodOptions = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: o.namespace ?? NS,
      uid: `uid-${name}`,
      resourceVersion: o.resourceVersion ?? '7',
      labels: o.labels ?? { foo: 'bar' },
      ...(o.owner ? { ownerReferences: [o.owner] } : {}),
      ...(o.deleting ? { deletionTimestamp: iso(NOW) } : {}),
    },
    spec: {},
    status: {
      phase: o.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
    },
  };
}

export interface PdbOptions {
  minAvailable?: number | string;
  maxUnavailable?: number | string;
  selector?: unknown;
  generation?: number;
  status?: Record<string, unknown>;
  unhealthyPodEvictionPolicy?: string;
  name?: string;
}

export function pdb(o: PdbOptions = {}): KubeObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: {
      name: o.name ?? 'foo',
      namespace: NS,
      uid: 'uid-pdb',
      generation: o.generation ?? 1,
    },
    spec: {
      ...(o.minAvailable === undefined ? {} : { minAvailable: o.minAvailable }),
      ...(o.maxUnavailable === undefined ? {} : { maxUnavailable: o.maxUnavailable }),
      selector: o.selector === undefined ? { matchLabels: { foo: 'bar' } } : o.selector,
      ...(o.unhealthyPodEvictionPolicy
        ? { unhealthyPodEvictionPolicy: o.unhealthyPodEvictionPolicy }
        : {}),
    },
    ...(o.status ? { status: o.status } : {}),
  };
}

export function workload(
  kind: string,
  name: string,
  replicas: number,
  owner?: OwnerReference,
): KubeObject {
  const apiVersion = kind === 'ReplicationController' ? 'v1' : 'apps/v1';
  return {
    apiVersion,
    kind,
    metadata: {
      name,
      namespace: NS,
      uid: `uid-${kind}-${name}`,
      ...(owner ? { ownerReferences: [owner] } : {}),
    },
    spec: { replicas },
  };
}

/** The controller reference pointing at `obj`. */
export function refTo(obj: KubeObject): OwnerReference {
  return {
    apiVersion: obj.apiVersion ?? '',
    kind: obj.kind ?? '',
    name: obj.metadata?.name ?? '',
    uid: obj.metadata?.uid ?? '',
    controller: true,
  };
}
