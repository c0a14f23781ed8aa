import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { RESOURCES } from '../../controller/context.js';
import { podClaimKeys } from '../../controller/pod-indexes.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { simulatedNodes } from './index.js';
import type { KubeletPod as Pod } from './kubelet-pod.js';
import { claimVolumeError, multiAttachError } from './volumes.js';

const NODE = 'fleetyard-node-1';
const pods = { ...RESOURCES.pods, namespace: 'default' };
const claims = { ...RESOURCES.persistentvolumeclaims, namespace: 'default' };

function podObject(name: string, claimNames: string[], nodeName = NODE): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: {
      nodeName,
      terminationGracePeriodSeconds: 30,
      containers: [{ name: 'app', image: 'nginx:1.27' }],
      volumes: claimNames.map((c, i) => ({
        name: `v${i}`,
        persistentVolumeClaim: { claimName: c },
      })),
    },
  };
}

function claimObject(name: string, phase?: string, extra: Partial<KubeObject['metadata']> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'default', ...extra },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
      ...(phase === 'Bound' ? { volumeName: 'pv1' } : {}),
    },
    ...(phase ? { status: { phase } } : {}),
  } as KubeObject;
}

const PREFIX =
  'Unable to attach or mount volumes: unmounted volumes=[v0], unattached volumes=[], failed to process volumes=[v0]: ';

describe('claimVolumeError', () => {
  const cases: { name: string; claim?: KubeObject; want: string | undefined }[] = [
    {
      name: 'missing claim',
      want: `${PREFIX}error processing PVC default/www-web-0: failed to fetch PVC from API server: persistentvolumeclaims "www-web-0" not found`,
    },
    {
      name: 'pending claim',
      claim: claimObject('www-web-0', 'Pending'),
      want: `${PREFIX}error processing PVC default/www-web-0: PVC is not bound`,
    },
    {
      name: 'lost claim',
      claim: claimObject('www-web-0', 'Lost'),
      want: `${PREFIX}error processing PVC default/www-web-0: PVC is not bound`,
    },
    {
      name: 'claim being deleted',
      claim: claimObject('www-web-0', 'Bound', { deletionTimestamp: '2026-01-01T00:00:00Z' }),
      want: `${PREFIX}error processing PVC default/www-web-0: PVC is being deleted`,
    },
    { name: 'bound claim', claim: claimObject('www-web-0', 'Bound'), want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = claimVolumeError(podObject('web-0', ['www-web-0']), (_ns, n) =>
        n === 'www-web-0' ? c.claim : undefined,
      );
      assert.equal(got, c.want);
    });
  }

  it('indexes pods by their claims', () => {
    const pod = podObject('web-0', ['a', 'b', 'a']);
    assert.deepEqual(podClaimKeys(pod), ['default/a', 'default/b']);
  });
});

describe('multiAttachError', () => {
  const running = (name: string, node: string, phase = 'Running'): KubeObject => ({
    ...podObject(name, ['data'], node),
    status: { phase },
  });
  const withModes = (modes: string[]): KubeObject => {
    const c = claimObject('data', 'Bound');
    return { ...c, status: { phase: 'Bound', accessModes: modes } };
  };
  const cases: { name: string; claim: KubeObject; users: KubeObject[]; want?: string }[] = [
    {
      name: 'RWO held by a running pod on another node',
      claim: withModes(['ReadWriteOnce']),
      users: [running('a', 'fleetyard-node-2')],
      want: 'Multi-Attach error for volume "pv1" Volume is already used by pod(s) a',
    },
    {
      name: 'RWO used on the same node',
      claim: withModes(['ReadWriteOnce']),
      users: [running('a', NODE)],
    },
    {
      name: 'RWO whose other user has not started',
      claim: withModes(['ReadWriteOnce']),
      users: [running('a', 'fleetyard-node-2', 'Pending')],
    },
    {
      name: 'RWX may attach anywhere',
      claim: withModes(['ReadWriteMany']),
      users: [running('a', 'fleetyard-node-2')],
    },
    {
      name: 'RWO with ROX too may attach anywhere',
      claim: withModes(['ReadWriteOnce', 'ReadOnlyMany']),
      users: [running('a', 'fleetyard-node-2')],
    },
    {
      name: 'two holders are listed',
      claim: withModes(['ReadWriteOnce']),
      users: [running('b', 'fleetyard-node-3'), running('a', 'fleetyard-node-2')],
      want: 'Multi-Attach error for volume "pv1" Volume is already used by pod(s) a, b',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const me = podObject('me', ['data']);
      const got = multiAttachError(
        me,
        () => c.claim,
        () => [me, ...c.users],
      );
      assert.equal(got, c.want);
    });
  }
});

