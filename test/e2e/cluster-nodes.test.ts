/**
 * The simulated cluster on a running `fleetyard up --nodes 3 --zones a,b,c`, driven by kubectl
 * and `fleetyard chaos`: nodes in zones with heartbeat Leases; a node taken down goes Unknown,
 * gets the unreachable taint, its pods are evicted (and stay Terminating while it is down, as
 * upstream) and are replaced elsewhere; `kubectl drain` is blocked by a PodDisruptionBudget and
 * completes once the budget allows it.
 *
 * Durations are shortened with upstream's own flags: `--node-monitor-grace-period` and
 * `--default-unreachable-toleration-seconds`.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { before, it } from 'node:test';
import { promisify } from 'node:util';
import { FLEETYARD_BIN } from './testing/cluster.js';
import {
  clusterForFile,
  createFromManifest,
  describeKubectl,
  inNamespace,
  type KubeObject,
  namespaceObject,
  pollUntil,
} from './testing/kubectl-fixtures.js';

const current = clusterForFile({
  args: [
    '--nodes=3',
    '--zones=a,b,c',
    // Leases renewed every second: the 3 s grace must exceed the renew interval (10 s by
    // default), or healthy nodes flap to Unknown between renewals.
    '--node-lease-duration-seconds=4',
    '--node-monitor-grace-period=3s',
    '--default-unreachable-toleration-seconds=2',
    '--default-not-ready-toleration-seconds=2',
  ],
});

interface Pod {
  metadata: { name: string; uid: string; deletionTimestamp?: string };
  spec: { nodeName?: string };
  status?: { conditions?: { type: string; status: string }[] };
}
interface Node {
  metadata: { name: string; labels: Record<string, string> };
  spec: { unschedulable?: boolean; taints?: { key: string; effect: string }[] };
  status: { conditions: { type: string; status: string; reason: string }[] };
}

const ready = (p: Pod) =>
  p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

function deployment(name: string, replicas: number): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          terminationGracePeriodSeconds: 1,
          // One per node, so a node down always holds one of them.
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: 'kubernetes.io/hostname',
              whenUnsatisfiable: 'ScheduleAnyway',
              labelSelector: { matchLabels: { app: name } },
            },
          ],
          containers: [{ name: 'web', image: 'web:v1' }],
        },
      },
    },
  };
}

describeKubectl('1.33', current, (s) => {
  const ns = 'nodes-e2e';
  const { kc, create } = inNamespace(s, ns);
  const pods = async (app: string): Promise<Pod[]> =>
    (JSON.parse(await kc('get', 'pods', '-l', `app=${app}`, '-o', 'json')) as { items: Pod[] })
      .items;
  const node = async (name: string): Promise<Node> =>
    JSON.parse(await s.k().ok(['get', 'node', name, '-o', 'json'])) as Node;
  const chaos = (...args: string[]) =>
    promisify(execFile)(process.execPath, [
      FLEETYARD_BIN,
      'chaos',
      '--kubeconfig',
      s.cluster().kubeconfig,
      ...args,
    ]);

  before(async () => {
    await createFromManifest(s.k(), undefined, namespaceObject(ns));
  });

  it('registers three Ready nodes across the zones, each with a Lease', async () => {
    // The kubelets register from the controller thread, beside the API server's start.
    const list = await pollUntil('three nodes', async () => {
      const l = JSON.parse(await s.k().ok(['get', 'nodes', '-o', 'json'])) as { items: Node[] };
      const ready = l.items.filter((n) =>
        n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
      );
      return ready.length === 3 ? l : undefined;
    });
    assert.equal(list.items.length, 3);
    const zones = list.items.map((n) => n.metadata.labels['topology.kubernetes.io/zone']).sort();
    assert.equal(new Set(zones).size, 3);
    for (const n of list.items) {
      assert.equal(n.metadata.labels['kubernetes.io/hostname'], n.metadata.name);
      assert.equal(n.metadata.labels['kubernetes.io/os'], 'linux');
      const readyCond = n.status.conditions.find((c) => c.type === 'Ready');
      assert.deepEqual([readyCond?.status, readyCond?.reason], ['True', 'KubeletReady']);
    }
    const leases = await s.k().ok(['get', 'leases', '-n', 'kube-node-lease', '-o', 'name']);
    assert.equal(leases.trim().split('\n').length, 3);
    const table = await s.k().ok(['get', 'nodes']);
    assert.match(table, /^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\n/);
  });

  it('a node taken down: Unknown, tainted, pods evicted and replaced elsewhere; back up, they finish', async () => {
    await create(deployment('spread', 3));
    const before = await pollUntil(
      '3 ready pods',
      async () => {
        const list = (await pods('spread')).filter((p) => !p.metadata.deletionTimestamp);
        return list.length === 3 && list.every(ready) ? list : undefined;
      },
      20_000,
    );
    const victim = before[0]!;
    const down = victim.spec.nodeName!;
    const out = await chaos('node-down', down);
    assert.match(out.stdout, new RegExp(`node/${down} annotated`));

    const tainted = await pollUntil(
      'node Unknown and tainted',
      async () => {
        const n = await node(down);
        const readyCond = n.status.conditions.find((c) => c.type === 'Ready');
        const taint = n.spec.taints?.some(
          (t) => t.key === 'node.kubernetes.io/unreachable' && t.effect === 'NoExecute',
        );
        return readyCond?.status === 'Unknown' && taint ? n : undefined;
      },
      20_000,
    );
    assert.equal(
      tainted.status.conditions.find((c) => c.type === 'Ready')?.reason,
      'NodeStatusUnknown',
    );

    const replaced = await pollUntil(
      'a replacement on another node',
      async () => {
        const list = await pods('spread');
        const liveOnes = list.filter((p) => !p.metadata.deletionTimestamp);
        const evicted = list.find((p) => p.metadata.uid === victim.metadata.uid);
        return liveOnes.length === 3 &&
          liveOnes.every((p) => ready(p) && p.spec.nodeName !== down) &&
          evicted?.metadata.deletionTimestamp
          ? list
          : undefined;
      },
      30_000,
    );
    // The evicted pod stays Terminating while its kubelet cannot confirm (upstream behaviour).
    assert.ok(replaced.some((p) => p.metadata.uid === victim.metadata.uid));

    await chaos('node-up', down);
    await pollUntil(
      'the evicted pod finished',
      async () => {
        const list = await pods('spread');
        return list.every((p) => p.metadata.uid !== victim.metadata.uid) ? true : undefined;
      },
      20_000,
    );
    await pollUntil(
      'node Ready again, untainted',
      async () => {
        const n = await node(down);
        const readyCond = n.status.conditions.find((c) => c.type === 'Ready');
        return readyCond?.status === 'True' &&
          !(n.spec.taints ?? []).some((t) => t.key.startsWith('node.kubernetes.io/'))
          ? true
          : undefined;
      },
      20_000,
    );
  });

  it('kubectl drain is blocked by a PodDisruptionBudget, then completes when the budget allows', async () => {
    await create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'spread' },
      spec: { minAvailable: 3, selector: { matchLabels: { app: 'spread' } } },
    });
    // Settled first: every pod Ready (an unready pod may be evicted while the budget is
    // healthy, IfHealthyBudget) and the budget observed with no disruption allowed.
    const live = await pollUntil('3 ready pods', async () => {
      const list = (await pods('spread')).filter((p) => !p.metadata.deletionTimestamp);
      return list.length === 3 && list.every(ready) ? list : undefined;
    });
    await pollUntil('PDB observed', async () => {
      const pdb = JSON.parse(await kc('get', 'pdb', 'spread', '-o', 'json')) as {
        status?: { currentHealthy?: number; disruptionsAllowed?: number };
      };
      return pdb.status?.currentHealthy === 3 && pdb.status.disruptionsAllowed === 0
        ? pdb
        : undefined;
    });
    const target = live[0]!.spec.nodeName!;
    const blocked = await s
      .k()
      .run(['drain', target, '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=3s'], {
        timeoutMs: 30_000,
      });
    assert.notEqual(blocked.code, 0);
    assert.match(
      blocked.stderr,
      /Cannot evict pod as it would violate the pod's disruption budget\./,
    );
    assert.equal((await node(target)).spec.unschedulable, true, 'drain cordons first');

    await kc('patch', 'pdb', 'spread', '--type=merge', '-p', '{"spec":{"minAvailable":2}}');
    const drained = await s.k().ok(['drain', target, '--ignore-daemonsets', '--timeout=60s'], {
      timeoutMs: 90_000,
    });
    assert.match(drained, new RegExp(`node/${target} drained`));
    await pollUntil(
      'pods rescheduled off the drained node',
      async () => {
        const list = (await pods('spread')).filter((p) => !p.metadata.deletionTimestamp);
        return list.length === 3 && list.every((p) => ready(p) && p.spec.nodeName !== target)
          ? true
          : undefined;
      },
      30_000,
    );
    assert.match(await s.k().ok(['uncordon', target]), new RegExp(`node/${target} uncordoned`));
    assert.equal((await node(target)).spec.unschedulable, undefined);
  });
});
