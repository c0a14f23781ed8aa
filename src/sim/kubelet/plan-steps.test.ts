import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planSteps } from './plan-steps.js';
import { makePod } from './testing/pods.js';
import { baseContext, T0 } from './testing/simulate.js';

const state = (p: ReturnType<typeof planSteps>) => {
  const cs = p.status?.containerStatuses?.[0]?.state;
  return cs?.running ? 'running' : (cs?.waiting?.reason ?? cs?.terminated?.reason);
};

describe('planSteps', () => {
  const cases: {
    name: string;
    pod: ReturnType<typeof makePod>;
    phase: string;
    container: string | undefined;
    ready: string;
  }[] = [
    {
      name: 'no delays: one write to Running+Ready',
      pod: makePod(),
      phase: 'Running',
      container: 'running',
      ready: 'True',
    },
    {
      name: 'start delay: stops waiting in ContainerCreating',
      pod: makePod({ annotations: { 'sim.fleetyard.dev/start-delay': '2s' } }),
      phase: 'Pending',
      container: 'ContainerCreating',
      ready: 'False',
    },
    {
      name: 'unpullable image: stops at ErrImagePull',
      pod: makePod({ containers: [{ name: 'app', image: 'foo:nonexistent' }] }),
      phase: 'Pending',
      container: 'ErrImagePull',
      ready: 'False',
    },
    {
      name: 'exit code 1: stops at the first Error',
      pod: makePod({ annotations: { 'sim.fleetyard.dev/exit-code': '1' } }),
      phase: 'Running',
      container: 'Error',
      ready: 'False',
    },
    {
      name: 'init container: coalesced through its completion',
      pod: makePod({ initContainers: [{ name: 'init', image: 'busybox:1' }] }),
      phase: 'Running',
      container: 'running',
      ready: 'True',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const p = planSteps(c.pod, baseContext());
      assert.equal(p.status?.phase, c.phase);
      assert.equal(state(p), c.container);
      assert.equal(p.status?.conditions?.find((x) => x.type === 'Ready')?.status, c.ready);
    });
  }

  it('wakes at the start delay and writes nothing more meanwhile', () => {
    const pod = makePod({ annotations: { 'sim.fleetyard.dev/start-delay': '2s' } });
    const first = planSteps(pod, baseContext());
    assert.equal(first.requeueAfterMs, 2000);
    pod.status = first.status;
    const again = planSteps(pod, baseContext(T0 + 500));
    assert.equal(again.status, undefined);
    assert.equal(again.requeueAfterMs, 1500);
    const due = planSteps(pod, baseContext(T0 + 2000));
    assert.equal(state(due), 'running');
  });

  it('a terminal, deleted pod is deleted', () => {
    const pod = makePod();
    pod.status = { ...pod.status, phase: 'Succeeded' };
    pod.metadata.deletionTimestamp = '2025-01-01T00:00:00Z';
    assert.equal(planSteps(pod, baseContext()).deletePod, true);
  });

  it('a deleted running pod exits on SIGTERM with a shutdown delay of 0', () => {
    const pod = makePod();
    pod.status = planSteps(pod, baseContext()).status;
    pod.metadata.deletionTimestamp = new Date(T0 + 30_000).toISOString();
    pod.metadata.deletionGracePeriodSeconds = 30;
    const p = planSteps(pod, { ...baseContext(), shutdownDelayMs: 0 });
    assert.equal(p.status?.phase, 'Succeeded');
    assert.equal(p.status?.containerStatuses?.[0]?.state?.terminated?.exitCode, 0);
    const killed = planSteps(pod, { ...baseContext(T0 + 30_000) });
    assert.equal(killed.status?.containerStatuses?.[0]?.state?.terminated?.exitCode, 137);
  });
});
