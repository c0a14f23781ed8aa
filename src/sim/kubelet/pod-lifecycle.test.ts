import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeletPod as Pod } from './kubelet-pod.js';
import { plan } from './pod-lifecycle.js';
import { assertGolden } from './testing/golden.js';
import { makePod } from './testing/pods.js';
import { baseContext, type SimEvent, simulate, T0 } from './testing/simulate.js';

const S = 1000;

/** Runs a pod until `untilS` seconds and returns the final pod and history. */
function run(pod: Pod, untilS: number, events: SimEvent[] = [], ctx = baseContext()) {
  return simulate(pod, ctx, untilS * S, events);
}

function waitingReason(pod: Pod, name = 'app'): string | undefined {
  return pod.status?.containerStatuses?.find((c) => c.name === name)?.state?.waiting?.reason;
}

function cond(pod: Pod, type: string): string | undefined {
  return pod.status?.conditions?.find((c) => c.type === type)?.status;
}

describe('plan: stages', () => {
  it('first plan: Pending, PodScheduled kept, ContainerCreating, startTime, hostIP, podIP', () => {
    const pod = makePod();
    const p = plan(pod, baseContext());
    assert.equal(p.status?.phase, 'Pending');
    assert.equal(p.status?.startTime, '2025-01-01T00:00:00Z');
    assert.equal(p.status?.hostIP, '10.0.0.1');
    assert.equal(p.status?.podIP, '10.244.0.10');
    assert.deepEqual(p.status?.podIPs, [{ ip: '10.244.0.10' }]);
    assert.equal(p.status?.containerStatuses?.[0]?.state?.waiting?.reason, 'ContainerCreating');
    assert.equal(p.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status, 'True');
    assert.equal(
      p.status?.conditions?.find((c) => c.type === 'Ready')?.message,
      'containers with unready status: [app]',
    );
    assert.equal(p.requeueAfterMs, 0);
  });

  const cases: { name: string; pod: Pod; untilS: number; check(pod: Pod): void }[] = [
    {
      name: 'running and ready with no delays',
      pod: makePod(),
      untilS: 60,
      check: (pod) => {
        assert.equal(pod.status?.phase, 'Running');
        assert.equal(cond(pod, 'Ready'), 'True');
        assert.equal(
          pod.status?.containerStatuses?.[0]?.state?.running?.startedAt,
          '2025-01-01T00:00:00Z',
        );
      },
    },
    {
      name: 'start delay 2s then ready delay 5s',
      pod: makePod({
        annotations: {
          'sim.fleetyard.dev/start-delay': '2s',
          'sim.fleetyard.dev/ready-delay': '5s',
        },
      }),
      untilS: 60,
      check: (pod) => {
        assert.equal(
          pod.status?.containerStatuses?.[0]?.state?.running?.startedAt,
          '2025-01-01T00:00:02Z',
        );
        const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
        assert.equal(ready?.lastTransitionTime, '2025-01-01T00:00:07Z');
      },
    },
    ...(
      [
        // [readinessProbe, startupProbe, annotations, Ready at second]
        [undefined, undefined, {}, 0],
        [{ initialDelaySeconds: 0 }, undefined, {}, 0],
        [{ initialDelaySeconds: 5 }, undefined, {}, 10],
        [{ initialDelaySeconds: 5, periodSeconds: 2 }, undefined, {}, 6],
        [{ initialDelaySeconds: 5, periodSeconds: 5 }, undefined, {}, 5],
        [{ periodSeconds: 3 }, { initialDelaySeconds: 4, periodSeconds: 3 }, {}, 6],
        [{ initialDelaySeconds: 5 }, undefined, { 'sim.fleetyard.dev/ready-delay': '20s' }, 20],
      ] as const
    ).map(([readinessProbe, startupProbe, annotations, readyS]) => ({
      name: `readiness probe ${JSON.stringify(readinessProbe ?? null)}, startup probe ${JSON.stringify(startupProbe ?? null)}, ${JSON.stringify(annotations)} → Ready at ${readyS}s`,
      pod: makePod({
        annotations: { ...annotations },
        containers: [
          {
            name: 'app',
            image: 'nginx:1.27',
            ...(readinessProbe ? { readinessProbe: { ...readinessProbe } } : {}),
            ...(startupProbe ? { startupProbe: { ...startupProbe } } : {}),
          },
        ],
      }),
      untilS: 60,
      check: (pod: Pod) => {
        const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
        assert.equal(ready?.status, 'True');
        const at = new Date(Date.parse('2025-01-01T00:00:00Z') + readyS * S).toISOString();
        assert.equal(ready?.lastTransitionTime, at.replace('.000Z', 'Z'));
      },
    })),
    {
      name: 'ready "false" keeps Ready False',
      pod: makePod({ annotations: { 'sim.fleetyard.dev/ready': 'false' } }),
      untilS: 60,
      check: (pod) => {
        assert.equal(pod.status?.phase, 'Running');
        assert.equal(cond(pod, 'ContainersReady'), 'False');
        assert.equal(cond(pod, 'Ready'), 'False');
      },
    },
    {
      name: 'image pull failure: ImagePullBackOff',
      pod: makePod({ containers: [{ name: 'app', image: 'nginx:nonexistent' }] }),
      untilS: 5,
      check: (pod) => {
        assert.equal(waitingReason(pod), 'ImagePullBackOff');
        assert.equal(
          pod.status?.containerStatuses?.[0]?.state?.waiting?.message,
          'Back-off pulling image "nginx:nonexistent"',
        );
        assert.equal(pod.status?.phase, 'Pending');
      },
    },
    {
      name: 'missing ConfigMap in env → CreateContainerConfigError',
      pod: makePod({
        containers: [{ name: 'app', image: 'nginx', envFrom: [{ configMapRef: { name: 'cfg' } }] }],
      }),
      untilS: 30,
      check: (pod) => {
        assert.equal(waitingReason(pod), 'CreateContainerConfigError');
        assert.equal(
          pod.status?.containerStatuses?.[0]?.state?.waiting?.message,
          'configmap "cfg" not found',
        );
      },
    },
    {
      name: 'missing Secret key → CreateContainerConfigError',
      pod: makePod({
        containers: [
          {
            name: 'app',
            image: 'nginx',
            env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }],
          },
        ],
      }),
      untilS: 30,
      check: (pod) =>
        assert.equal(
          pod.status?.containerStatuses?.[0]?.state?.waiting?.message,
          'secret "s" not found',
        ),
    },
    {
      name: 'optional missing ConfigMap does not block',
      pod: makePod({
        containers: [
          {
            name: 'app',
            image: 'nginx',
            envFrom: [{ configMapRef: { name: 'cfg', optional: true } }],
          },
        ],
      }),
      untilS: 30,
      check: (pod) => assert.equal(pod.status?.phase, 'Running'),
    },
    {
      name: 'missing ConfigMap volume → stays ContainerCreating (upstream FailedMount)',
      pod: makePod({ volumes: [{ name: 'v', configMap: { name: 'cfg' } }] }),
      untilS: 30,
      check: (pod) => assert.equal(waitingReason(pod), 'ContainerCreating'),
    },
    {
      name: 'exit 1 with Never → Failed, Error',
      pod: makePod({ restartPolicy: 'Never', annotations: { 'sim.fleetyard.dev/exit-code': '1' } }),
      untilS: 60,
      check: (pod) => {
        assert.equal(pod.status?.phase, 'Failed');
        assert.equal(pod.status?.containerStatuses?.[0]?.state?.terminated?.reason, 'Error');
        assert.equal(cond(pod, 'PodReadyToStartContainers'), 'False');
      },
    },
    {
      name: 'exit 0 with OnFailure → Succeeded, Completed, Ready reason PodCompleted',
      pod: makePod({
        restartPolicy: 'OnFailure',
        annotations: { 'sim.fleetyard.dev/exit-code': '0', 'sim.fleetyard.dev/exit-after': '3s' },
      }),
      untilS: 60,
      check: (pod) => {
        assert.equal(pod.status?.phase, 'Succeeded');
        assert.equal(
          pod.status?.containerStatuses?.[0]?.state?.terminated?.finishedAt,
          '2025-01-01T00:00:03Z',
        );
        assert.equal(
          pod.status?.conditions?.find((c) => c.type === 'Ready')?.reason,
          'PodCompleted',
        );
      },
    },
    {
      name: 'exit 1 with OnFailure → restarts, Running',
      pod: makePod({
        restartPolicy: 'OnFailure',
        annotations: { 'sim.fleetyard.dev/exit-code': '1' },
      }),
      untilS: 5,
      check: (pod) => {
        assert.equal(pod.status?.phase, 'Running');
        assert.equal(waitingReason(pod), 'CrashLoopBackOff');
      },
    },
    {
      name: 'init containers run in order, then sidecar, then app',
      pod: makePod({
        initContainers: [
          { name: 'init-a', image: 'busybox' },
          { name: 'side', image: 'envoy', restartPolicy: 'Always' },
          { name: 'init-b', image: 'busybox' },
        ],
      }),
      untilS: 60,
      check: (pod) => {
        const inits = pod.status?.initContainerStatuses ?? [];
        assert.deepEqual(
          inits.map((c) => Object.keys(c.state ?? {})[0]),
          ['terminated', 'running', 'terminated'],
        );
        assert.equal(cond(pod, 'Initialized'), 'True');
        assert.equal(pod.status?.phase, 'Running');
        assert.equal(cond(pod, 'Ready'), 'True');
      },
    },
    {
      name: 'failing init container with Never → Failed',
      pod: makePod({
        restartPolicy: 'Never',
        initContainers: [{ name: 'init', image: 'busybox' }],
        annotations: { 'sim.fleetyard.dev/exit-code': 'init=2' },
      }),
      untilS: 60,
      check: (pod) => {
        assert.equal(pod.status?.phase, 'Failed');
        assert.equal(waitingReason(pod), 'PodInitializing');
        assert.equal(
          pod.status?.conditions?.find((c) => c.type === 'Initialized')?.message,
          'containers with incomplete status: [init]',
        );
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => c.check(run(c.pod, c.untilS).pod));
  }

  it('a pod on another node is ignored', () => {
    const pod = makePod();
    pod.spec.nodeName = 'node-2';
    assert.deepEqual(plan(pod, baseContext()), {});
  });

  it('a down node changes nothing', () => {
    const ctx = baseContext();
    ctx.node.up = false;
    assert.deepEqual(plan(makePod(), ctx), {});
  });

  it('readiness gate not satisfied → Ready False ReadinessGatesNotReady', () => {
    const pod = makePod();
    pod.spec.readinessGates = [{ conditionType: 'example.com/gate' }];
    const { pod: out } = run(pod, 10);
    const ready = out.status?.conditions?.find((c) => c.type === 'Ready');
    assert.equal(ready?.reason, 'ReadinessGatesNotReady');
    assert.equal(
      ready?.message,
      'corresponding condition of pod readiness gate "example.com/gate" does not exist.',
    );
    assert.equal(cond(out, 'ContainersReady'), 'True');
  });

  it('a stable running pod plans no write and no requeue', () => {
    const { pod } = run(makePod(), 30);
    const p = plan(pod, { ...baseContext(T0 + 3600 * S) });
    assert.deepEqual(p, {});
  });
});

