/**
 * Tests for the workload default accessors: a set field is read as it is (0 included), an
 * unset one is upstream's default.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { minReadySecondsOf, replicasOf } from './workload-defaults.js';

describe('workload defaults', () => {
  const cases: Array<{
    name: string;
    spec?: { replicas?: number; minReadySeconds?: number };
    replicas: number;
    minReady: number;
  }> = [
    { name: 'no spec', replicas: 1, minReady: 0 },
    { name: 'empty spec', spec: {}, replicas: 1, minReady: 0 },
    { name: 'zero is kept', spec: { replicas: 0, minReadySeconds: 0 }, replicas: 0, minReady: 0 },
    { name: 'set values', spec: { replicas: 5, minReadySeconds: 30 }, replicas: 5, minReady: 30 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const workload = c.spec === undefined ? {} : { spec: c.spec };
      assert.equal(replicasOf(workload), c.replicas);
      assert.equal(minReadySecondsOf(workload), c.minReady);
    });
  }
});
