/**
 * The disruption tests' builders (`src/api/policy/testing/fixtures.ts`, which the eviction tests
 * share) typed as the API's kinds, as the controller's planners take them: each object is the
 * shared builder's, narrowed with `asKind`.
 *
 * @module
 */
import {
  asKind,
  type Kinds,
  type Pod,
  type PodDisruptionBudget,
} from '../../../api/model/index.js';
import type { KubeObject, OwnerReference } from '../../../api/object.js';
import * as shared from '../../../api/policy/testing/fixtures.js';
import type { ScaledWorkload } from '../controller-scale.js';

export { iso, NOW, NS, refTo } from '../../../api/policy/testing/fixtures.js';

export function pod(name: string, o: shared.PodOptions = {}): Pod {
  return asKind(shared.pod(name, o), 'Pod');
}

export function pdb(o: shared.PdbOptions = {}): PodDisruptionBudget {
  return asKind(shared.pdb(o), 'PodDisruptionBudget');
}

type WorkloadKind = 'ReplicaSet' | 'Deployment' | 'StatefulSet';

/** A ReplicationController: no type in the API model, so its shape as the finders read it. */
export type ReplicationControllerFixture = KubeObject & ScaledWorkload;

export function workload<K extends WorkloadKind>(
  kind: K,
  name: string,
  replicas: number,
  owner?: OwnerReference,
): Kinds[K];
export function workload(
  kind: 'ReplicationController',
  name: string,
  replicas: number,
  owner?: OwnerReference,
): ReplicationControllerFixture;
export function workload(
  kind: WorkloadKind | 'ReplicationController',
  name: string,
  replicas: number,
  owner?: OwnerReference,
): Kinds[WorkloadKind] | ReplicationControllerFixture {
  const obj = shared.workload(kind, name, replicas, owner);
  if (kind === 'ReplicationController') return { ...obj, spec: { replicas } };
  return asKind(obj, kind);
}
