/**
 * The Job planner, one sync at a time: what it creates, deletes and writes for a given Job
 * and its pods (upstream `job_controller_test.go: TestControllerSyncJob` in spirit).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JobSpec, JobStatus } from '../../api/model/batch.generated.js';
import type { Pod } from '../../api/model/index.js';
import { formatTime } from '../../api/time.js';
import { planJob } from './plan.js';
import { backoffRemainingMs } from './plan-manage.js';
import type { JobPlan } from './plan-types.js';
import { makeJob, makePod, T0 } from './testing/world.js';

interface Case {
  name: string;
  spec: Partial<JobSpec>;
  status?: JobStatus;
  pods: Pod[];
  now?: number;
  want: {
    create?: (number | undefined)[];
    delete?: string[];
    removeFinalizers?: string[];
    status?: Partial<JobStatus>;
    conditions?: string[];
    events?: string[];
    requeueAfterMs?: number;
  };
}

const running = (uid: string, extra = {}) => makePod(uid, { phase: 'Running', ...extra });
const started = { startTime: formatTime(T0) };

const cases: Case[] = [
  {
    name: 'a new Job creates min(parallelism, completions) pods and starts',
    spec: { completions: 5, parallelism: 2 },
    pods: [],
    want: { create: [undefined, undefined], status: { active: 2, startTime: formatTime(T0) } },
  },
  {
    name: 'a work-queue Job keeps parallelism until one pod succeeded',
    spec: { parallelism: 3 },
    status: started,
    pods: [running('a')],
    want: { create: [undefined, undefined], status: { active: 3 } },
  },
  {
    name: 'a finished pod is recorded as uncounted and its finalizer freed, not yet counted',
    spec: { completions: 2 },
    status: started,
    pods: [makePod('a', { phase: 'Succeeded', exitCode: 0 })],
    want: {
      create: [undefined],
      removeFinalizers: ['a'],
      status: { uncountedTerminatedPods: { succeeded: ['a'] }, succeeded: undefined },
    },
  },
  {
    name: 'an uncounted pod without its finalizer moves into the counter',
    spec: { completions: 2 },
    status: { ...started, uncountedTerminatedPods: { succeeded: ['a'] } },
    pods: [makePod('a', { phase: 'Succeeded', exitCode: 0, finalizer: false }), running('b')],
    want: { status: { succeeded: 1, uncountedTerminatedPods: {}, active: 1 } },
  },
  {
    name: 'a counted pod without finalizer is never counted again',
    spec: { completions: 3, parallelism: 2 },
    status: { ...started, succeeded: 1, uncountedTerminatedPods: {} },
    pods: [
      makePod('a', { phase: 'Succeeded', exitCode: 0, finalizer: false }),
      running('b'),
      running('c'),
    ],
    want: { status: { succeeded: 1, active: 2 } },
  },
  {
    name: 'completions reached: SuccessCriteriaMet and Complete with completionTime',
    spec: { completions: 1 },
    status: { ...started, succeeded: 1, uncountedTerminatedPods: {} },
    pods: [makePod('a', { phase: 'Succeeded', exitCode: 0, finalizer: false })],
    want: {
      conditions: ['SuccessCriteriaMet', 'Complete'],
      status: { completionTime: formatTime(T0), active: undefined },
      events: ['Completed'],
    },
  },
  {
    name: 'backoffLimit exceeded: FailureTarget now, active pods deleted, Failed later',
    spec: { completions: 3, parallelism: 2, backoffLimit: 1 },
    status: { ...started, failed: 1, uncountedTerminatedPods: {} },
    pods: [makePod('a', { phase: 'Failed', exitCode: 1 }), running('b')],
    want: {
      delete: ['b'],
      removeFinalizers: ['a', 'b'],
      conditions: ['FailureTarget'],
      status: { terminating: 1, uncountedTerminatedPods: { failed: ['a', 'b'] } },
    },
  },
  {
    name: 'FailureTarget recorded, nothing left: Failed with the same reason, and its event',
    spec: { completions: 3, backoffLimit: 1 },
    status: {
      ...started,
      failed: 3,
      uncountedTerminatedPods: {},
      conditions: [
        {
          type: 'FailureTarget',
          status: 'True',
          reason: 'BackoffLimitExceeded',
          message: 'Job has reached the specified backoff limit',
        },
      ],
    },
    pods: [],
    want: { conditions: ['FailureTarget', 'Failed'], events: ['BackoffLimitExceeded'] },
  },
  {
    name: 'active deadline passed: DeadlineExceeded',
    spec: { completions: 1, activeDeadlineSeconds: 10 },
    status: started,
    pods: [running('a')],
    now: T0 + 10_000,
    want: { delete: ['a'], removeFinalizers: ['a'], conditions: ['FailureTarget'] },
  },
  {
    name: 'active deadline ahead: look again when it passes',
    spec: { completions: 1, activeDeadlineSeconds: 10 },
    status: started,
    pods: [running('a')],
    now: T0 + 4_000,
    want: { requeueAfterMs: 6_000, status: { active: 1 } },
  },
  {
    name: 'a pod failure policy FailJob rule fails the Job with its message',
    spec: {
      completions: 2,
      podReplacementPolicy: 'Failed',
      podFailurePolicy: {
        rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }],
      },
    },
    status: started,
    pods: [makePod('a', { phase: 'Failed', exitCode: 42 }), running('b')],
    want: { delete: ['b'], conditions: ['FailureTarget'] },
  },
  {
    name: 'a pod failure policy Ignore rule: not counted, replaced, finalizer freed',
    spec: {
      completions: 1,
      podReplacementPolicy: 'Failed',
      podFailurePolicy: {
        rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [137] } }],
      },
    },
    status: started,
    pods: [makePod('a', { phase: 'Failed', exitCode: 137 })],
    want: {
      create: [undefined],
      removeFinalizers: ['a'],
      status: { uncountedTerminatedPods: {}, failed: undefined },
    },
  },
  {
    name: 'a failure backs off 10 s before the replacement',
    spec: { completions: 1 },
    status: { ...started, failed: 1, uncountedTerminatedPods: {} },
    pods: [makePod('a', { phase: 'Failed', exitCode: 1, finalizer: false, at: T0 })],
    now: T0 + 4_000,
    want: { create: [], requeueAfterMs: 6_000 },
  },
  {
    name: 'suspended: active pods deleted, Suspended condition and event, startTime cleared',
    spec: { completions: 2, parallelism: 2, suspend: true },
    status: started,
    pods: [running('a'), running('b')],
    want: {
      delete: ['a', 'b'],
      conditions: ['Suspended'],
      events: ['Suspended'],
      status: { startTime: undefined },
    },
  },
  {
    name: 'Indexed: creates the lowest missing indexes, one pod per index',
    spec: { completionMode: 'Indexed', completions: 4, parallelism: 3 },
    status: { ...started, completedIndexes: '0' },
    pods: [running('a', { index: 2 })],
    want: { create: [1, 3], status: { completedIndexes: '0', succeeded: 1 } },
  },
  {
    name: 'Indexed: a duplicate pod of an index is deleted',
    spec: { completionMode: 'Indexed', completions: 2, parallelism: 2 },
    status: started,
    pods: [
      running('a', { index: 0, ready: true }),
      running('b', { index: 0 }),
      running('c', { index: 1 }),
    ],
    want: { delete: ['b'] },
  },
  {
    name: 'Indexed: a success goes straight into completedIndexes',
    spec: { completionMode: 'Indexed', completions: 3, parallelism: 3 },
    status: started,
    pods: [
      makePod('a', { phase: 'Succeeded', exitCode: 0, index: 1 }),
      running('b', { index: 0 }),
      running('c', { index: 2 }),
    ],
    want: {
      removeFinalizers: ['a'],
      status: { completedIndexes: '1', succeeded: 1, uncountedTerminatedPods: {} },
    },
  },
  {
    name: 'backoffLimitPerIndex 0: a failed index is final, the others go on',
    spec: {
      completionMode: 'Indexed',
      completions: 3,
      parallelism: 3,
      backoffLimitPerIndex: 0,
      backoffLimit: 2147483647,
    },
    status: started,
    pods: [
      makePod('a', { phase: 'Failed', exitCode: 1, index: 1 }),
      running('b', { index: 0 }),
      running('c', { index: 2 }),
    ],
    want: {
      create: [],
      status: { failedIndexes: '1', uncountedTerminatedPods: { failed: ['a'] } },
    },
  },
  {
    name: 'maxFailedIndexes exceeded: MaxFailedIndexesExceeded',
    spec: {
      completionMode: 'Indexed',
      completions: 3,
      parallelism: 3,
      backoffLimitPerIndex: 0,
      maxFailedIndexes: 0,
      backoffLimit: 2147483647,
    },
    status: started,
    pods: [makePod('a', { phase: 'Failed', exitCode: 1, index: 1 }), running('b', { index: 0 })],
    want: { delete: ['b'], conditions: ['FailureTarget'] },
  },
  {
    name: 'a success policy met: SuccessCriteriaMet with SuccessPolicy, lingering pods deleted',
    spec: {
      completionMode: 'Indexed',
      completions: 3,
      parallelism: 3,
      successPolicy: { rules: [{ succeededIndexes: '0' }] },
    },
    status: started,
    pods: [makePod('a', { phase: 'Succeeded', exitCode: 0, index: 0 }), running('b', { index: 1 })],
    want: { delete: ['b'], conditions: ['SuccessCriteriaMet'] },
  },
];

const uids = (pods: readonly Pod[]): (string | undefined)[] =>
  pods.map((p) => p.metadata?.uid).sort();

function assertPlan(plan: JobPlan, want: Case['want']): void {
  if (want.create)
    assert.deepEqual(
      plan.create.map((p) => p.index),
      want.create,
      'create',
    );
  if (want.delete) assert.deepEqual(uids(plan.delete), want.delete, 'delete');
  if (want.removeFinalizers) {
    assert.deepEqual(uids(plan.removeFinalizers), want.removeFinalizers, 'finalizers');
  }
  for (const [k, v] of Object.entries(want.status ?? {})) {
    assert.deepEqual(plan.status[k as keyof JobStatus], v, `status.${k}`);
  }
  const trueOnes = (plan.status.conditions ?? []).filter((x) => x.status === 'True');
  if (want.conditions)
    assert.deepEqual(
      trueOnes.map((x) => x.type),
      want.conditions,
    );
  if (want.events)
    assert.deepEqual(
      plan.events.map((e) => e.reason),
      want.events,
      'events',
    );
  if (want.requeueAfterMs !== undefined) assert.equal(plan.requeueAfterMs, want.requeueAfterMs);
}

describe('planJob', () => {
  for (const c of cases) {
    it(c.name, () => {
      const job = { ...makeJob(c.spec), status: c.status ?? {} };
      assertPlan(planJob({ job, pods: c.pods, now: c.now ?? T0 }), c.want);
    });
  }

  it('writes the reasons and messages upstream writes', () => {
    const job = {
      ...makeJob({ completions: 1 }),
      status: { ...started, succeeded: 1, uncountedTerminatedPods: {} },
    };
    const plan = planJob({ job, pods: [], now: T0 });
    const complete = plan.status.conditions?.find((c) => c.type === 'Complete');
    assert.equal(complete?.reason, 'CompletionsReached');
    assert.equal(complete?.message, 'Reached expected number of succeeded pods');
  });
});

describe('backoffRemainingMs', () => {
  const table: [failures: number, sinceMs: number, want: number][] = [
    [0, 0, 0],
    [1, 0, 10_000],
    [1, 4_000, 6_000],
    [2, 0, 20_000],
    [3, 0, 40_000],
    [10, 0, 360_000],
    [1, 11_000, 0],
  ];
  for (const [failures, since, want] of table) {
    it(`${failures} failures, ${since} ms ago → ${want} ms`, () => {
      assert.equal(backoffRemainingMs(failures, T0, T0 + since), want);
    });
  }
});
