import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { FakeClock } from '../../util/clock.js';
import { type SimulatedNodesHandle, simulatedNodes } from './index.js';
import type { KubeletPod as Pod } from './kubelet-pod.js';

const NODE = 'fleetyard-node-1';
const pods = { ...RESOURCES.pods, namespace: 'default' };
const leaseRef = { ...RESOURCES.leases, namespace: 'kube-node-lease', name: NODE };
const nodeRef = { ...RESOURCES.nodes, name: NODE };

function ready(p: Pod | undefined): string | undefined {
  return p?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
}

describe('node fault: sim.fleetyard.dev/state', () => {
  let h: Harness;
  // Starts at the wall time: the API server stamps deletionTimestamp with the real clock.
  const clock = new FakeClock(Date.now());
  const handle: SimulatedNodesHandle = { heartbeats: new Map() };
  const renewTime = async () =>
    String(((await h.get(leaseRef))?.spec as { renewTime?: string } | undefined)?.renewTime);
  const getPod = async (name: string) => (await h.get({ ...pods, name })) as Pod | undefined;
  const setState = (state: string | null) =>
    h.client.patch(
      nodeRef,
      { metadata: { annotations: { 'sim.fleetyard.dev/state': state } } },
      'merge',
    );
  const create = (name: string) =>
    h.client.create(pods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: { nodeName: NODE, containers: [{ name: 'app', image: 'nginx:1.27' }] },
    });

  before(async () => {
    h = await startHarness({ clock });
    h.run(simulatedNodes({ count: 1 }, handle));
    await eventually(() => h.get(leaseRef));
  });
  after(() => h.close());

  it('renews the Lease every 10 s of clock time', async () => {
    const first = await renewTime();
    await clock.step(10_000);
    const second = await eventually(async () => {
      const t = await renewTime();
      return t !== first && t;
    });
    assert.equal(Date.parse(second) - Date.parse(first), 10_000);
  });

  it('down: no renewals, pods frozen; up: renewals resume and pods catch up', async () => {
    await create('steady');
    await create('leaving');
    await eventually(async () => ready(await getPod('steady')) === 'True');
    await eventually(async () => ready(await getPod('leaving')) === 'True');

    await setState('down');
    await eventually(() => handle.isDown?.(NODE));
    const frozenAt = await renewTime();
    const nodeVersion = (await h.get(nodeRef))?.metadata?.resourceVersion;
    await h.client.patch(
      { ...pods, name: 'steady' },
      { metadata: { annotations: { 'sim.fleetyard.dev/ready': 'false' } } },
      'merge',
    );
    await h.client.delete({ ...pods, name: 'leaving' }, { gracePeriodSeconds: 30 });
    for (let i = 0; i < 4; i++) await clock.step(10_000);
    await new Promise((r) => setTimeout(r, 300)); // Give a (wrong) write the chance to land.
    assert.equal(await renewTime(), frozenAt, 'lease not renewed while down');
    assert.equal(
      (await h.get(nodeRef))?.metadata?.resourceVersion,
      nodeVersion,
      'node status not posted',
    );
    assert.equal(ready(await getPod('steady')), 'True', 'pod status frozen');
    const leaving = await getPod('leaving');
    assert.ok(leaving?.metadata.deletionTimestamp, 'terminating pod not finished while down');
    assert.equal(leaving?.status?.phase, 'Running');

    await setState('up');
    await eventually(async () => (await renewTime()) !== frozenAt);
    await eventually(async () => ready(await getPod('steady')) === 'False');
    await eventually(async () => (await getPod('leaving')) === undefined);
  });
});
