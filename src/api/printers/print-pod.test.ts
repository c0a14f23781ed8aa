/**
 * Pod rows, after upstream `printers_test.go` `TestPrintPod*` cases.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { printPod } from './print-pod.js';

const NOW = new Date('2024-05-01T12:00:00Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000).toISOString();

function pod(spec: object, status: object, metadata: object = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'test1', creationTimestamp: ago(600), ...metadata },
    spec: { containers: [{ name: 'a' }, { name: 'b' }], ...spec },
    status,
  };
}

const running = { running: { startedAt: ago(500) } };

interface Case {
  readonly name: string;
  readonly pod: KubeObject;
  /** NAME, READY, STATUS, RESTARTS, AGE */
  readonly cells: unknown[];
  readonly wide?: unknown[];
  readonly completed?: 'Succeeded' | 'Failed';
}

const cases: Case[] = [
  {
    name: 'restarts summed over containers, no last restart time',
    pod: pod(
      {},
      {
        phase: 'podPhase',
        containerStatuses: [
          { name: 'a', ready: true, restartCount: 3, state: running },
          { name: 'b', restartCount: 3 },
        ],
      },
    ),
    cells: ['test1', '1/2', 'podPhase', '6', '10m'],
  },
  {
    name: 'waiting reason wins and the last restart shows',
    pod: pod(
      {},
      {
        phase: 'podPhase',
        containerStatuses: [
          { name: 'a', ready: true, restartCount: 3, state: running },
          {
            name: 'b',
            restartCount: 3,
            state: { waiting: { reason: 'ContainerWaitingReason' } },
            lastState: { terminated: { finishedAt: ago(30), exitCode: 1 } },
          },
        ],
      },
    ),
    cells: ['test1', '1/2', 'ContainerWaitingReason', '6 (30s ago)', '10m'],
  },
  {
    name: 'terminated reason',
    pod: pod(
      {},
      {
        phase: 'podPhase',
        containerStatuses: [
          { name: 'a', ready: true, restartCount: 3, state: running },
          {
            name: 'b',
            restartCount: 3,
            state: { terminated: { reason: 'ContainerTerminatedReason' } },
          },
        ],
      },
    ),
    cells: ['test1', '1/2', 'ContainerTerminatedReason', '6', '10m'],
  },
  {
    name: 'terminated without reason: signal, then exit code',
    pod: pod(
      {},
      {
        phase: 'Running',
        containerStatuses: [
          { name: 'a', state: { terminated: { exitCode: 137, signal: 9 } } },
          { name: 'b', state: { terminated: { exitCode: 2 } } },
        ],
      },
    ),
    // Containers are visited last to first: the first container's state wins.
    cells: ['test1', '0/2', 'Signal:9', '0', '10m'],
  },
  {
    name: 'Completed with a container still running and Ready → Running',
    pod: pod(
      {},
      {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [
          { name: 'a', ready: true, state: running },
          { name: 'b', state: { terminated: { reason: 'Completed', exitCode: 0 } } },
        ],
      },
    ),
    cells: ['test1', '1/2', 'Running', '0', '10m'],
  },
  {
    name: 'Completed with a container still running, not Ready → NotReady',
    pod: pod(
      {},
      {
        phase: 'Running',
        containerStatuses: [
          { name: 'a', ready: true, state: running },
          { name: 'b', state: { terminated: { reason: 'Completed', exitCode: 0 } } },
        ],
      },
    ),
    cells: ['test1', '1/2', 'NotReady', '0', '10m'],
  },
  {
    name: 'CrashLoopBackOff',
    pod: pod(
      { containers: [{ name: 'a' }] },
      {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'a',
            restartCount: 5,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { exitCode: 1, finishedAt: ago(300) } },
          },
        ],
      },
    ),
    cells: ['test1', '0/1', 'CrashLoopBackOff', '5 (5m ago)', '10m'],
  },
  {
    name: 'second init container running: Init:1/3',
    pod: pod(
      { initContainers: [{ name: 'i0' }, { name: 'i1' }, { name: 'i2' }] },
      {
        phase: 'Pending',
        initContainerStatuses: [
          { name: 'i0', state: { terminated: { exitCode: 0, reason: 'Completed' } } },
          { name: 'i1', state: running },
          { name: 'i2', state: { waiting: { reason: 'PodInitializing' } } },
        ],
        containerStatuses: [
          { name: 'a', restartCount: 9, state: { waiting: { reason: 'PodInitializing' } } },
        ],
      },
    ),
    // While initializing, only init restarts count; the app containers are not looked at.
    cells: ['test1', '0/2', 'Init:1/3', '0', '10m'],
  },
  {
    name: 'init container crash-looping',
    pod: pod(
      { initContainers: [{ name: 'i0' }] },
      {
        phase: 'Pending',
        initContainerStatuses: [
          {
            name: 'i0',
            restartCount: 2,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { exitCode: 1, finishedAt: ago(90) } },
          },
        ],
      },
    ),
    cells: ['test1', '0/2', 'Init:CrashLoopBackOff', '2 (90s ago)', '10m'],
  },
  {
    name: 'init container failed without reason',
    pod: pod(
      { initContainers: [{ name: 'i0' }] },
      {
        phase: 'Pending',
        initContainerStatuses: [{ name: 'i0', state: { terminated: { exitCode: 3 } } }],
      },
    ),
    cells: ['test1', '0/2', 'Init:ExitCode:3', '0', '10m'],
  },
  {
    name: 'started sidecar counts as ready and total',
    pod: pod(
      { initContainers: [{ name: 'side', restartPolicy: 'Always' }] },
      {
        phase: 'Running',
        conditions: [{ type: 'Initialized', status: 'True' }],
        initContainerStatuses: [
          { name: 'side', started: true, ready: true, restartCount: 1, state: running },
        ],
        containerStatuses: [
          { name: 'a', ready: true, state: running },
          { name: 'b', ready: true, state: running },
        ],
      },
    ),
    cells: ['test1', '3/3', 'Running', '1', '10m'],
  },
  {
    name: 'completed sidecar is not counted ready',
    pod: pod(
      { containers: [{ name: 'a' }], initContainers: [{ name: 'side', restartPolicy: 'Always' }] },
      {
        phase: 'Running',
        initContainerStatuses: [
          {
            name: 'side',
            started: true,
            ready: true,
            state: { terminated: { exitCode: 0, reason: 'Completed' } },
          },
        ],
        containerStatuses: [{ name: 'a', ready: true, state: running }],
      },
    ),
    cells: ['test1', '1/2', 'Running', '0', '10m'],
  },
  {
    name: 'deleting pod is Terminating',
    pod: pod({}, { phase: 'Running' }, { deletionTimestamp: ago(5) }),
    cells: ['test1', '0/2', 'Terminating', '0', '10m'],
  },
  {
    name: 'deleting pod on a lost node is Unknown',
    pod: pod({}, { phase: 'Running', reason: 'NodeLost' }, { deletionTimestamp: ago(5) }),
    cells: ['test1', '0/2', 'Unknown', '0', '10m'],
  },
  {
    name: 'deleting succeeded pod keeps its status',
    pod: pod({}, { phase: 'Succeeded' }, { deletionTimestamp: ago(5) }),
    cells: ['test1', '0/2', 'Succeeded', '0', '10m'],
    completed: 'Succeeded',
  },
  {
    name: 'failed pod row condition, status reason wins over phase',
    pod: pod({}, { phase: 'Failed', reason: 'Evicted' }),
    cells: ['test1', '0/2', 'Evicted', '0', '10m'],
    completed: 'Failed',
  },
  {
    name: 'scheduling gated',
    pod: pod(
      {},
      {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }],
      },
    ),
    cells: ['test1', '0/2', 'SchedulingGated', '0', '10m'],
  },
  {
    name: 'wide columns: IP, node, nominated node, readiness gates',
    pod: pod(
      {
        nodeName: 'node-1',
        readinessGates: [{ conditionType: 'example.com/ready' }, { conditionType: 'other' }],
      },
      {
        phase: 'Running',
        podIPs: [{ ip: '10.0.0.7' }, { ip: 'fd00::7' }],
        conditions: [{ type: 'example.com/ready', status: 'True' }],
      },
    ),
    cells: ['test1', '0/2', 'Running', '0', '10m'],
    wide: ['10.0.0.7', 'node-1', '<none>', '1/2'],
  },
];

describe('printPod', () => {
  for (const c of cases) {
    it(c.name, () => {
      const row = printPod(c.pod, NOW);
      assert.deepEqual(row.cells.slice(0, 5), c.cells);
      assert.equal(row.cells.length, 9);
      if (c.wide !== undefined) assert.deepEqual(row.cells.slice(5), c.wide);
      if (c.completed === undefined) assert.equal(row.conditions, undefined);
      else {
        assert.deepEqual(row.conditions, [
          {
            type: 'Completed',
            status: 'True',
            reason: c.completed,
            message:
              c.completed === 'Succeeded'
                ? 'The pod has completed successfully.'
                : 'The pod failed.',
          },
        ]);
      }
    });
  }

  it('wide placeholders for an unscheduled pod', () => {
    assert.deepEqual(printPod(pod({}, { phase: 'Pending' }), NOW).cells.slice(5), [
      '<none>',
      '<none>',
      '<none>',
      '<none>',
    ]);
  });

  it('an empty pod still renders', () => {
    assert.deepEqual(printPod({}, NOW).cells, [
      '',
      '0/0',
      '',
      '0',
      '<unknown>',
      '<none>',
      '<none>',
      '<none>',
      '<none>',
    ]);
  });
});
