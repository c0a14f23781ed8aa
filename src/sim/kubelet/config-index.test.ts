import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject } from '../../api/object.js';
import type { Lister } from '../../client/shared-informer.js';
import { Indexer } from '../../client/store.js';
import type { RuntimeState } from './backoff.js';
import {
  type ConfigKind,
  POD_CONFIG_INDEX,
  podConfigIndexFunc,
  podsReadingConfig,
  readsConfig,
} from './config-index.js';
import type { Container, ContainerStatus, KubeletPod as Pod } from './kubelet-pod.js';
import { type PlanContext, plan } from './pod-lifecycle.js';
import { makePod } from './testing/pods.js';
import { baseContext, T0 } from './testing/simulate.js';

const OUR_NODE = 'node-1';

function listerOver(objs: Pod[]): Lister<KubeObject> {
  const store = new Indexer<KubeObject>({ [POD_CONFIG_INDEX]: podConfigIndexFunc });
  for (const o of objs) store.upsert(o);
  return {
    get: (ns, name) => store.getByKey(ns ? `${ns}/${name}` : name),
    list: () => store.list(),
    listInNamespace: () => store.list(),
    byIndex: (index, value) => store.byIndex(index, value),
  };
}

const envFromCm = (name: string): Container => ({
  name: 'app',
  image: 'nginx',
  envFrom: [{ configMapRef: { name } }],
});

const running: ContainerStatus = {
  name: 'app',
  image: 'docker.io/library/nginx:latest',
  imageID: '',
  ready: true,
  started: true,
  restartCount: 0,
  state: { running: { startedAt: '2025-01-01T00:00:00Z' } },
  lastState: {},
};

function pod(
  name: string,
  opts: {
    ns?: string;
    node?: string;
    containers?: Container[];
    initContainers?: Container[];
    volumes?: Pod['spec']['volumes'];
    statuses?: ContainerStatus[];
    initStatuses?: ContainerStatus[];
    deleting?: boolean;
    phase?: string;
  },
): Pod {
  const p = makePod({
    containers: opts.containers ?? [envFromCm('settings')],
    ...(opts.initContainers ? { initContainers: opts.initContainers } : {}),
    ...(opts.volumes ? { volumes: opts.volumes } : {}),
  });
  p.metadata = { ...p.metadata, name, namespace: opts.ns ?? 'default', uid: `uid-${name}` };
  if (opts.deleting) p.metadata.deletionTimestamp = '2025-01-01T00:01:00Z';
  p.spec.nodeName = opts.node ?? OUR_NODE;
  p.status = {
    ...p.status,
    ...(opts.phase ? { phase: opts.phase } : {}),
    ...(opts.statuses ? { containerStatuses: opts.statuses } : {}),
    ...(opts.initStatuses ? { initContainerStatuses: opts.initStatuses } : {}),
  };
  return p;
}

describe('podConfigIndexFunc', () => {
  it('indexes every reference of init and regular containers and volumes, per namespace', () => {
    const p = pod('all', {
      ns: 'team',
      initContainers: [
        {
          name: 'init',
          image: 'busybox',
          env: [{ name: 'T', valueFrom: { secretKeyRef: { name: 'token', key: 't' } } }],
        },
      ],
      containers: [
        {
          name: 'app',
          image: 'nginx',
          envFrom: [{ configMapRef: { name: 'settings' } }, { secretRef: { name: 'creds' } }],
          env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'extra', key: 'a' } } }],
        },
      ],
      volumes: [
        { name: 'v1', configMap: { name: 'files' } },
        { name: 'v2', secret: { secretName: 'certs', optional: true } },
      ],
    });
    assert.deepEqual([...podConfigIndexFunc(p)].sort(), [
      'configmap/team/extra',
      'configmap/team/files',
      'configmap/team/settings',
      'secret/team/certs',
      'secret/team/creds',
      'secret/team/token',
    ]);
  });

  it('indexes a pod without references under nothing', () => {
    const p = pod('plain', { containers: [{ name: 'app', image: 'nginx' }] });
    assert.deepEqual(podConfigIndexFunc(p), []);
  });
});

