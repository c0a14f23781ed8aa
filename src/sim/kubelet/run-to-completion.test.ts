import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readSimSettings } from './annotations.js';
import type { KubeletPod } from './kubelet-pod.js';
import { plannedExitCode } from './stages.js';

function pod(restartPolicy: string | undefined, annotations: Record<string, string> = {}) {
  const p: KubeletPod = {
    metadata: { name: 'p', namespace: 'default', annotations },
    spec: { containers: [{ name: 'c', image: 'i' }], ...(restartPolicy ? { restartPolicy } : {}) },
  };
  return p;
}

describe('plannedExitCode: a run-to-completion pod completes', () => {
  const cases: { name: string; pod: KubeletPod; want: number | undefined }[] = [
    { name: 'Always runs until stopped', pod: pod(undefined), want: undefined },
    { name: 'Never exits 0', pod: pod('Never'), want: 0 },
    { name: 'OnFailure exits 0', pod: pod('OnFailure'), want: 0 },
    {
      name: 'the annotation wins',
      pod: pod('Never', { 'sim.fleetyard.dev/exit-code': '3' }),
      want: 3,
    },
    {
      name: 'Always with an annotation exits',
      pod: pod('Always', { 'sim.fleetyard.dev/exit-code': '0' }),
      want: 0,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const spec = c.pod.spec.containers[0];
      assert.ok(spec);
      const got = plannedExitCode({
        kind: 'regular',
        spec,
        settings: readSimSettings(c.pod),
        pod: c.pod,
      });
      assert.equal(got, c.want);
    });
  }
});
