import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asKind } from '../../api/model/index.js';
import { formatIndexSet, parseIndexSet } from './indexes.js';
import { jobPod } from './pod-builder.js';
import { makeJob } from './testing/world.js';

describe('jobPod', () => {
  it('gives a NonIndexed pod the controller ref and the tracking finalizer only', () => {
    const pod = asKind(jobPod(makeJob({ completions: 2 }), {}), 'Pod');
    assert.equal(pod.metadata?.generateName, 'j-');
    assert.deepEqual(pod.metadata?.finalizers, ['batch.kubernetes.io/job-tracking']);
    assert.equal(pod.metadata?.ownerReferences?.[0]?.kind, 'Job');
    assert.equal(pod.metadata?.ownerReferences?.[0]?.apiVersion, 'batch/v1');
    assert.equal(pod.spec?.hostname, undefined);
    assert.equal(pod.spec?.containers[0]?.env, undefined);
  });

  it('gives an Indexed pod its index, hostname, env var and failure count', () => {
    const job = makeJob({ completionMode: 'Indexed', completions: 3, backoffLimitPerIndex: 1 });
    const pod = asKind(jobPod(job, { index: 2, failureCount: 1 }), 'Pod');
    assert.equal(pod.metadata?.generateName, 'j-2-');
    assert.equal(pod.metadata?.annotations?.['batch.kubernetes.io/job-completion-index'], '2');
    assert.equal(pod.metadata?.labels?.['batch.kubernetes.io/job-completion-index'], '2');
    assert.equal(pod.metadata?.annotations?.['batch.kubernetes.io/job-index-failure-count'], '1');
    assert.equal(pod.spec?.hostname, 'j-2');
    assert.deepEqual(pod.spec?.containers[0]?.env, [
      {
        name: 'JOB_COMPLETION_INDEX',
        valueFrom: {
          fieldRef: {
            fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']",
          },
        },
      },
    ]);
  });
});

describe('index sets', () => {
  const cases: [number[], string][] = [
    [[], ''],
    [[3], '3'],
    [[1, 2], '1,2'],
    [[1, 3, 4, 5, 7], '1,3-5,7'],
    [[0, 1, 2, 3, 9, 10], '0-3,9,10'],
  ];
  for (const [set, text] of cases) {
    it(`${JSON.stringify(set)} ⇄ "${text}"`, () => {
      assert.equal(formatIndexSet(set), text);
      assert.deepEqual(
        [...parseIndexSet(text, 20)].sort((a, b) => a - b),
        set,
      );
    });
  }
});
