/**
 * Tests for the Deployment status planner (upstream TestSyncRolloutStatus, TestCalculateStatus,
 * TestRequeueStuckDeployment, TestDeploymentTimedOut).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  asKind,
  type DeploymentCondition as Condition,
  type Deployment,
  type DeploymentStatus,
  type ReplicaSet,
} from '../../api/model/index.js';
import { formatTime } from '../../api/time.js';
import { getCondition } from './conditions.js';
import { calculateStatus, rolloutStatus, stuckRequeueAfter } from './progress.js';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const ago = (s: number) => formatTime(NOW - s * 1000);

function dep(
  status: DeploymentStatus = {},
  deadline: number | null = 600,
  replicas = 3,
): Deployment {
  return asKind(
    {
      metadata: { name: 'web', generation: 2 },
      spec: {
        replicas,
        ...(deadline !== null ? { progressDeadlineSeconds: deadline } : {}),
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      },
      status,
    },
    'Deployment',
  );
}

function rs(
  name: string,
  spec: number,
  replicas: number,
  available: number,
  conditions?: Condition[],
): ReplicaSet {
  return asKind(
    {
      metadata: { name },
      spec: { replicas: spec },
      status: {
        replicas,
        readyReplicas: available,
        availableReplicas: available,
        ...(conditions ? { conditions } : {}),
      },
    },
    'ReplicaSet',
  );
}

function progressing(reason: string, updatedAgoS: number, status = 'True'): Condition {
  return {
    type: 'Progressing',
    status,
    reason,
    message: 'm',
    lastUpdateTime: ago(updatedAgoS),
    lastTransitionTime: ago(updatedAgoS),
  };
}

describe('calculateStatus', () => {
  it('sums the RS counts, omits zeros and sets Available', () => {
    const newRS = rs('new', 2, 2, 1);
    const s = calculateStatus([rs('old', 2, 2, 2), newRS], newRS, dep(), NOW);
    assert.equal(s.observedGeneration, 2);
    assert.equal(s.replicas, 4);
    assert.equal(s.updatedReplicas, 2);
    assert.equal(s.readyReplicas, 3);
    assert.equal(s.availableReplicas, 3);
    assert.equal(s.unavailableReplicas, 1);
    assert.equal(getCondition(s, 'Available')?.reason, 'MinimumReplicasAvailable');
    assert.equal(getCondition(s, 'Available')?.message, 'Deployment has minimum availability.');
  });
  it('reports minimum unavailability', () => {
    const s = calculateStatus([rs('new', 3, 3, 1)], undefined, dep(), NOW);
    assert.equal(getCondition(s, 'Available')?.status, 'False');
    assert.equal(getCondition(s, 'Available')?.reason, 'MinimumReplicasUnavailable');
    assert.equal(s.updatedReplicas, undefined);
  });
});

describe('rolloutStatus Progressing', () => {
  const cases: {
    name: string;
    d: Deployment;
    rss: ReplicaSet[];
    want: { reason?: string; status?: string; message?: string; updated?: string } | undefined;
  }[] = [
    {
      name: 'complete',
      d: dep({ conditions: [progressing('ReplicaSetUpdated', 10)] }),
      rss: [rs('new', 3, 3, 3)],
      want: {
        reason: 'NewReplicaSetAvailable',
        status: 'True',
        message: 'ReplicaSet "new" has successfully progressed.',
      },
    },
    {
      name: 'progress refreshes lastUpdateTime',
      d: dep({
        replicas: 3,
        updatedReplicas: 1,
        conditions: [progressing('ReplicaSetUpdated', 100)],
      }),
      rss: [rs('old', 1, 1, 1), rs('new', 2, 2, 1)],
      want: {
        reason: 'ReplicaSetUpdated',
        message: 'ReplicaSet "new" is progressing.',
        updated: formatTime(NOW),
      },
    },
    {
      name: 'deadline passed',
      d: dep({
        replicas: 3,
        updatedReplicas: 1,
        readyReplicas: 3,
        availableReplicas: 3,
        conditions: [progressing('ReplicaSetUpdated', 601)],
      }),
      rss: [rs('old', 2, 2, 2), rs('new', 1, 1, 1)],
      want: {
        reason: 'ProgressDeadlineExceeded',
        status: 'False',
        message: 'ReplicaSet "new" has timed out progressing.',
      },
    },
    {
      name: 'deadline not yet passed',
      d: dep({
        replicas: 3,
        updatedReplicas: 1,
        readyReplicas: 3,
        availableReplicas: 3,
        conditions: [progressing('ReplicaSetUpdated', 599)],
      }),
      rss: [rs('old', 2, 2, 2), rs('new', 1, 1, 1)],
      want: { reason: 'ReplicaSetUpdated', updated: ago(599) },
    },
    {
      name: 'no deadline removes the condition',
      d: dep({ conditions: [progressing('ReplicaSetUpdated', 10)] }, null),
      rss: [rs('new', 3, 3, 3)],
      want: undefined,
    },
    {
      name: 'a recorded completion is not re-evaluated',
      d: dep({ conditions: [progressing('NewReplicaSetAvailable', 1000)] }),
      rss: [rs('new', 3, 3, 1)],
      want: { reason: 'NewReplicaSetAvailable', updated: ago(1000) },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const newRS = c.rss.find((r) => r.metadata?.name === 'new');
      const got = getCondition(rolloutStatus(c.rss, newRS, c.d, NOW), 'Progressing');
      if (c.want === undefined) return assert.equal(got, undefined);
      assert.ok(got);
      if (c.want.reason) assert.equal(got.reason, c.want.reason);
      if (c.want.status) assert.equal(got.status, c.want.status);
      if (c.want.message) assert.equal(got.message, c.want.message);
      if (c.want.updated) assert.equal(got.lastUpdateTime, c.want.updated);
    });
  }

  it('keeps lastTransitionTime while staying True', () => {
    const d = dep({
      updatedReplicas: 1,
      replicas: 3,
      conditions: [progressing('NewReplicaSetCreated', 50)],
    });
    const rss = [rs('old', 1, 1, 1), rs('new', 2, 2, 2)];
    const got = getCondition(rolloutStatus(rss, rss[1], d, NOW), 'Progressing');
    assert.equal(got?.lastTransitionTime, ago(50));
    assert.equal(got?.lastUpdateTime, formatTime(NOW));
  });

  it('surfaces the new RS ReplicaFailure first and removes it when gone', () => {
    const failure = (msg: string): Condition => ({
      type: 'ReplicaFailure',
      status: 'True',
      reason: 'FailedCreate',
      message: msg,
      lastTransitionTime: ago(5),
    });
    const newRS = rs('new', 3, 0, 0, [failure('new')]);
    const s = rolloutStatus([rs('old', 1, 1, 1, [failure('old')]), newRS], newRS, dep(), NOW);
    assert.equal(getCondition(s, 'ReplicaFailure')?.message, 'new');
    assert.equal(getCondition(s, 'ReplicaFailure')?.lastUpdateTime, ago(5));
    const cleared = rolloutStatus([rs('new', 3, 3, 3)], undefined, { ...dep(), status: s }, NOW);
    assert.equal(getCondition(cleared, 'ReplicaFailure'), undefined);
  });
});

describe('stuckRequeueAfter', () => {
  const stuck = (updatedAgo: number, reason = 'ReplicaSetUpdated') =>
    dep({ replicas: 3, updatedReplicas: 1, conditions: [progressing(reason, updatedAgo)] });
  const cases: [string, Deployment, number | undefined][] = [
    ['remaining time plus a second', stuck(100), 501_000],
    ['under a second left: now', stuck(600), 0],
    ['already timed out', stuck(700, 'ProgressDeadlineExceeded'), undefined],
    ['no deadline', dep({ conditions: [progressing('ReplicaSetUpdated', 1)] }, null), undefined],
    ['no condition', dep({}), undefined],
  ];
  for (const [name, d, want] of cases) {
    it(name, () => assert.equal(stuckRequeueAfter(d, d.status ?? {}, NOW), want));
  }
});