describe('plan: golden histories', () => {
  it('normal start', () => {
    const { history, pod } = run(
      makePod({
        annotations: {
          'sim.fleetyard.dev/start-delay': '2s',
          'sim.fleetyard.dev/ready-delay': '3s',
        },
      }),
      60,
    );
    assertGolden('normal-start', { history, status: pod.status });
  });

  it('image pull failure', () => {
    const { history } = run(
      makePod({ containers: [{ name: 'app', image: 'registry.example.com/app:404' }] }),
      700,
    );
    assertGolden('image-pull-failure', { history });
  });

  it('crash loop with backoff times', () => {
    const { history, pod } = run(
      makePod({ annotations: { 'sim.fleetyard.dev/exit-code': '1' } }),
      1300,
    );
    assertGolden('crash-loop', {
      history,
      lastContainerStatus: pod.status?.containerStatuses?.[0],
    });
  });

  it('missing ConfigMap, then created', () => {
    const createCfg: SimEvent = {
      atMs: 25 * S,
      apply: (_pod, ctx) => {
        ctx.configMaps = { cfg: ['key'] };
      },
    };
    const pod = makePod({
      containers: [
        {
          name: 'app',
          image: 'nginx',
          env: [{ name: 'K', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'key' } } }],
        },
      ],
    });
    const { history } = run(pod, 60, [createCfg]);
    assertGolden('missing-configmap', { history });
  });

  it('graceful deletion', () => {
    const del: SimEvent = {
      atMs: 20 * S,
      apply: (pod) => {
        pod.metadata.deletionTimestamp = '2025-01-01T00:00:50Z';
        pod.metadata.deletionGracePeriodSeconds = 30;
      },
    };
    const { history, pod } = run(makePod(), 120, [del]);
    assertGolden('graceful-deletion', { history, status: pod.status });
  });
});
