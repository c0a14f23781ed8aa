/**
 * Properties of a whole rolling update driven by the planners the controller uses (one
 * `rolloutRolling` step per tick: grow the new RS, else shrink old ones), with new pods turning
 * available at random: total pods never pass replicas + maxSurge, availability never drops below
 * replicas − maxUnavailable, and the rollout converges once pods become available. Also the
 * Recreate gate (`oldPodsRunning`).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { asKind, type Deployment, type Pod, type ReplicaSet } from '../../api/model/index.js';
import { oldPodsRunning } from './recreate-plan.js';
import {
  maxSurge,
  maxUnavailable,
  newReplicaSetTarget,
  planOldReplicaSetsScaleDown,
  rsReplicas,
} from './rollout-math.js';

interface Sim {
  old: { spec: number; available: number };
  next: { spec: number; available: number };
}

function asRS(name: string, s: { spec: number; available: number }, created: string): ReplicaSet {
  return asKind(
    {
      metadata: { name, creationTimestamp: created },
      spec: { replicas: s.spec },
      status: { availableReplicas: s.available },
    },
    'ReplicaSet',
  );
}

/** One controller step: exactly upstream's order (new RS first; if unchanged, old RSes). */
function step(d: Deployment, sim: Sim): void {
  const oldRS = asRS('old', sim.old, '2024-01-01T00:00:00Z');
  const newRS = asRS('new', sim.next, '2024-01-02T00:00:00Z');
  const target = newReplicaSetTarget(d, [oldRS, newRS], newRS);
  if (target !== rsReplicas(newRS)) {
    sim.next.spec = target;
    sim.next.available = Math.min(sim.next.available, target);
    return;
  }
  const plan = planOldReplicaSetsScaleDown(d, [oldRS, newRS], [oldRS], newRS);
  for (const s of [...plan.cleanup, ...plan.scaleDown]) {
    sim.old.spec = s.to;
    sim.old.available = Math.min(sim.old.available, s.to);
  }
}

const intOrPercent = fc.oneof(
  fc.integer({ min: 0, max: 5 }),
  fc.integer({ min: 0, max: 100 }).map((p) => `${p}%`),
);

describe('rolling update steps', () => {
  it('keep within surge and unavailability bounds and converge', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        intOrPercent,
        intOrPercent,
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 60 }),
        (replicas, surge, unavailable, readies) => {
          const d = asKind(
            {
              spec: {
                replicas,
                strategy: {
                  type: 'RollingUpdate',
                  rollingUpdate: { maxSurge: surge, maxUnavailable: unavailable },
                },
              },
            },
            'Deployment',
          );
          const max = replicas + maxSurge(d);
          const min = replicas - maxUnavailable(d);
          const sim: Sim = {
            old: { spec: replicas, available: replicas },
            next: { spec: 0, available: 0 },
          };
          // Random readiness, then every pod ready: the rollout must finish in bounded steps.
          const schedule = [...readies, ...Array.from({ length: 4 * replicas + 10 }, () => 99)];
          for (const ready of schedule) {
            step(d, sim);
            assert.ok(
              sim.old.spec + sim.next.spec <= max,
              `pods ${sim.old.spec + sim.next.spec} > ${max}`,
            );
            sim.next.available = Math.min(sim.next.spec, sim.next.available + ready);
            assert.ok(sim.old.available + sim.next.available >= min, 'availability below minimum');
          }
          assert.deepEqual(sim, {
            old: { spec: 0, available: 0 },
            next: { spec: replicas, available: replicas },
          });
        },
      ),
    );
  });

  it('follows the worked example of docs/design/replicaset-deployment.md §7.3 (10 replicas, 25%/25%, pods never ready)', () => {
    const d = asKind(
      {
        spec: {
          replicas: 10,
          strategy: {
            type: 'RollingUpdate',
            rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
          },
        },
      },
      'Deployment',
    );
    const sim: Sim = { old: { spec: 10, available: 10 }, next: { spec: 0, available: 0 } };
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      step(d, sim);
      seen.push(`${sim.old.spec}/${sim.next.spec}`);
    }
    assert.deepEqual(seen, ['10/3', '8/3', '8/5', '8/5', '8/5']);
  });
});

describe('oldPodsRunning', () => {
  const rs = (uid: string, statusReplicas: number): ReplicaSet => ({
    metadata: { uid },
    status: { replicas: statusReplicas },
  });
  const pod = (phase: string): Pod => ({ status: { phase } });
  const cases: [string, ReplicaSet | undefined, ReplicaSet[], [string, Pod[]][], boolean][] = [
    ['old RS still reports replicas', undefined, [rs('o', 1)], [], true],
    ['old pod running', undefined, [rs('o', 0)], [['o', [pod('Running')]]], true],
    ['old pod pending', undefined, [rs('o', 0)], [['o', [pod('Pending')]]], true],
    [
      'old pods finished',
      undefined,
      [rs('o', 0)],
      [['o', [pod('Succeeded'), pod('Failed')]]],
      false,
    ],
    ['new RS pods do not count', rs('n', 2), [rs('o', 0)], [['n', [pod('Running')]]], false],
    ['nothing left', undefined, [rs('o', 0)], [['o', []]], false],
  ];
  for (const [name, newRS, olds, pods, want] of cases) {
    it(name, () => assert.equal(oldPodsRunning(newRS, olds, new Map(pods)), want));
  }
});
