import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Job } from '../../api/model/batch.generated.js';
import { type TtlVerdict, ttlVerdict } from './ttl.js';

const FINISHED = '2026-01-01T00:00:00Z';
const T = Date.parse(FINISHED);

function job(
  ttl: number | undefined,
  condition?: string,
  extra: Partial<Job['metadata']> = {},
): Job {
  return {
    metadata: { name: 'j', namespace: 'ns', ...extra },
    spec: {
      template: {},
      ...(ttl === undefined ? {} : { ttlSecondsAfterFinished: ttl }),
    },
    status:
      condition === undefined
        ? {}
        : { conditions: [{ type: condition, status: 'True', lastTransitionTime: FINISHED }] },
  };
}

describe('ttlVerdict', () => {
  const cases: { name: string; job: Job; now: number; want: TtlVerdict }[] = [
    { name: 'no TTL', job: job(undefined, 'Complete'), now: T, want: { kind: 'skip' } },
    { name: 'not finished', job: job(60), now: T, want: { kind: 'skip' } },
    {
      name: 'complete, 40 s left',
      job: job(60, 'Complete'),
      now: T + 20_000,
      want: { kind: 'wait', ms: 40_000 },
    },
    { name: 'failed, expired', job: job(60, 'Failed'), now: T + 60_000, want: { kind: 'expired' } },
    { name: 'TTL 0: at once', job: job(0, 'Complete'), now: T, want: { kind: 'expired' } },
    {
      name: 'already being deleted',
      job: job(0, 'Complete', { deletionTimestamp: FINISHED }),
      now: T,
      want: { kind: 'skip' },
    },
    {
      name: 'finished without a transition time',
      job: { ...job(5), status: { conditions: [{ type: 'Complete', status: 'True' }] } },
      now: T,
      want: { kind: 'error', message: 'unable to find the time when the Job finished' },
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(ttlVerdict(c.job, c.now), c.want));
});
