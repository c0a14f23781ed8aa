import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { RESOURCES } from '../../controller/context.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { simulatedNodes } from './index.js';
import { isKubeletPod, type KubeletPod as Pod } from './kubelet-pod.js';

const NODE = 'fleetyard-node-1';
const pods = { ...RESOURCES.pods, namespace: 'default' };

function podObject(
  name: string,
  extra: { annotations?: Record<string, string>; spec?: object } = {},
) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, annotations: extra.annotations ?? {} },
    spec: {
      nodeName: NODE,
      terminationGracePeriodSeconds: 30,
      containers: [{ name: 'app', image: 'nginx:1.27' }],
      ...extra.spec,
    },
  };
}

function cond(p: Pod | undefined, type: string): string | undefined {
  return p?.status?.conditions?.find((c) => c.type === type)?.status;
}

function waiting(p: Pod | undefined): string | undefined {
  return p?.status?.containerStatuses?.[0]?.state?.waiting?.reason;
}

describe('simulatedNodes', () => {
  let h: Harness;
  const getPod = async (name: string) => (await h.get({ ...pods, name })) as Pod | undefined;

  before(async () => {
    h = await startHarness();
    h.run(simulatedNodes({ count: 3 }));
    await eventually(async () => (await h.list(RESOURCES.nodes)).length === 3);
  });
  after(() => h.close());

  it('registers nodes with upstream labels, conditions, addresses and a Lease', async () => {
    const nodes = await h.list(RESOURCES.nodes);
    const want: [string, string][] = [
      ['fleetyard-node-1', 'local-a'],
      ['fleetyard-node-2', 'local-b'],
      ['fleetyard-node-3', 'local-c'],
    ];
    for (const [name, zone] of want) {
      const n = nodes.find((x) => x.metadata?.name === name) as KubeObject;
      const labels = n.metadata?.labels ?? {};
      assert.equal(labels['kubernetes.io/hostname'], name);
      assert.equal(labels['topology.kubernetes.io/zone'], zone);
      assert.equal(labels['topology.kubernetes.io/region'], 'local');
      assert.equal(labels['kubernetes.io/os'], 'linux');
      assert.equal(labels['kubernetes.io/arch'], 'amd64');
      assert.equal(labels['node.kubernetes.io/instance-type'], 'fleetyard-sim');
    }
    const n1 = await eventually(async () => {
      const n = await h.get({ ...RESOURCES.nodes, name: NODE });
      const status = n?.status as Record<string, unknown> | undefined;
      return Array.isArray(status?.conditions) && status;
    });
    const conds = (
      n1.conditions as { type: string; status: string; reason: string; message: string }[]
    ).map((c) => [c.type, c.status, c.reason, c.message]);
    assert.deepEqual(conds, [
      [
        'MemoryPressure',
        'False',
        'KubeletHasSufficientMemory',
        'kubelet has sufficient memory available',
      ],
      ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
      ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
      ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
    ]);
    assert.deepEqual(n1.addresses, [
      { type: 'InternalIP', address: '172.18.0.2' },
      { type: 'Hostname', address: NODE },
    ]);
    assert.equal((n1.capacity as Record<string, string>).pods, '110');
    assert.equal((n1.allocatable as Record<string, string>).cpu, '4');
    assert.deepEqual(n1.daemonEndpoints, { kubeletEndpoint: { Port: 10250 } });
    const lease = await eventually(() =>
      h.get({ ...RESOURCES.leases, namespace: 'kube-node-lease', name: NODE }),
    );
    const spec = lease.spec as Record<string, unknown>;
    assert.equal(spec.holderIdentity, NODE);
    assert.equal(spec.leaseDurationSeconds, 40);
    assert.match(String(spec.renewTime), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.equal(lease.metadata?.ownerReferences?.[0]?.kind, 'Node');
  });

  it('runs a bound pod to Running and Ready with an IP from the node CIDR', async () => {
    await h.client.create(pods, podObject('web'));
    const p = await eventually(async () => {
      const p = await getPod('web');
      return cond(p, 'Ready') === 'True' && p;
    });
    assert.equal(p?.status?.phase, 'Running');
    assert.equal(p?.status?.hostIP, '172.18.0.2');
    assert.match(p?.status?.podIP ?? '', /^10\.244\.1\.\d+$/);
    for (const t of ['Initialized', 'ContainersReady', 'PodReadyToStartContainers']) {
      assert.equal(cond(p, t), 'True', t);
    }
    assert.ok(p?.status?.containerStatuses?.[0]?.state?.running);
  });

  it('follows sim.fleetyard.dev/ready: false, then its removal', async () => {
    await h.client.create(
      pods,
      podObject('gated', { annotations: { 'sim.fleetyard.dev/ready': 'false' } }),
    );
    const p = await eventually(async () => {
      const p = await getPod('gated');
      return p?.status?.phase === 'Running' && p;
    });
    assert.equal(cond(p, 'Ready'), 'False');
    await h.client.patch(
      { ...pods, name: 'gated' },
      { metadata: { annotations: { 'sim.fleetyard.dev/ready': null } } },
      'merge',
    );
    await eventually(async () => cond(await getPod('gated'), 'Ready') === 'True');
  });

  it('crash-loops a container that exits non-zero', async () => {
    await h.client.create(
      pods,
      podObject('crash', { annotations: { 'sim.fleetyard.dev/exit-code': '1' } }),
    );
    const p = await eventually(async () => {
      const p = await getPod('crash');
      return waiting(p) === 'CrashLoopBackOff' && p;
    });
    const cs = p?.status?.containerStatuses?.[0];
    assert.ok((cs?.restartCount ?? 0) >= 1);
    assert.equal(cs?.lastState?.terminated?.reason, 'Error');
    assert.equal(cs?.lastState?.terminated?.exitCode, 1);
    assert.equal(cond(p, 'Ready'), 'False');
  });

  it('fails to pull foo:nonexistent', async () => {
    await h.client.create(
      pods,
      podObject('pull', { spec: { containers: [{ name: 'app', image: 'foo:nonexistent' }] } }),
    );
    const reasons = new Set<string>();
    await eventually(async () => {
      const r = waiting(await getPod('pull'));
      if (r) reasons.add(r);
      return reasons.has('ImagePullBackOff');
    });
    assert.equal((await getPod('pull'))?.status?.phase, 'Pending');
    assert.ok(
      h.events.events.some((e) => e.reason === 'Failed' && e.message === 'Error: ErrImagePull'),
    );
  });

  it('waits for a missing ConfigMap, then starts', async () => {
    const spec = {
      containers: [
        { name: 'app', image: 'nginx:1.27', envFrom: [{ configMapRef: { name: 'settings' } }] },
      ],
    };
    await h.client.create(pods, podObject('config', { spec }));
    const p = await eventually(async () => {
      const p = await getPod('config');
      return waiting(p) === 'CreateContainerConfigError' && p;
    });
    assert.equal(
      p?.status?.containerStatuses?.[0]?.state?.waiting?.message,
      'configmap "settings" not found',
    );
    await h.client.create(
      { ...RESOURCES.configmaps, namespace: 'default' },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { a: '1' } },
    );
    await eventually(async () => cond(await getPod('config'), 'Ready') === 'True');
  });

  it('starts a pod waiting for a Secret volume on the Secret event, not the 10 s retry', async () => {
    const spec = {
      containers: [{ name: 'app', image: 'nginx:1.27' }],
      volumes: [{ name: 'certs', secret: { secretName: 'tls' } }],
    };
    await h.client.create(pods, podObject('mounting', { spec }));
    await eventually(async () => waiting(await getPod('mounting')) === 'ContainerCreating');
    // Let the look that follows the first write find the volume missing and sleep 10 s.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(waiting(await getPod('mounting')), 'ContainerCreating');
    await h.client.create(
      { ...RESOURCES.secrets, namespace: 'default' },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'tls' }, data: { a: 'MQ==' } },
    );
    // The pod's own retry is CONFIG_RETRY_MS (10 s) away: only the Secret's event (through
    // the pods' config index) starts it within half of that.
    await eventually(async () => cond(await getPod('mounting'), 'Ready') === 'True', {
      timeoutMs: 5_000,
    });
  });

  it('rejects the second pod asking for a taken hostPort: Failed with the reason and an Event', async () => {
    const ports = {
      containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: 80, hostPort: 8080 }] }],
    };
    await h.client.create(pods, podObject('port-a', { spec: ports }));
    await eventually(async () => cond(await getPod('port-a'), 'Ready') === 'True');
    await h.client.create(pods, podObject('port-b', { spec: ports }));
    const b = await eventually(async () => {
      const p = await getPod('port-b');
      return p?.status?.phase === 'Failed' && p;
    });
    const message =
      "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports";
    assert.equal(b?.status?.reason, 'NodePorts');
    assert.equal(b?.status?.message, `Pod was rejected: ${message}`);
    assert.equal(b?.status?.podIP, undefined);
    assert.equal(b?.status?.containerStatuses, undefined);
    const events = h.events.events.filter((e) => e.object.metadata?.name === 'port-b');
    assert.deepEqual(
      events.map((e) => [e.type, e.reason, e.message]),
      [['Warning', 'NodePorts', message]],
    );
    assert.equal((await getPod('port-a'))?.status?.phase, 'Running');
    // The first pod gone, a new pod takes the port.
    await h.client.delete({ ...pods, name: 'port-a' }, { gracePeriodSeconds: 0 });
    await eventually(async () => (await getPod('port-a')) === undefined);
    await h.client.create(pods, podObject('port-c', { spec: ports }));
    await eventually(async () => cond(await getPod('port-c'), 'Ready') === 'True');
  });

  it('finishes a graceful delete and removes the pod', async () => {
    await h.client.create(pods, podObject('doomed'));
    await eventually(async () => cond(await getPod('doomed'), 'Ready') === 'True');
    await h.client.delete({ ...pods, name: 'doomed' }, { gracePeriodSeconds: 30 });
    await eventually(async () => (await getPod('doomed')) === undefined);
  });

  it('starts a burst of pods with one status write each', async () => {
    const n = 200;
    const watch = await h.api.watch('/api/v1/namespaces/burst/pods?watch=1');
    await h.client.create(RESOURCES.namespaces, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'burst' },
    });
    const ns = { ...RESOURCES.pods, namespace: 'burst' };
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        h.client.create(ns, {
          ...podObject(`p${i}`),
          spec: { ...podObject('x').spec, nodeName: `fleetyard-node-${(i % 3) + 1}` },
        }),
      ),
    );
    await eventually(
      async () => {
        const list = (await h.list(ns)).filter(isKubeletPod);
        return list.filter((p) => cond(p, 'Ready') === 'True').length === n;
      },
      { timeoutMs: 15_000 },
    );
    const modified = new Map<string, number>();
    for (const e of watch.events) {
      if (e.type !== 'MODIFIED') continue;
      const name = String(e.object.metadata?.name);
      modified.set(name, (modified.get(name) ?? 0) + 1);
    }
    watch.close();
    assert.equal(modified.size, n);
    assert.ok(
      [...modified.values()].every((c) => c === 1),
      'one status write per pod',
    );
    const ips = (await h.list(ns)).filter(isKubeletPod).map((p) => p.status?.podIP);
    assert.equal(new Set(ips).size, n, 'distinct pod IPs');
  });
});
