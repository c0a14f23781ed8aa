import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { RuntimeState } from './backoff.js';
import type { KubeletPod as Pod, PodStatus } from './kubelet-pod.js';
import { type PlanContext, plan } from './pod-lifecycle.js';
import { makePod } from './testing/pods.js';
import { baseContext, T0 } from './testing/simulate.js';

const podArb = fc
  .record({
    restartPolicy: fc.constantFrom('Always', 'OnFailure', 'Never'),
    exitCode: fc.option(fc.constantFrom('0', '1', '2', 'app=1', 'init=1'), { nil: undefined }),
    exitAfter: fc.constantFrom('0s', '3s', '15s'),
    startDelay: fc.constantFrom('0s', '2s'),
    readyDelay: fc.constantFrom('0s', '5s'),
    ready: fc.constantFrom('true', 'false'),
    badImage: fc.boolean(),
    needsConfigMap: fc.boolean(),
    withInit: fc.boolean(),
  })
  .map((o): Pod => {
    const annotations: Record<string, string> = {
      'sim.fleetyard.dev/exit-after': o.exitAfter,
      'sim.fleetyard.dev/start-delay': o.startDelay,
      'sim.fleetyard.dev/ready-delay': o.readyDelay,
      'sim.fleetyard.dev/ready': o.ready,
    };
    if (o.exitCode) annotations['sim.fleetyard.dev/exit-code'] = o.exitCode;
    return makePod({
      restartPolicy: o.restartPolicy,
      annotations,
      containers: [
        {
          name: 'app',
          image: o.badImage ? 'nginx:nonexistent' : 'nginx',
          ...(o.needsConfigMap ? { envFrom: [{ configMapRef: { name: 'cfg' } }] } : {}),
        },
      ],
      ...(o.withInit ? { initContainers: [{ name: 'init', image: 'busybox' }] } : {}),
    });
  });

type Step = {
  dt: number;
  event: 'none' | 'nodeDown' | 'nodeUp' | 'createConfigMap' | 'delete' | 'toggleReady';
};
const stepsArb = fc.array(
  fc.record({
    dt: fc.integer({ min: 0, max: 120_000 }),
    event: fc.constantFrom(
      'none',
      'none',
      'none',
      'nodeDown',
      'nodeUp',
      'createConfigMap',
      'delete',
      'toggleReady',
    ),
  }) as fc.Arbitrary<Step>,
  { maxLength: 60 },
);

/** Applies one random edit to the world. */
function applyEvent(pod: Pod, ctx: PlanContext, event: Step['event']): void {
  if (event === 'nodeDown') ctx.node.up = false;
  if (event === 'nodeUp') ctx.node.up = true;
  if (event === 'createConfigMap') ctx.configMaps = { cfg: [] };
  if (event === 'delete' && !pod.metadata.deletionTimestamp) {
    pod.metadata.deletionTimestamp = new Date(ctx.now + 30_000).toISOString();
    pod.metadata.deletionGracePeriodSeconds = 30;
  }
  if (event === 'toggleReady') {
    const a = pod.metadata.annotations ?? {};
    a['sim.fleetyard.dev/ready'] = a['sim.fleetyard.dev/ready'] === 'false' ? 'true' : 'false';
  }
}

/** Plays random steps; calls `check(before, after)` on every status write. */
function play(
  pod: Pod,
  steps: Step[],
  check: (before: PodStatus, after: PodStatus, nodeUp: boolean) => void,
): void {
  const ctx = baseContext(T0);
  let runtime: RuntimeState | undefined;
  for (const step of steps) {
    ctx.now += step.dt;
    applyEvent(pod, ctx, step.event);
    const p = plan(pod, { ...ctx, runtime });
    if (p.runtime) runtime = p.runtime;
    if (p.deletePod) return;
    if (p.status) {
      check(pod.status ?? {}, p.status, ctx.node.up);
      pod.status = p.status;
    }
  }
}

describe('plan: properties', () => {
  it('a condition lastTransitionTime never moves without a status change', () => {
    fc.assert(
      fc.property(podArb, stepsArb, (pod, steps) => {
        play(pod, steps, (before, after) => {
          for (const c of after.conditions ?? []) {
            const old = before.conditions?.find((o) => o.type === c.type);
            if (old && old.status === c.status)
              assert.equal(c.lastTransitionTime, old.lastTransitionTime, c.type);
          }
        });
      }),
      { numRuns: 150 },
    );
  });

  it('restartCount never decreases', () => {
    fc.assert(
      fc.property(podArb, stepsArb, (pod, steps) => {
        play(pod, steps, (before, after) => {
          const all = (s: PodStatus) => [
            ...(s.initContainerStatuses ?? []),
            ...(s.containerStatuses ?? []),
          ];
          for (const cs of all(after)) {
            const old = all(before).find((o) => o.name === cs.name);
            assert.ok(
              cs.restartCount >= (old?.restartCount ?? 0),
              `${cs.name} restartCount decreased`,
            );
          }
        });
      }),
      { numRuns: 150 },
    );
  });

  it('a frozen node never changes a status', () => {
    fc.assert(
      fc.property(podArb, stepsArb, (pod, steps) => {
        play(pod, steps, (_before, _after, nodeUp) =>
          assert.ok(nodeUp, 'status written while the node is down'),
        );
        // And from whatever state was reached, a down node plans nothing at any later time.
        const ctx = baseContext(T0 + 10 * 3600_000);
        ctx.node.up = false;
        assert.deepEqual(plan(pod, ctx), {});
      }),
      { numRuns: 150 },
    );
  });

  it('a planned status survives the JSON round trip, so a stored copy plans no write', () => {
    // The kubelet compares its next status with the cached (JSON-decoded) one: an `undefined`
    // field would make every look a write of an unchanged status.
    fc.assert(
      fc.property(podArb, stepsArb, (pod, steps) => {
        play(pod, steps, (_before, after) => {
          assert.ok(isDeepStrictEqual(JSON.parse(JSON.stringify(after)), after));
        });
      }),
      { numRuns: 150 },
    );
  });

  it('the phase never leaves a terminal phase', () => {
    fc.assert(
      fc.property(podArb, stepsArb, (pod, steps) => {
        play(pod, steps, (before, after) => {
          if (before.phase === 'Succeeded' || before.phase === 'Failed')
            assert.equal(after.phase, before.phase);
        });
      }),
      { numRuns: 150 },
    );
  });
});
