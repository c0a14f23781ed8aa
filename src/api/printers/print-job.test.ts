import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { JOB_COLUMNS, printJob } from './print-job.js';

const NOW = new Date('2026-01-01T00:10:00Z');

function job(
  spec: Record<string, unknown>,
  status: Record<string, unknown>,
  meta = {},
): KubeObject {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', creationTimestamp: '2026-01-01T00:00:00Z', ...meta },
    spec: {
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u1' } },
      template: { spec: { containers: [{ name: 'pi', image: 'perl' }] } },
      ...spec,
    },
    status,
  };
}

const done = (type: string) => ({ conditions: [{ type, status: 'True' }] });

describe('printJob', () => {
  it('has upstream columns, the last three wide', () => {
    assert.deepEqual(
      JOB_COLUMNS.map((c) => `${c.name}:${c.priority}`),
      [
        'Name:0',
        'Status:0',
        'Completions:0',
        'Duration:0',
        'Age:0',
        'Containers:1',
        'Images:1',
        'Selector:1',
      ],
    );
  });

  const cases: { name: string; o: KubeObject; want: unknown[] }[] = [
    {
      name: 'not started',
      o: job({ completions: 3 }, {}),
      want: ['pi', 'Running', '0/3', '', '10m'],
    },
    {
      name: 'running for 90 s',
      o: job({ completions: 3 }, { succeeded: 1, startTime: '2026-01-01T00:08:30Z' }),
      want: ['pi', 'Running', '1/3', '90s', '10m'],
    },
    {
      name: 'complete',
      o: job(
        { completions: 1 },
        {
          succeeded: 1,
          startTime: '2026-01-01T00:00:01Z',
          completionTime: '2026-01-01T00:00:11Z',
          ...done('Complete'),
        },
      ),
      want: ['pi', 'Complete', '1/1', '10s', '10m'],
    },
    {
      name: 'work queue with parallelism',
      o: job({ parallelism: 4 }, done('Failed')),
      want: ['pi', 'Failed', '0/1 of 4', '', '10m'],
    },
    {
      name: 'terminating outranks suspended but not complete',
      o: job({ completions: 2 }, done('Suspended'), { deletionTimestamp: '2026-01-01T00:09:00Z' }),
      want: ['pi', 'Terminating', '0/2', '', '10m'],
    },
    {
      name: 'suspended',
      o: job({ completions: 2 }, done('Suspended')),
      want: ['pi', 'Suspended', '0/2', '', '10m'],
    },
    {
      name: 'failure target',
      o: job({ completions: 2 }, done('FailureTarget')),
      want: ['pi', 'FailureTarget', '0/2', '', '10m'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { cells } = printJob(c.o, NOW);
      assert.deepEqual(cells.slice(0, 5), c.want);
      assert.deepEqual(cells.slice(5), ['pi', 'perl', 'batch.kubernetes.io/controller-uid=u1']);
    });
  }

  it('does not throw on an empty object', () => {
    assert.deepEqual(printJob({}, NOW).cells.slice(0, 4), ['', 'Running', '0/1', '']);
  });
});
