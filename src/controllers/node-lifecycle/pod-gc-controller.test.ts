/**
 * The pod garbage collector against a real API server, on a fake clock: pods of a deleted node
 * are force-deleted once the 40 s quarantine is over, terminating pods on an out-of-service node
 * are force-deleted, and terminated pods above the threshold go oldest first.
 *
 * @module
 */

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asKind } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { FakeClock } from '../../util/clock.js';
import { podGarbageCollector } from './index.js';
import { TAINT_OUT_OF_SERVICE } from './taints.js';
import { advance, kubeletHeartbeat, runningPod } from './testing/fixtures.js';

describe('pod garbage collector', () => {
  const clock = new FakeClock(Date.now());
  let h: Harness;
  before(async () => {
    h = await startHarness({ clock });
    h.run(podGarbageCollector({ terminatedPodGCThreshold: 2 }));
  });
  after(() => h.close());

  const podRef = (name: string) => ({ ...RESOURCES.pods, namespace: 'default', name });
  const pod = (name: string) => h.get(podRef(name));
  const conditions = (p: KubeObject) => asKind(p, 'Pod').status?.conditions ?? [];

  it('force-deletes the pods of a deleted node after the 40 s quarantine', async () => {
    await kubeletHeartbeat(h.client, 'doomed', clock.now());
    await runningPod(h.client, 'orphan', 'doomed', undefined, clock.now());
    // A finalizer keeps this one visible after the delete, to read what PodGC wrote first.
    const held = await runningPod(h.client, 'held', 'doomed', undefined, clock.now());
    await h.client.patch(
      podRef('held'),
      { metadata: { finalizers: ['example.com/hold'] } },
      'merge',
    );
    await h.client.delete({ ...RESOURCES.nodes, name: 'doomed' });
    // Let a pass see the node missing (passes run every 20 s), then stay inside the quarantine.
    await advance(clock, 21_000);
    await advance(clock, 30_000);
    const waiting = await pod('orphan');
    assert.ok(waiting, 'kept during the quarantine');
    assert.equal(waiting.metadata?.deletionTimestamp, undefined);
    await advance(clock, 30_000);
    await eventually(async () => (await pod('orphan')) === undefined);
    const marked = await eventually(async () => {
      const p = await pod('held');
      return p?.metadata?.deletionTimestamp ? p : undefined;
    });
    assert.equal(marked.metadata?.uid, held.metadata?.uid);
    assert.equal((marked.status as { phase?: string }).phase, 'Failed');
    assert.equal(
      conditions(marked).find((c) => c.type === 'DisruptionTarget')?.reason,
      'DeletionByPodGC',
    );
    await h.client.patch(podRef('held'), { metadata: { finalizers: null } }, 'merge');
    await eventually(async () => (await pod('held')) === undefined);
  });

  it('force-deletes a terminating pod on an out-of-service node', async () => {
    await kubeletHeartbeat(h.client, 'broken', clock.now());
    await runningPod(h.client, 'stuck', 'broken', undefined, clock.now());
    const nodeRef = { ...RESOURCES.nodes, name: 'broken' };
    const node = await h.client.get(nodeRef);
    await h.client.updateStatus(nodeRef, {
      ...node,
      status: { conditions: [{ type: 'Ready', status: 'Unknown' }] },
    });
    await h.client.delete(podRef('stuck'));
    assert.ok((await pod('stuck'))?.metadata?.deletionTimestamp, 'terminating, no kubelet');
    await advance(clock, 21_000);
    assert.ok(await pod('stuck'), 'not without the out-of-service taint');
    await h.client.patch(
      nodeRef,
      {
        spec: {
          taints: [{ key: TAINT_OUT_OF_SERVICE, value: 'nodeshutdown', effect: 'NoExecute' }],
        },
      },
      'merge',
    );
    await advance(clock, 21_000);
    await eventually(async () => (await pod('stuck')) === undefined);
  });

  it('deletes terminated pods above the threshold, oldest first', async () => {
    for (const name of ['done-1', 'done-2', 'done-3']) {
      const created = await h.client.create(
        { ...RESOURCES.pods, namespace: 'default' },
        { metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      );
      await h.client.updateStatus(podRef(name), { ...created, status: { phase: 'Succeeded' } });
    }
    await advance(clock, 21_000);
    await eventually(async () => (await pod('done-1')) === undefined);
    assert.ok(await pod('done-2'));
    assert.ok(await pod('done-3'));
  });
});
