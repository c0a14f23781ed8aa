/**
 * The disruption controller against a real API server: PDB status and condition from a
 * ReplicaSet's Ready pods (minAvailable, maxUnavailable %), a pod going unready, the events.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asKind, type PodDisruptionBudgetStatus } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { disruptionController } from './index.js';

const NS = 'default';

describe('disruption controller', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    h.run(disruptionController);
  });
  after(async () => {
    await h.close();
  });

  async function replicaSet(name: string, replicas: number): Promise<KubeObject> {
    return h.client.create(
      { ...RESOURCES.replicasets, namespace: NS },
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name },
        spec: {
          replicas,
          selector: { matchLabels: { app: name } },
          template: {
            metadata: { labels: { app: name } },
            spec: { containers: [{ name: 'c', image: 'nginx' }] },
          },
        },
      },
    );
  }

  async function setReady(pod: KubeObject, ready: boolean): Promise<KubeObject> {
    const ref = { ...RESOURCES.pods, namespace: NS, name: pod.metadata?.name ?? '' };
    const current = await h.client.get(ref);
    const status = {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
    };
    return h.client.updateStatus(ref, { ...current, status });
  }

  /** `count` Running, Ready pods controlled by `rs`. */
  async function podsOf(rs: KubeObject, count: number): Promise<KubeObject[]> {
    const app = rs.metadata?.name ?? '';
    const out: KubeObject[] = [];
    for (let i = 0; i < count; i++) {
      const pod = await h.client.create(
        { ...RESOURCES.pods, namespace: NS },
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: `${app}-${i}`,
            labels: { app },
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                kind: 'ReplicaSet',
                name: app,
                uid: rs.metadata?.uid ?? '',
                controller: true,
              },
            ],
          },
          spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx' }] },
        },
      );
      out.push(await setReady(pod, true));
    }
    return out;
  }

  async function pdb(name: string, app: string, spec: Record<string, unknown>): Promise<void> {
    await h.client.create(
      { ...RESOURCES.poddisruptionbudgets, namespace: NS },
      {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name },
        spec: { ...spec, selector: { matchLabels: { app } } },
      },
    );
  }

  /** Waits until the PDB's status has the given numbers. */
  function statusOf(name: string, want: Partial<PodDisruptionBudgetStatus>) {
    return eventually(async () => {
      const got = await h.get({ ...RESOURCES.poddisruptionbudgets, namespace: NS, name });
      const s = got === undefined ? undefined : asKind(got, 'PodDisruptionBudget').status;
      if (s === undefined) return undefined;
      for (const [k, v] of Object.entries(want)) {
        assert.deepEqual(s[k as keyof typeof s], v, `${name}.status.${k}`);
      }
      return s;
    });
  }

  let webPods: KubeObject[] = [];

  it('minAvailable over a ReplicaSet’s Ready pods: status and SufficientPods', async () => {
    const rs = await replicaSet('web', 3);
    webPods = await podsOf(rs, 3);
    await pdb('web', 'web', { minAvailable: 2 });
    const s = await statusOf('web', {
      observedGeneration: 1,
      expectedPods: 3,
      currentHealthy: 3,
      desiredHealthy: 2,
      disruptionsAllowed: 1,
    });
    const cond = s.conditions?.find((c) => c.type === 'DisruptionAllowed');
    assert.deepEqual([cond?.status, cond?.reason], ['True', 'SufficientPods']);
  });

  it('a pod going unready lowers disruptionsAllowed to 0: InsufficientPods', async () => {
    const [first] = webPods;
    assert.ok(first);
    await setReady(first, false);
    const s = await statusOf('web', { currentHealthy: 2, disruptionsAllowed: 0 });
    const cond = s.conditions?.find((c) => c.type === 'DisruptionAllowed');
    assert.deepEqual([cond?.status, cond?.reason], ['False', 'InsufficientPods']);
  });

  it('maxUnavailable as a percentage of the ReplicaSet’s scale', async () => {
    // 4 replicas but only 3 pods exist: expected follows the scale, 50% of 4 may be down.
    const rs = await replicaSet('api', 4);
    await podsOf(rs, 3);
    await pdb('api', 'api', { maxUnavailable: '50%' });
    await statusOf('api', {
      expectedPods: 4,
      currentHealthy: 3,
      desiredHealthy: 2,
      disruptionsAllowed: 1,
    });
  });

  it('minAvailable % with a pod whose controller is gone: SyncFailed and the events', async () => {
    const rs = await replicaSet('lost', 1);
    await podsOf(rs, 1);
    await h.client.delete({ ...RESOURCES.replicasets, namespace: NS, name: 'lost' });
    await pdb('lost', 'lost', { minAvailable: '50%' });
    await eventually(async () => {
      const s = await statusOf('lost', { disruptionsAllowed: 0 });
      const cond = s.conditions?.find((c) => c.type === 'DisruptionAllowed');
      assert.deepEqual([cond?.status, cond?.reason], ['False', 'SyncFailed']);
      return true;
    });
    const reasons = await eventually(() => {
      const rs = h.events.events
        .filter((e) => e.object.metadata?.name === 'lost')
        .map((e) => e.reason);
      return rs.includes('CalculateExpectedPodCountFailed') ? rs : undefined;
    });
    assert.ok(reasons.includes('NoControllers'));
  });

  it('a PDB selecting nothing: zero status and a NoPods event', async () => {
    await pdb('empty', 'nothing-here', { minAvailable: 1 });
    const s = await statusOf('empty', {
      observedGeneration: 1,
      expectedPods: 0,
      currentHealthy: 0,
      desiredHealthy: 1,
      disruptionsAllowed: 0,
    });
    assert.equal(s.conditions?.[0]?.reason, 'InsufficientPods');
    await eventually(() =>
      h.events.events.some((e) => e.object.metadata?.name === 'empty' && e.reason === 'NoPods'),
    );
  });
});
