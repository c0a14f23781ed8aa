/**
 * The node lifecycle and taint eviction controllers against a real API server, on a fake clock:
 * a node whose kubelet goes silent turns Ready=Unknown and gets the unreachable taints, its pods
 * turn NotReady, pods that do not tolerate a NoExecute taint go at once, pods with the default
 * 300 s tolerations go 300 s later and then stay Terminating, and a node that comes back loses
 * its taints (and its pods' pending evictions).
 *
 * @module
 */

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asKind, type Pod } from '../../api/model/index.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { FakeClock } from '../../util/clock.js';
import { nodeLifecycleController, taintEvictionController } from './index.js';
import { nodeConditions } from './node-health.js';
import { nodeTaints, TAINT_UNREACHABLE } from './taints.js';
import { advance, kubeletHeartbeat, runningPod } from './testing/fixtures.js';

describe('node lifecycle and taint eviction', () => {
  const clock = new FakeClock(Date.now());
  let h: Harness;
  before(async () => {
    h = await startHarness({ clock });
    h.run(nodeLifecycleController(), taintEvictionController());
  });
  after(() => h.close());

  const node = async (name: string) => {
    const got = await h.get({ ...RESOURCES.nodes, name });
    return got === undefined ? undefined : asKind(got, 'Node');
  };
  const pod = async (name: string) => {
    const got = await h.get({ ...RESOURCES.pods, namespace: 'default', name });
    return got === undefined ? undefined : asKind(got, 'Pod');
  };
  const podCondition = (p: Pod | undefined, type: string) =>
    (p?.status?.conditions ?? []).find((c) => c.type === type);
  const eventsFor = (reason: string) => h.events.events.filter((e) => e.reason === reason);

  it('registers nodes and leaves healthy ones alone', async () => {
    for (const n of ['lost', 'back', 'tainted']) await kubeletHeartbeat(h.client, n, clock.now());
    await eventually(() => eventsFor('RegisteredNode').length === 3);
    assert.ok(
      eventsFor('RegisteredNode').some(
        (e) => e.message === 'Node lost event: Registered Node lost in Controller',
      ),
    );
    await advance(clock, 10_000);
    const n = await node('lost');
    assert.equal(nodeConditions(n!).find((c) => c.type === 'Ready')?.status, 'True');
    assert.deepEqual(nodeTaints(n!), []);
  });

  it('deletes at once a pod that does not tolerate a NoExecute taint', async () => {
    await runningPod(h.client, 'untolerating', 'tainted', undefined, clock.now());
    const spare = { key: 'example.com/maintenance', operator: 'Exists', effect: 'NoExecute' };
    await runningPod(h.client, 'tolerating', 'tainted', [spare], clock.now());
    await h.client.patch(
      { ...RESOURCES.nodes, name: 'tainted' },
      { spec: { taints: [{ key: 'example.com/maintenance', effect: 'NoExecute' }] } },
      'merge',
    );
    const gone = await eventually(async () => {
      const p = await pod('untolerating');
      return p?.metadata?.deletionTimestamp ? p : undefined;
    });
    assert.equal(podCondition(gone, 'DisruptionTarget')?.reason, 'DeletionByTaintManager');
    assert.ok(
      eventsFor('TaintManagerEviction').some(
        (e) => e.message === 'Marking for deletion Pod default/untolerating',
      ),
    );
    assert.equal((await pod('tolerating'))?.metadata?.deletionTimestamp, undefined);
  });

  it('marks a silent node Unknown and taints it after the 50 s grace period', async () => {
    await runningPod(h.client, 'web', 'lost', undefined, clock.now());
    await runningPod(h.client, 'web-back', 'back', undefined, clock.now());
    const forever = { key: TAINT_UNREACHABLE, operator: 'Exists', effect: 'NoExecute' };
    await runningPod(h.client, 'stays', 'lost', [forever], clock.now());
    // The last heartbeats of `lost` and `back`: their kubelets stop renewing now.
    for (const n of ['lost', 'back']) await kubeletHeartbeat(h.client, n, clock.now());
    await advance(clock, 45_000);
    assert.equal(
      nodeConditions((await node('lost'))!).find((c) => c.type === 'Ready')?.status,
      'True',
      'still inside the grace period',
    );
    await advance(clock, 10_000);
    const n = await eventually(async () => {
      const got = await node('lost');
      return nodeTaints(got!).length === 2 ? got : undefined;
    });
    const conditions = nodeConditions(n);
    const ready = conditions.find((c) => c.type === 'Ready');
    assert.equal(ready?.status, 'Unknown');
    assert.equal(ready?.reason, 'NodeStatusUnknown');
    assert.equal(ready?.message, 'Kubelet stopped posting node status.');
    for (const type of ['MemoryPressure', 'DiskPressure', 'PIDPressure']) {
      assert.equal(conditions.find((c) => c.type === type)?.status, 'Unknown', type);
    }
    assert.deepEqual(
      nodeTaints(n)
        .map((t) => `${t.key}:${t.effect}`)
        .sort(),
      [`${TAINT_UNREACHABLE}:NoExecute`, `${TAINT_UNREACHABLE}:NoSchedule`],
    );
    assert.ok(nodeTaints(n).every((t) => typeof t.timeAdded === 'string'));
    assert.ok(
      eventsFor('NodeNotReady').some((e) => e.message === 'Node lost status is now: NodeNotReady'),
    );
  });

  it('marks the pods of the lost node NotReady', async () => {
    for (const name of ['web', 'stays']) {
      const p = await eventually(async () => {
        const got = await pod(name);
        return podCondition(got, 'Ready')?.status === 'False' ? got : undefined;
      });
      assert.ok(p);
    }
    assert.ok(
      eventsFor('NodeNotReady').some(
        (e) =>
          e.type === 'Warning' &&
          e.message === 'Node is not ready' &&
          e.object.metadata?.name === 'web',
      ),
    );
  });

  it('evicts a pod with the default tolerations after 300 s, unless its node came back', async () => {
    await advance(clock, 100_000);
    // `back`'s kubelet returns: Ready again and its taints go.
    await kubeletHeartbeat(h.client, 'back', clock.now());
    await eventually(async () => nodeTaints((await node('back'))!).length === 0);
    await advance(clock, 150_000);
    assert.equal((await pod('web'))?.metadata?.deletionTimestamp, undefined, 'before 300 s');
    await advance(clock, 60_000);
    const web = await eventually(async () => {
      const p = await pod('web');
      return p?.metadata?.deletionTimestamp ? p : undefined;
    });
    assert.equal(podCondition(web, 'DisruptionTarget')?.reason, 'DeletionByTaintManager');
    assert.equal(podCondition(web, 'Ready')?.status, 'False', 'other conditions kept');
    // No kubelet confirms the deletion: the pod stays Terminating.
    await advance(clock, 60_000);
    assert.ok((await pod('web'))?.metadata?.deletionTimestamp);
    assert.equal((await pod('stays'))?.metadata?.deletionTimestamp, undefined, 'tolerates forever');
    assert.equal((await pod('web-back'))?.metadata?.deletionTimestamp, undefined, 'node returned');
    assert.ok(
      eventsFor('TaintManagerEviction').some(
        (e) => e.message === 'Cancelling deletion of Pod default/web-back',
      ),
    );
  });

  it('removes the taints once the kubelet renews its lease and posts Ready', async () => {
    await kubeletHeartbeat(h.client, 'lost', clock.now());
    await eventually(async () => nodeTaints((await node('lost'))!).length === 0);
    await advance(clock, 10_000);
    const n = await node('lost');
    assert.deepEqual(nodeTaints(n!), []);
    assert.equal(nodeConditions(n!).find((c) => c.type === 'Ready')?.status, 'True');
  });
});
