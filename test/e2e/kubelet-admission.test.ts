/**
 * The kubelet's admission, as a user meets it on `fleetyard up` with kubectl 1.33: a pod bound
 * to a node by `spec.nodeName` skips the scheduler, so the node's kubelet is the one that
 * refuses it (upstream `pkg/kubelet/lifecycle/predicate.go`). A refused pod is phase `Failed`
 * with the admission reason (what `kubectl get pods` shows as STATUS) and the message
 * `Pod was rejected: …`, and the kubelet records a Warning Event with the bare message:
 * - a second pod asking for a taken `hostPort` (NodePorts);
 * - a StatefulSet member refused that way is deleted and created again by the StatefulSet
 *   controller (a Failed member is replaced), until the port is free and it runs;
 * - a pod over the node's allocatable cpu (OutOfcpu, in millicores);
 * - a `nodeSelector` the node does not match (NodeAffinity);
 * - a NoExecute taint the pod does not tolerate (TaintToleration; a NoSchedule taint is the
 *   scheduler's, the kubelet admits).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import {
  clusterForFile,
  describeKubectl,
  getJson,
  pollUntil,
  startBackground,
} from './testing/kubectl-fixtures.js';

const cluster = clusterForFile();
const T = 30_000;

interface Pod {
  metadata: { name: string; uid: string };
  spec?: { nodeName?: string };
  status?: {
    phase?: string;
    reason?: string;
    message?: string;
    podIP?: string;
    conditions?: { type: string; status: string }[];
  };
}
interface Event {
  type: string;
  reason: string;
  message: string;
  source?: { component?: string; host?: string };
  involvedObject: { name: string; uid?: string };
}

const PORTS =
  "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports";

function pod(name: string, node: string, spec: Record<string, unknown> = {}, labels = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels },
    spec: {
      nodeName: node,
      terminationGracePeriodSeconds: 1,
      containers: [{ name: 'app', image: 'nginx:1.27' }],
      ...spec,
    },
  };
}

const hostPort = (port: number) => ({
  containers: [
    { name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 80, hostPort: port }] },
  ],
});

describeKubectl('1.33', cluster, (s) => {
  const ns = 'admission';
  const kc = (...args: string[]) => s.k().ok(['-n', ns, ...args], { timeoutMs: 60_000 });
  const createObj = (obj: object) =>
    s.k().ok(['-n', ns, 'create', '-f', '-'], { input: JSON.stringify(obj) });
  const getPod = (name: string) => getJson<Pod>(s.k(), ['-n', ns, 'pod', name]);
  const ready = (name: string) =>
    kc('wait', '--for=condition=Ready', `pod/${name}`, `--timeout=${T / 1000}s`);
  const failed = (name: string) =>
    pollUntil(
      `${name} Failed`,
      async () => {
        const p = await getPod(name);
        return p.status?.phase === 'Failed' ? p : undefined;
      },
      T,
    );
  const kubeletEvents = async (name: string) =>
    (
      await getJson<{ items: Event[] }>(s.k(), [
        '-n',
        ns,
        'events',
        '--field-selector',
        `involvedObject.name=${name}`,
      ])
    ).items.filter((e) => e.source?.component === 'kubelet');

  /** The pod is Failed with `reason` and `Pod was rejected: <message>`, and one kubelet Event says so. */
  async function assertRejected(name: string, reason: string, message: string): Promise<void> {
    const p = await failed(name);
    assert.equal(p.status?.reason, reason);
    assert.equal(p.status?.message, `Pod was rejected: ${message}`);
    assert.equal(p.status?.podIP, undefined, 'a rejected pod gets no IP');
    assert.equal(p.status?.conditions, undefined, 'nor conditions (PodScheduled goes too)');
    const row = await kc('get', 'pod', name, '--no-headers');
    assert.match(
      row,
      new RegExp(`^${name}\\s+0/1\\s+${reason}\\s`),
      'kubectl get shows the reason',
    );
    const events = await pollUntil(
      `${name}'s ${reason} event`,
      async () => {
        const es = (await kubeletEvents(name)).filter((e) => e.reason === reason);
        return es.length > 0 ? es : undefined;
      },
      T,
    );
    assert.deepEqual(
      events.map((e) => [e.type, e.reason, e.message, e.source?.host]),
      [['Warning', reason, message, p.spec?.nodeName]],
      "the kubelet's Event names its node as the source host",
    );
  }

  before(async () => {
    await s.k().ok(['create', 'namespace', ns]);
  });
  after(async () => {
    await s.k().run(['taint', 'nodes', 'fleetyard-node-3', 'dedicated-']);
  });

  it('refuses a second pod asking for a taken hostPort on the same node', async () => {
    await createObj(pod('port-a', 'fleetyard-node-1', hostPort(8080)));
    await ready('port-a');
    await createObj(pod('port-b', 'fleetyard-node-1', hostPort(8080)));
    await assertRejected('port-b', 'NodePorts', PORTS);
    assert.equal((await getPod('port-a')).status?.phase, 'Running', 'the first pod keeps running');
    // The port is per node, and per protocol.
    await createObj(pod('port-other-node', 'fleetyard-node-2', hostPort(8080)));
    await ready('port-other-node');
    await createObj(
      pod('port-udp', 'fleetyard-node-1', {
        containers: [
          {
            name: 'app',
            image: 'nginx:1.27',
            ports: [{ containerPort: 80, hostPort: 8080, protocol: 'UDP' }],
          },
        ],
      }),
    );
    await ready('port-udp');
  });

  it('replaces a StatefulSet member refused for its hostPort until the port is free', async () => {
    await createObj(pod('blocker', 'fleetyard-node-2', hostPort(9090)));
    await ready('blocker');
    const watch = startBackground(s.bin, s.cluster().kubeconfig, [
      '-n',
      ns,
      'get',
      'pods',
      '-l',
      'app=db',
      '-w',
      '-o',
      'jsonpath={.metadata.name} {.metadata.uid} {.status.phase} {.status.reason}{"\\n"}',
    ]);
    try {
      const labels = { app: 'db' };
      await createObj({
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'db' },
        spec: {
          replicas: 1,
          serviceName: 'db',
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: {
              nodeName: 'fleetyard-node-2',
              terminationGracePeriodSeconds: 1,
              containers: [
                {
                  name: 'db',
                  image: 'postgres:17',
                  ports: [{ containerPort: 5432, hostPort: 9090 }],
                },
              ],
            },
          },
        },
      });
      // db-0 is refused, deleted by the StatefulSet controller and created again (a new uid),
      // refused again: at least two uids seen Failed with NodePorts.
      const rejectedUids = (lines: string[]) =>
        new Set(
          lines
            .map((l) => l.split(' '))
            .filter(
              ([name, , phase, reason]) =>
                name === 'db-0' && phase === 'Failed' && reason === 'NodePorts',
            )
            .map(([, uid]) => uid),
        );
      await watch.waitForLines('db-0 refused twice', (ls) => rejectedUids(ls).size >= 2, T);
      const deletes = await pollUntil(
        'the StatefulSet deleting its failed member',
        async () => {
          const es = (
            await getJson<{ items: Event[] }>(s.k(), [
              '-n',
              ns,
              'events',
              '--field-selector',
              'involvedObject.name=db,reason=SuccessfulDelete',
            ])
          ).items;
          return es.length > 0 ? es : undefined;
        },
        T,
      );
      assert.equal(deletes[0]?.message, 'delete Pod db-0 in StatefulSet db successful');
      // The port freed, the next db-0 is admitted and runs.
      await kc('delete', 'pod', 'blocker', '--wait=true');
      await pollUntil(
        'db ready',
        async () => {
          const sts = await getJson<{ status?: { readyReplicas?: number } }>(s.k(), [
            '-n',
            ns,
            'statefulset',
            'db',
          ]);
          return sts.status?.readyReplicas === 1 ? true : undefined;
        },
        T,
      );
      const member = await getPod('db-0');
      assert.equal(member.status?.phase, 'Running');
      assert.ok(!rejectedUids(watch.lines()).has(member.metadata.uid), 'a new member runs');
    } finally {
      await watch.stop();
    }
  });

  it('refuses a pod over the allocatable cpu of its node', async () => {
    await createObj(
      pod('big', 'fleetyard-node-3', {
        containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '5' } } }],
      }),
    );
    await assertRejected(
      'big',
      'OutOfcpu',
      "Node didn't have enough resource: cpu, requested: 5000, used: 0, capacity: 4000",
    );
    // What was refused holds nothing: a pod taking the whole node runs.
    await createObj(
      pod('whole', 'fleetyard-node-3', {
        containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '4' } } }],
      }),
    );
    await ready('whole');
    await kc('delete', 'pod', 'whole', '--wait=true');
  });

  it('refuses a pod bound to a node its nodeSelector does not match', async () => {
    await createObj(pod('picky', 'fleetyard-node-1', { nodeSelector: { disk: 'ssd' } }));
    await assertRejected(
      'picky',
      'NodeAffinity',
      "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector",
    );
    await createObj(
      pod('zone-a', 'fleetyard-node-1', {
        nodeSelector: { 'topology.kubernetes.io/zone': 'local-a' },
      }),
    );
    await ready('zone-a');
  });

  it('refuses a pod that does not tolerate a NoExecute taint of its node', async () => {
    await s.k().ok(['taint', 'nodes', 'fleetyard-node-3', 'dedicated=db:NoExecute']);
    // The taint eviction controller deletes the refused pod too (it does not tolerate the
    // taint), as upstream's does, and both Events stay (they used to collide by name within one
    // millisecond). The kubelet's Failed status and the eviction race, upstream as here: since
    // issue 18 each is authorized as its own component and the eviction often lands first, so
    // the pod may be gone before its Failed status is written. When the status is seen, it is
    // upstream's text; either way the kubelet's refusal is on record as its Event.
    const watch = startBackground(s.bin, s.cluster().kubeconfig, [
      '-n',
      ns,
      'get',
      'pods',
      '--field-selector',
      'metadata.name=untolerated',
      '-w',
      '-o',
      'jsonpath={.status.phase}|{.status.reason}|{.status.message}{"\\n"}',
    ]);
    const message =
      "Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate";
    try {
      await createObj(pod('untolerated', 'fleetyard-node-3'));
      const failed = watch.lines().find((l) => l.startsWith('Failed|'));
      if (failed !== undefined) {
        assert.equal(failed, `Failed|TaintToleration|Pod was rejected: ${message}`);
      }
      const reasons = await pollUntil(
        "untolerated's kubelet and eviction events",
        async () => {
          const all = await getJson<{ items: Event[] }>(s.k(), [
            '-n',
            ns,
            'events',
            '--field-selector',
            'involvedObject.name=untolerated',
          ]);
          const got = all.items.map((e) => e.reason).sort();
          return got.includes('TaintToleration') && got.includes('TaintManagerEviction')
            ? got
            : undefined;
        },
        T,
      );
      assert.ok(reasons.includes('TaintToleration'));
    } finally {
      await watch.stop();
    }
    await createObj(
      pod('tolerated', 'fleetyard-node-3', {
        tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoExecute' }],
      }),
    );
    await ready('tolerated');
    // A NoSchedule taint keeps the scheduler away, not a pod bound by nodeName.
    await s.k().ok(['taint', 'nodes', 'fleetyard-node-3', 'dedicated-']);
    await s.k().ok(['taint', 'nodes', 'fleetyard-node-3', 'dedicated=db:NoSchedule']);
    await createObj(pod('no-schedule', 'fleetyard-node-3'));
    await ready('no-schedule');
  });
});
