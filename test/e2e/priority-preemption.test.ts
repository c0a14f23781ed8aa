/**
 * Pod priority on `fleetyard up --nodes 1`, driven by kubectl 1.33: `kubectl create
 * priorityclass` (a protobuf body), the Priority admission refusing an unknown class with
 * upstream's 403, and preemption: the node is filled with low-priority pods, a high-priority
 * pod is nominated to the node, one victim gets `DisruptionTarget` and a `Preempted` event and
 * goes, and the high-priority pod runs there.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  clusterForFile,
  createFromManifest,
  describeKubectl,
  getJson,
  inNamespace,
  type KubeObject,
  namespaceObject,
  pollUntil,
} from './testing/kubectl-fixtures.js';

const current = clusterForFile({ args: ['--nodes=1'] });

interface PodJson extends KubeObject {
  metadata: { name: string; uid: string; deletionTimestamp?: string };
  spec: { nodeName?: string; priority?: number; preemptionPolicy?: string };
  status?: {
    phase?: string;
    nominatedNodeName?: string;
    conditions?: { type: string; status: string; reason?: string }[];
  };
}

interface NodeJson {
  metadata: { name: string };
  status: { allocatable: { cpu: string } };
}

/** Millicores of a cpu quantity as a node reports it (`4`, `3500m`). */
function milliCpu(q: string): number {
  return q.endsWith('m') ? Number(q.slice(0, -1)) : Number(q) * 1000;
}

function podWith(name: string, className: string, milli: number, grace: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: {
      priorityClassName: className,
      terminationGracePeriodSeconds: grace,
      containers: [
        { name: 'main', image: 'nginx:1.27', resources: { requests: { cpu: `${milli}m` } } },
      ],
    },
  };
}

describeKubectl('1.33', current, (s) => {
  const ns = 'preempt';
  const { kc, read, create } = inNamespace(s, ns);
  before(async () => {
    await createFromManifest(s.k(), undefined, namespaceObject(ns));
  });

  it('creates PriorityClasses with kubectl create priorityclass', async () => {
    assert.equal(
      await s.k().ok(['create', 'priorityclass', 'low', '--value=10']),
      'priorityclass.scheduling.k8s.io/low created\n',
    );
    await s
      .k()
      .ok(['create', 'priorityclass', 'high', '--value=1000', '--description=urgent work']);
    const high = await getJson<KubeObject & Record<string, unknown>>(s.k(), [
      'priorityclass',
      'high',
    ]);
    assert.equal(high.value, 1000);
    assert.equal(high.description, 'urgent work');
    assert.equal(high.preemptionPolicy, 'PreemptLowerPriority');
    const table = await s.k().ok(['get', 'pc', 'low']);
    assert.match(table, /^NAME\s+VALUE\s+GLOBAL-DEFAULT\s+AGE\s+PREEMPTIONPOLICY\n/);
    assert.match(table, /\nlow\s+10\s+false\s+\S+\s+PreemptLowerPriority\n$/);
  });

  it('refuses a pod naming an unknown PriorityClass', async () => {
    const res = await s.k().run(['-n', ns, 'create', '-f', '-'], {
      input: JSON.stringify(podWith('lost', 'gold', 10, 0)),
    });
    assert.notEqual(res.code, 0);
    assert.match(
      res.stderr,
      /Error from server \(Forbidden\).*pods "lost" is forbidden: no PriorityClass with name gold was found/,
    );
  });

  it('preempts a low-priority pod for a high-priority one', async () => {
    const nodes = await getJson<{ items: NodeJson[] }>(s.k(), ['nodes']);
    const [only] = nodes.items;
    assert.ok(only !== undefined && nodes.items.length === 1, 'one node');
    const nodeName = only.metadata.name;
    const half = Math.floor(milliCpu(only.status.allocatable.cpu) / 2);
    // Two halves fill the node; their grace period keeps the victim visible for a while.
    await create(podWith('low-1', 'low', half, 3), podWith('low-2', 'low', half, 3));
    await pollUntil('both low pods running', async () => {
      const pods = await Promise.all(['low-1', 'low-2'].map((n) => read('pod', n)));
      return pods.every((p) => (p as PodJson).status?.phase === 'Running') ? true : undefined;
    });

    await create(podWith('urgent', 'high', half, 0));
    const nominated = await pollUntil('urgent nominated', async () => {
      const p = (await read('pod', 'urgent')) as PodJson;
      return p.status?.nominatedNodeName ?? (p.spec.nodeName ? 'bound-first' : undefined);
    });
    assert.equal(nominated, nodeName);
    const urgent = await pollUntil(
      'urgent running',
      async () => {
        const p = (await read('pod', 'urgent')) as PodJson;
        return p.status?.phase === 'Running' ? p : undefined;
      },
      30_000,
    );
    assert.equal(urgent.spec.nodeName, nodeName);
    assert.equal(urgent.spec.priority, 1000);

    const left = JSON.parse(await kc('get', 'pods', '-o', 'json')) as { items: PodJson[] };
    const lows = left.items.filter((p) => p.metadata.name.startsWith('low-'));
    assert.equal(lows.length, 1, 'exactly one victim went');
    const victim = lows[0]?.metadata.name === 'low-1' ? 'low-2' : 'low-1';
    const events = JSON.parse(
      await kc('get', 'events', '--field-selector', 'reason=Preempted', '-o', 'json'),
    ) as { items: { involvedObject: { name: string }; message: string; type: string }[] };
    const preempted = events.items.find((e) => e.involvedObject.name === victim);
    assert.ok(preempted, `no Preempted event for ${victim}: ${JSON.stringify(events.items)}`);
    assert.equal(preempted.type, 'Normal');
    assert.equal(preempted.message, `Preempted by pod ${urgent.metadata.uid} on node ${nodeName}`);
  });
});
