/**
 * Preemption end to end against a real API server (Priority admission included): a
 * high-priority pod that fits nowhere evicts the least important pods it needs gone, with
 * `DisruptionTarget` set first and a `Preempted` event, is nominated to the node, and is bound
 * there once the victims are gone; a `preemptionPolicy: Never` pod only waits.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asKind, type Pod, type PodSpec } from '../../api/model/index.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { schedulerController } from '../index.js';

const PRIORITY_CLASSES = { group: 'scheduling.k8s.io', version: 'v1', plural: 'priorityclasses' };
const NS = 'default';

async function createClass(h: Harness, name: string, value: number, never = false) {
  await h.client.create(PRIORITY_CLASSES, {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name },
    value,
    ...(never ? { preemptionPolicy: 'Never' } : {}),
  });
}

async function createNode(h: Harness, name: string, cpu: string) {
  const created = await h.client.create(RESOURCES.nodes, {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  });
  const status = {
    allocatable: { cpu, memory: '8Gi', pods: '110' },
    capacity: { cpu, memory: '8Gi', pods: '110' },
    conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
  };
  await h.client.updateStatus({ ...RESOURCES.nodes, name }, { ...created, status });
}

async function createPod(
  h: Harness,
  name: string,
  cpu: string,
  spec: Partial<PodSpec>,
  labels: Record<string, string> = {},
) {
  await h.client.create(
    { ...RESOURCES.pods, namespace: NS },
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: NS, labels },
      spec: {
        containers: [{ name: 'c', image: 'busybox', resources: { requests: { cpu } } }],
        // No kubelet here: a grace period of 0 removes a deleted bound pod at once.
        terminationGracePeriodSeconds: 0,
        ...spec,
      },
    },
  );
}

async function getPod(h: Harness, name: string): Promise<Pod | undefined> {
  const obj = await h.get({ ...RESOURCES.pods, namespace: NS, name });
  return obj === undefined ? undefined : asKind(obj, 'Pod');
}

describe('default scheduler: preemption', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    await createNode(h, 'n1', '2');
    await createClass(h, 'low', 10);
    await createClass(h, 'mid', 20);
    await createClass(h, 'high', 1000);
    await createClass(h, 'high-never', 1000, true);
    h.run(schedulerController);
  });
  after(() => h.close());

  it('evicts the least important pods and binds the preemptor', async () => {
    await createPod(h, 'low-a', '1', { priorityClassName: 'low' });
    await createPod(h, 'mid-b', '1', { priorityClassName: 'mid' });
    await eventually(async () => (await getPod(h, 'mid-b'))?.spec?.nodeName === 'n1');
    await eventually(async () => (await getPod(h, 'low-a'))?.spec?.nodeName === 'n1');

    await createPod(h, 'never', '1', { priorityClassName: 'high-never' });
    const waiting = await eventually(async () => {
      const p = await getPod(h, 'never');
      const c = p?.status?.conditions?.find((x) => x.type === 'PodScheduled');
      return c?.status === 'False' ? c : undefined;
    });
    assert.equal(
      waiting.message,
      '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.',
    );
    await h.client.delete({ ...RESOURCES.pods, namespace: NS, name: 'never' });

    await createPod(h, 'boss', '1', { priorityClassName: 'high' });
    const boss = await eventually(async () => {
      const p = await getPod(h, 'boss');
      return p?.spec?.nodeName === 'n1' ? p : undefined;
    });
    assert.equal(boss.spec?.priority, 1000);
    assert.equal(boss.status?.nominatedNodeName, 'n1');
    assert.equal(await getPod(h, 'low-a'), undefined, 'the lowest-priority pod was preempted');
    assert.equal((await getPod(h, 'mid-b'))?.spec?.nodeName, 'n1', 'the other pod stays');
    const preempted = h.events.events.find((e) => e.reason === 'Preempted');
    assert.equal(preempted?.object.metadata?.name, 'low-a');
    assert.equal(preempted?.type, 'Normal');
    assert.equal(preempted?.message, `Preempted by pod ${boss.metadata?.uid} on node n1`);
    const failed = h.events.events.find(
      (e) => e.reason === 'FailedScheduling' && e.object.metadata?.name === 'boss',
    );
    assert.equal(failed?.message, '0/1 nodes are available: 1 Insufficient cpu.');
  });
});

describe('default scheduler: preemption respects PodDisruptionBudgets', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    for (const name of ['node-a', 'node-b']) await createNode(h, name, '1');
    await createClass(h, 'low', 10);
    await createClass(h, 'high', 1000);
    // Placed by hand: node-a's pod is guarded by a budget that allows no disruption.
    await createPod(
      h,
      'db-0',
      '1',
      { priorityClassName: 'low', nodeName: 'node-a' },
      { app: 'db' },
    );
    await createPod(
      h,
      'web-0',
      '1',
      { priorityClassName: 'low', nodeName: 'node-b' },
      { app: 'web' },
    );
    await h.client.create(
      { group: 'policy', version: 'v1', plural: 'poddisruptionbudgets', namespace: NS },
      {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'db', namespace: NS },
        spec: { minAvailable: 1, selector: { matchLabels: { app: 'db' } } },
      },
    );
    h.run(schedulerController);
  });
  after(() => h.close());

  it('preempts on the node where no budget is violated', async () => {
    await createPod(h, 'boss', '1', { priorityClassName: 'high' });
    const boss = await eventually(async () => {
      const p = await getPod(h, 'boss');
      return p?.spec?.nodeName ? p : undefined;
    });
    assert.equal(boss.spec?.nodeName, 'node-b');
    assert.equal(await getPod(h, 'web-0'), undefined);
    assert.equal((await getPod(h, 'db-0'))?.spec?.nodeName, 'node-a');
  });
});
