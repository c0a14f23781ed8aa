/**
 * Tests for revisionHistoryLimit cleanup (upstream TestCleanupDeployment cases).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asKind, type Deployment, type ReplicaSet } from '../../api/model/index.js';
import { planHistoryCleanup } from './history.js';

function rs(
  name: string,
  revision: number,
  replicas = 0,
  statusReplicas = 0,
  extra: Partial<ReplicaSet['metadata']> = {},
): ReplicaSet {
  return asKind(
    {
      metadata: {
        name,
        creationTimestamp: `2024-01-0${revision}T00:00:00Z`,
        annotations: { 'deployment.kubernetes.io/revision': String(revision) },
        generation: 1,
        ...extra,
      },
      spec: { replicas },
      status: { replicas: statusReplicas, observedGeneration: 1 },
    },
    'ReplicaSet',
  );
}

function d(limit: number | undefined): Deployment {
  return asKind(
    {
      metadata: { name: 'd' },
      spec: limit === undefined ? {} : { revisionHistoryLimit: limit },
    },
    'Deployment',
  );
}

describe('planHistoryCleanup', () => {
  const olds = [rs('r3', 3), rs('r1', 1), rs('r2', 2)];
  const cases: [string, Deployment, ReplicaSet[], string[]][] = [
    ['under the limit', d(5), olds, []],
    ['oldest revisions first', d(1), olds, ['r1', 'r2']],
    ['limit 0 deletes all scaled-down', d(0), olds, ['r1', 'r2', 'r3']],
    ['no limit keeps all', d(undefined), olds, []],
    ['MaxInt32 keeps all', d(2147483647), olds, []],
    ['never one with replicas', d(0), [rs('r1', 1, 1, 1), rs('r2', 2)], ['r2']],
    ['never one with pods still', d(0), [rs('r1', 1, 0, 2), rs('r2', 2)], ['r2']],
    ['never an unobserved one', d(0), [rs('r1', 1, 0, 0, { generation: 2 }), rs('r2', 2)], ['r2']],
    [
      'a deleting RS neither counts nor is deleted',
      d(1),
      [rs('r1', 1, 0, 0, { deletionTimestamp: '2024-01-01T00:00:00Z' }), rs('r2', 2), rs('r3', 3)],
      ['r2'],
    ],
  ];
  for (const [name, dep, rss, want] of cases) {
    it(name, () => assert.deepEqual(planHistoryCleanup(dep, rss), want));
  }
});
