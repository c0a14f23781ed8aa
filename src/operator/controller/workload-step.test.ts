/**
 * `setFacts` and `workloadRolledOut`, table-driven: the StatefulSet facts the scaling planner
 * reads (absent counts are 0, a missing `spec.replicas` is 1, optional fields stay absent),
 * and "rolled out" for both workload kinds: observed, every replica updated and Ready, and
 * for a StatefulSet one revision.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { setFacts, workloadRolledOut } from './workload-step.js';

function workload(
  kind: 'StatefulSet' | 'Deployment',
  replicas: number | undefined,
  status: Record<string, unknown> | undefined,
  generation = 2,
): KubeObject {
  return {
    kind,
    metadata: { name: 'orders', generation },
    spec: replicas === undefined ? {} : { replicas },
    ...(status ? { status } : {}),
  };
}

const done = {
  observedGeneration: 2,
  replicas: 3,
  readyReplicas: 3,
  updatedReplicas: 3,
  currentRevision: 'r1',
  updateRevision: 'r1',
};

describe('setFacts', () => {
  it('copies the counts and revisions', () => {
    assert.deepEqual(setFacts(workload('StatefulSet', 3, done)), {
      specReplicas: 3,
      generation: 2,
      observedGeneration: 2,
      replicas: 3,
      readyReplicas: 3,
      updatedReplicas: 3,
      currentRevision: 'r1',
      updateRevision: 'r1',
    });
  });
  it('defaults: no status → zeros, no spec.replicas → 1, optional fields absent', () => {
    assert.deepEqual(setFacts(workload('StatefulSet', undefined, undefined)), {
      specReplicas: 1,
      generation: 2,
      replicas: 0,
      readyReplicas: 0,
      updatedReplicas: 0,
    });
  });
  it('no generation → 0', () => {
    assert.equal(setFacts({ kind: 'StatefulSet', metadata: {}, spec: {} }).generation, 0);
  });
});

describe('workloadRolledOut', () => {
  const table: { name: string; w: KubeObject; want: boolean }[] = [
    { name: 'StatefulSet done', w: workload('StatefulSet', 3, done), want: true },
    {
      name: 'StatefulSet not observed',
      w: workload('StatefulSet', 3, { ...done, observedGeneration: 1 }),
      want: false,
    },
    {
      name: 'StatefulSet with no observedGeneration',
      w: workload('StatefulSet', 3, { ...done, observedGeneration: undefined }),
      want: false,
    },
    {
      name: 'StatefulSet one member not Ready',
      w: workload('StatefulSet', 3, { ...done, readyReplicas: 2 }),
      want: false,
    },
    {
      name: 'StatefulSet one member not updated',
      w: workload('StatefulSet', 3, { ...done, updatedReplicas: 2 }),
      want: false,
    },
    {
      name: 'StatefulSet an extra pod still there',
      w: workload('StatefulSet', 3, { ...done, replicas: 4 }),
      want: false,
    },
    {
      name: 'StatefulSet two revisions',
      w: workload('StatefulSet', 3, { ...done, currentRevision: 'r0' }),
      want: false,
    },
    {
      name: 'StatefulSet no updateRevision yet',
      w: workload('StatefulSet', 3, {
        ...done,
        currentRevision: undefined,
        updateRevision: undefined,
      }),
      want: false,
    },
    {
      name: 'Deployment done (no revisions)',
      w: workload('Deployment', 3, {
        observedGeneration: 2,
        replicas: 3,
        readyReplicas: 3,
        updatedReplicas: 3,
      }),
      want: true,
    },
    {
      name: 'Deployment surge pod still there',
      w: workload('Deployment', 3, {
        observedGeneration: 2,
        replicas: 4,
        readyReplicas: 3,
        updatedReplicas: 3,
      }),
      want: false,
    },
    {
      name: 'Deployment not observed',
      w: workload('Deployment', 3, {
        observedGeneration: 1,
        replicas: 3,
        readyReplicas: 3,
        updatedReplicas: 3,
      }),
      want: false,
    },
    {
      name: 'Deployment without status',
      w: workload('Deployment', 3, undefined),
      want: false,
    },
  ];
  for (const row of table)
    it(row.name, () =>
      assert.equal(workloadRolledOut(row.w, row.w.kind === 'Deployment'), row.want),
    );
});