describe('podsReadingConfig', () => {
  const exited: ContainerStatus = {
    ...running,
    ready: false,
    started: false,
    state: { waiting: { reason: 'CrashLoopBackOff' } },
    lastState: { terminated: { exitCode: 1, reason: 'Error' } },
  };
  const pods = [
    pod('pending', {}),
    pod('config-error', {
      statuses: [
        {
          ...running,
          ready: false,
          started: false,
          state: { waiting: { reason: 'CreateContainerConfigError' } },
        },
      ],
    }),
    pod('other-cm', { containers: [envFromCm('other')] }),
    pod('running', { phase: 'Running', statuses: [running] }),
    pod('crash-looping', { phase: 'Running', statuses: [exited] }),
    pod('foreign-node', { node: 'node-9' }),
    pod('unbound', { node: '' }),
    pod('other-ns', { ns: 'team' }),
    pod('deleting', { deleting: true }),
    pod('failed', { phase: 'Failed' }),
    pod('secret-of-same-name', {
      containers: [{ name: 'app', image: 'nginx', envFrom: [{ secretRef: { name: 'settings' } }] }],
    }),
    pod('volume', {
      containers: [{ name: 'app', image: 'nginx' }],
      volumes: [{ name: 'cfg', configMap: { name: 'settings' } }],
    }),
    pod('init-done-app-waiting', {
      initContainers: [{ name: 'init', image: 'busybox' }],
      initStatuses: [
        {
          ...running,
          name: 'init',
          state: { terminated: { exitCode: 0, reason: 'Completed' } },
        },
      ],
    }),
  ];
  const lister = listerOver(pods);
  const owns = (p: KubeObject): boolean => (p.spec as Pod['spec']).nodeName === OUR_NODE;
  const cases: { kind: ConfigKind; ns: string; name: string; want: string[] }[] = [
    {
      kind: 'configmap',
      ns: 'default',
      name: 'settings',
      want: ['config-error', 'init-done-app-waiting', 'pending', 'volume'],
    },
    { kind: 'configmap', ns: 'default', name: 'other', want: ['other-cm'] },
    { kind: 'configmap', ns: 'team', name: 'settings', want: ['other-ns'] },
    { kind: 'secret', ns: 'default', name: 'settings', want: ['secret-of-same-name'] },
    { kind: 'configmap', ns: 'default', name: 'unused', want: [] },
  ];
  for (const c of cases) {
    it(`${c.kind} ${c.ns}/${c.name} touches only the pods that may still read it`, () => {
      const obj: KubeObject = {
        apiVersion: 'v1',
        kind: c.kind === 'configmap' ? 'ConfigMap' : 'Secret',
        metadata: { namespace: c.ns, name: c.name },
      };
      const got = podsReadingConfig(lister, c.kind, obj, owns).map((p) => p.metadata?.name);
      assert.deepEqual(got.sort(), c.want);
    });
  }
});

/**
 * The handler skips pods for which `readsConfig` is false; that is only sound if their plan
 * cannot depend on the config objects. Played over random pods and histories: whenever
 * `readsConfig` is false, the plan is the same with every referenced object present or absent.
 */
describe('readsConfig: soundness', () => {
  const podArb = fc
    .record({
      exitCode: fc.constantFrom(undefined, '0', '1'),
      restartPolicy: fc.constantFrom('Always', 'OnFailure', 'Never'),
      withInit: fc.boolean(),
      viaVolume: fc.boolean(),
      badImage: fc.boolean(),
    })
    .map((o): Pod => {
      const annotations: Record<string, string> = { 'sim.fleetyard.dev/exit-after': '3s' };
      if (o.exitCode) annotations['sim.fleetyard.dev/exit-code'] = o.exitCode;
      return makePod({
        annotations,
        restartPolicy: o.restartPolicy,
        containers: [
          {
            name: 'app',
            image: o.badImage ? 'nginx:nonexistent' : 'nginx',
            env: [{ name: 'K', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'k' } } }],
          },
        ],
        ...(o.withInit
          ? {
              initContainers: [
                { name: 'init', image: 'busybox', envFrom: [{ secretRef: { name: 'sec' } }] },
              ],
            }
          : {}),
        ...(o.viaVolume ? { volumes: [{ name: 'v', configMap: { name: 'vol' } }] } : {}),
      });
    });
  const worlds: Pick<PlanContext, 'configMaps' | 'secrets'>[] = [
    { configMaps: {}, secrets: {} },
    { configMaps: { cfg: [] }, secrets: {} },
    { configMaps: { cfg: ['k'], vol: [] }, secrets: { sec: [] } },
  ];
  const stepArb = fc.record({
    dt: fc.integer({ min: 0, max: 40_000 }),
    world: fc.integer({ min: 0, max: worlds.length - 1 }),
    del: fc.boolean(),
  });

  type World = Pick<PlanContext, 'configMaps' | 'secrets'>;

  function markDeleted(p: Pod, now: number): void {
    p.metadata.deletionTimestamp ??= new Date(now + 30_000).toISOString();
    p.metadata.deletionGracePeriodSeconds ??= 30;
  }

  const planIn = (p: Pod, now: number, runtime: RuntimeState | undefined, w: World | undefined) =>
    plan(p, { ...baseContext(now), ...w, ...(runtime ? { runtime } : {}) });

  /** Whether `p` reads no config; then asserts that its plan is the same in every world. */
  function checkFrozen(p: Pod, now: number, runtime: RuntimeState | undefined): boolean {
    if (readsConfig(p)) return false;
    const first = planIn(p, now, runtime, worlds[0]);
    for (const w of worlds) assert.deepEqual(planIn(p, now, runtime, w), first);
    return true;
  }

  /** Plays `steps`; returns how many states read no config (each checked in every world). */
  function play(p: Pod, steps: { dt: number; world: number; del: boolean }[]): number {
    let checked = 0;
    let now = T0;
    let runtime: RuntimeState | undefined;
    for (const step of steps) {
      now += step.dt;
      if (step.del && step.dt > 35_000) markDeleted(p, now);
      if (checkFrozen(p, now, runtime)) checked++;
      const next = planIn(p, now, runtime, worlds[step.world]);
      if (next.deletePod) break;
      if (next.runtime) runtime = next.runtime;
      if (next.status) p.status = next.status;
    }
    return checked;
  }

  it('a pod that reads no config plans the same in every world', () => {
    let checked = 0;
    fc.assert(
      fc.property(podArb, fc.array(stepArb, { maxLength: 40 }), (p, steps) => {
        checked += play(p, steps);
      }),
      { numRuns: 200 },
    );
    assert.ok(checked > 0, 'some states read no config');
  });
});