describe('simulatedNodes volume gate', () => {
  let h: Harness;
  const getPod = async (name: string) => (await h.get({ ...pods, name })) as Pod | undefined;
  const waiting = (p: Pod | undefined) => p?.status?.containerStatuses?.[0]?.state?.waiting?.reason;

  async function setClaimPhase(name: string, phase: string): Promise<void> {
    const current = await h.client.get({ ...claims, name });
    const spec = { ...(current.spec as object), volumeName: 'pv1' };
    const updated = await h.client.update({ ...claims, name }, { ...current, spec });
    await h.client.updateStatus({ ...claims, name }, { ...updated, status: { phase } });
  }

  before(async () => {
    h = await startHarness();
    h.run(simulatedNodes({ count: 2 }));
    await eventually(async () => (await h.list(RESOURCES.nodes)).length === 2);
  });
  after(() => h.close());

  it('holds a pod whose claim is missing or unbound, and starts it once the claim is Bound', async () => {
    await h.client.create(pods, podObject('web-0', ['www-web-0']));
    await eventually(async () => waiting(await getPod('web-0')) === 'ContainerCreating');
    await eventually(() =>
      h.events.events.some(
        (e) =>
          e.reason === 'FailedMount' &&
          e.object.metadata?.name === 'web-0' &&
          e.message.endsWith('persistentvolumeclaims "www-web-0" not found'),
      ),
    );
    await h.client.create(claims, claimObject('www-web-0'));
    await eventually(() =>
      h.events.events.some(
        (e) => e.reason === 'FailedMount' && e.message.endsWith('PVC is not bound'),
      ),
    );
    const held = await getPod('web-0');
    assert.equal(held?.status?.phase, 'Pending');
    assert.equal(waiting(held), 'ContainerCreating');

    await setClaimPhase('www-web-0', 'Bound');
    const running = await eventually(async () => {
      const p = await getPod('web-0');
      return p?.status?.phase === 'Running' && p;
    });
    assert.ok(running.status?.containerStatuses?.[0]?.state?.running);
  });

  it('a claim turning Lost under a running pod does not stop it', async () => {
    await h.client.create(claims, claimObject('data-1'));
    await setClaimPhase('data-1', 'Bound');
    await h.client.create(pods, podObject('db-1', ['data-1']));
    await eventually(async () => (await getPod('db-1'))?.status?.phase === 'Running');
    await setClaimPhase('data-1', 'Lost');
    // A pod update makes the kubelet plan the pod again while its claim is Lost.
    await h.client.patch(
      { ...pods, name: 'db-1' },
      { metadata: { labels: { touched: 'yes' } } },
      'merge',
    );
    await eventually(
      async () => (await h.get({ ...pods, name: 'db-1' }))?.metadata?.labels?.touched === 'yes',
    );
    const p = await getPod('db-1');
    assert.equal(p?.status?.phase, 'Running');
    assert.ok(p?.status?.containerStatuses?.[0]?.state?.running);
    assert.ok(
      !h.events.events.some(
        (e) => e.reason === 'FailedMount' && e.object.metadata?.name === 'db-1',
      ),
    );
  });

  it('a ReadWriteOnce volume used on one node holds a pod on another until it is free', async () => {
    await h.client.create(claims, claimObject('shared'));
    await setClaimPhase('shared', 'Bound');
    await h.client.create(pods, podObject('first', ['shared']));
    await eventually(async () => (await getPod('first'))?.status?.phase === 'Running');
    const other = podObject('second', ['shared'], 'fleetyard-node-2');
    await h.client.create(pods, other);
    await eventually(() =>
      h.events.events.some(
        (e) =>
          e.reason === 'FailedAttachVolume' &&
          e.object.metadata?.name === 'second' &&
          e.message ===
            'Multi-Attach error for volume "pv1" Volume is already used by pod(s) first',
      ),
    );
    assert.equal(waiting(await getPod('second')), 'ContainerCreating');
    await h.client.delete({ ...pods, name: 'first' }, { gracePeriodSeconds: 0 });
    await eventually(async () => (await getPod('second'))?.status?.phase === 'Running');
  });
});
