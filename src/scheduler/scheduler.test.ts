/**
 * The default scheduler against a real API server: pods are bound to fitting nodes (node
 * selectors and taints respected), a burst never overcommits a node, unschedulable pods get
 * `PodScheduled=False` and a `FailedScheduling` event and are bound once a node fits, and gated
 * pods wait for their gates to go.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  asKind,
  type Pod,
  type PodCondition,
  type PodSpec,
  type Taint,
} from '../api/model/index.js';
import type { ObjectRef } from '../client/resource-path.js';
import { RESOURCES } from '../controller/context.js';
import { eventually, type Harness, startHarness } from '../controller/testing/harness.js';
import { schedulerController } from './index.js';
import { podSpecOf } from './pod-view.js';
import { podRequests } from './resources.js';

interface NodeOptions {
  readonly cpu?: string;
  readonly labels?: Record<string, string>;
  readonly taints?: Taint[];
}

async function createNode(h: Harness, name: string, o: NodeOptions = {}): Promise<void> {
  const created = await h.client.create(RESOURCES.nodes, {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...o.labels } },
    spec: o.taints ? { taints: o.taints } : {},
  });
  const status = {
    allocatable: { cpu: o.cpu ?? '4', memory: '8Gi', pods: '110' },
    capacity: { cpu: o.cpu ?? '4', memory: '8Gi', pods: '110' },
    conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
  };
  await h.client.updateStatus({ ...RESOURCES.nodes, name }, { ...created, status });
}

async function createNamespace(h: Harness, name: string): Promise<void> {
  await h.client.create(RESOURCES.namespaces, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name },
  });
}

async function createPod(
  h: Harness,
  namespace: string,
  name: string,
  cpu: string,
  spec: Partial<PodSpec> = {},
): Promise<void> {
  await h.client.create(
    { ...RESOURCES.pods, namespace },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace },
      spec: {
        containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu } } }],
        ...spec,
      },
    },
  );
}

const nodeOf = (p: Pod | undefined): string => p?.spec?.nodeName ?? '';

const podScheduled = (p: Pod | undefined): PodCondition | undefined =>
  (p?.status?.conditions ?? []).find((c) => c.type === 'PodScheduled');

async function getPod(h: Harness, ref: ObjectRef): Promise<Pod | undefined> {
  const obj = await h.get(ref);
  return obj === undefined ? undefined : asKind(obj, 'Pod');
}

async function podsIn(h: Harness, namespace: string): Promise<Pod[]> {
  return (await h.list({ ...RESOURCES.pods, namespace })).map((p) => asKind(p, 'Pod'));
}

describe('default scheduler: placement', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    await createNode(h, 'plain-1');
    await createNode(h, 'ssd-1', { labels: { disk: 'ssd' } });
    await createNode(h, 'gpu-1', {
      labels: { disk: 'ssd' },
      taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }],
    });
    h.run(schedulerController);
  });
  after(() => h.close());

  it('binds pods to nodes and records Scheduled events', async () => {
    await createNamespace(h, 'bind');
    for (let i = 0; i < 5; i++) await createPod(h, 'bind', `p${i}`, '100m');
    const pods = await eventually(async () => {
      const list = await podsIn(h, 'bind');
      return list.length === 5 && list.every((p) => nodeOf(p) !== '') ? list : undefined;
    });
    for (const p of pods) {
      assert.notEqual(nodeOf(p), 'gpu-1', 'the tainted node is not used');
      assert.equal(podScheduled(p)?.status, 'True');
      const name = p.metadata?.name ?? '';
      const scheduled = h.events.events.find(
        (e) => e.reason === 'Scheduled' && e.object.metadata?.name === name,
      );
      assert.equal(scheduled?.type, 'Normal');
      assert.equal(scheduled?.message, `Successfully assigned bind/${name} to ${nodeOf(p)}`);
    }
  });

  it('respects nodeSelector and tolerations', async () => {
    await createNamespace(h, 'select');
    await createPod(h, 'select', 'ssd', '100m', { nodeSelector: { disk: 'ssd' } });
    await createPod(h, 'select', 'gpu', '100m', {
      nodeSelector: { disk: 'ssd' },
      tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }],
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  { key: 'kubernetes.io/hostname', operator: 'In', values: ['gpu-1'] },
                ],
              },
            ],
          },
        },
      },
    });
    await createPod(h, 'select', 'nowhere', '100m', { nodeSelector: { disk: 'tape' } });
    const bound = await eventually(async () => {
      const list = await podsIn(h, 'select');
      const byName = new Map(list.map((p) => [p.metadata?.name, p]));
      const ok = nodeOf(byName.get('ssd')) !== '' && nodeOf(byName.get('gpu')) !== '';
      return ok && podScheduled(byName.get('nowhere'))?.status === 'False' ? byName : undefined;
    });
    assert.equal(nodeOf(bound.get('ssd')), 'ssd-1');
    assert.equal(nodeOf(bound.get('gpu')), 'gpu-1');
    assert.equal(nodeOf(bound.get('nowhere')), '');
    assert.equal(
      podScheduled(bound.get('nowhere'))?.message,
      "0/3 nodes are available: 1 node(s) had untolerated taint {gpu: true}, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
  });

  it('does not schedule gated pods until the last gate is removed', async () => {
    await createNamespace(h, 'gates');
    await createPod(h, 'gates', 'gated', '100m', {
      schedulingGates: [{ name: 'example.com/a' }, { name: 'example.com/b' }],
    });
    await createPod(h, 'gates', 'marker', '100m');
    await eventually(
      async () =>
        nodeOf(await getPod(h, { ...RESOURCES.pods, namespace: 'gates', name: 'marker' })) !== '',
    );
    const ref = { ...RESOURCES.pods, namespace: 'gates', name: 'gated' };
    const gateList = (names: string[]) => ({
      spec: { schedulingGates: names.map((name) => ({ name })) },
    });
    await h.client.patch(ref, gateList(['example.com/b']), 'merge');
    await new Promise((r) => setTimeout(r, 200));
    const waiting = await getPod(h, ref);
    assert.equal(nodeOf(waiting), '', 'one gate left: still waiting');
    assert.equal(podScheduled(waiting)?.reason, 'SchedulingGated', 'the scheduler leaves it alone');
    await h.client.patch(ref, gateList([]), 'merge');
    await eventually(async () => nodeOf(await getPod(h, ref)) !== '');
  });
});

describe('default scheduler: capacity', () => {
  let h: Harness;
  /** Scheduling attempts as the controller metrics record them. */
  const attempts: { controller: string; outcome: string }[] = [];
  before(async () => {
    h = await startHarness({
      metrics: {
        controller: { reconciled: (controller, outcome) => attempts.push({ controller, outcome }) },
        queue: {},
      },
    });
    for (const n of ['small-1', 'small-2', 'small-3']) await createNode(h, n, { cpu: '1' });
    await createNamespace(h, 'burst');
    h.run(schedulerController);
  });
  after(() => h.close());

  it('never overcommits a node in a burst; the rest waits as Unschedulable', async () => {
    await Promise.all(Array.from({ length: 50 }, (_, i) => createPod(h, 'burst', `p${i}`, '300m')));
    const message =
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.';
    const pods = await eventually(
      async () => {
        const list = await podsIn(h, 'burst');
        const waiting = list.filter((p) => podScheduled(p)?.status === 'False');
        return list.length === 50 && waiting.length === 41 ? list : undefined;
      },
      { timeoutMs: 15_000 },
    );
    const used = new Map<string, bigint>();
    for (const p of pods) {
      const n = nodeOf(p);
      if (n === '') {
        assert.equal(podScheduled(p)?.reason, 'Unschedulable');
        assert.equal(podScheduled(p)?.message, message);
        continue;
      }
      const cpu = podRequests(podSpecOf(p)).get('cpu') ?? 0n;
      used.set(n, (used.get(n) ?? 0n) + cpu);
    }
    assert.equal(used.size, 3);
    for (const [n, cpu] of used) assert.ok(cpu <= 1000n, `${n} requests ${cpu}m of 1000m`);
    const failed = h.events.events.filter((e) => e.reason === 'FailedScheduling');
    assert.ok(failed.length >= 41);
    const count = (outcome: string) =>
      attempts.filter((a) => a.controller === 'default-scheduler' && a.outcome === outcome).length;
    assert.equal(count('success'), 9, 'one successful attempt per bound pod');
    assert.ok(count('requeue') >= 41, 'every unschedulable attempt is recorded');
    assert.ok(failed.every((e) => e.type === 'Warning' && e.message === message));
  });

  it('binds waiting pods once a node that fits is added', async () => {
    await createNode(h, 'big-1', { cpu: '3' });
    const pods = await eventually(
      async () => {
        const list = await podsIn(h, 'burst');
        return list.filter((p) => nodeOf(p) === 'big-1').length === 10 ? list : undefined;
      },
      { timeoutMs: 15_000 },
    );
    const waiting = pods.filter((p) => nodeOf(p) === '');
    assert.equal(waiting.length, 31);
    const bound = pods.filter((p) => nodeOf(p) !== '');
    assert.ok(bound.every((p) => podScheduled(p)?.status === 'True'));
    await eventually(
      async () => {
        const list = await podsIn(h, 'burst');
        const unsched = list.filter((p) => nodeOf(p) === '');
        return unsched.every((p) =>
          podScheduled(p)?.message?.startsWith('0/4 nodes are available: 4 Insufficient cpu.'),
        );
      },
      { timeoutMs: 15_000 },
    );
  });

  it('frees capacity when a bound pod is deleted', async () => {
    const victim = (await podsIn(h, 'burst')).find((p) => nodeOf(p) === 'small-1');
    assert.ok(victim);
    await h.client.delete(
      { ...RESOURCES.pods, namespace: 'burst', name: victim.metadata?.name ?? '' },
      { gracePeriodSeconds: 0 },
    );
    await eventually(
      async () => {
        const list = await podsIn(h, 'burst');
        return list.filter((p) => nodeOf(p) === 'small-1').length === 3;
      },
      { timeoutMs: 15_000 },
    );
  });
});
