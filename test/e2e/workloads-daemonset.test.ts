/**
 * DaemonSets on a running `fleetyard up` (3 simulated nodes), driven by kubectl: one pod per
 * node, pinned by a `metadata.name` matchFields affinity and bound by the scheduler; a node
 * added through the API gets its pod, a deleted one leaves the count; a node taken down
 * (`fleetyard chaos node-down`) keeps its pod (daemon pods tolerate `unreachable`) but is no
 * longer desired; a RollingUpdate to a new image followed with `kubectl rollout status`,
 * `rollout history`, `rollout undo`; OnDelete leaves pods alone until they are deleted.
 *
 * Node loss is shortened with upstream's flags (`--node-monitor-grace-period=3s`).
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
  args: ['--node-lease-duration-seconds=4', '--node-monitor-grace-period=3s'],
});

interface Pod {
  metadata: {
    name: string;
    uid: string;
    labels: Record<string, string>;
    deletionTimestamp?: string;
  };
  spec: {
    nodeName?: string;
    containers: { image: string }[];
    tolerations?: { key: string; effect: string }[];
    affinity?: {
      nodeAffinity?: {
        requiredDuringSchedulingIgnoredDuringExecution?: {
          nodeSelectorTerms: {
            matchFields?: { key: string; operator: string; values: string[] }[];
          }[];
        };
      };
    };
  };
  status?: { conditions?: { type: string; status: string }[] };
}
interface DaemonSetStatus {
  desiredNumberScheduled: number;
  currentNumberScheduled: number;
  numberMisscheduled: number;
  numberReady: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  observedGeneration?: number;
}

const ready = (p: Pod) =>
  p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

function daemonSet(name: string, image: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'agent', image }] },
      },
    },
  };
}

describeKubectl('1.33', current, (s) => {
  const ns = 'ds-e2e';
  const { kc, create } = inNamespace(s, ns);
  const livePods = async (app: string): Promise<Pod[]> =>
    (
      JSON.parse(await kc('get', 'pods', '-l', `app=${app}`, '-o', 'json')) as { items: Pod[] }
    ).items.filter((p) => !p.metadata.deletionTimestamp);
  const status = async (name: string): Promise<DaemonSetStatus> =>
    (JSON.parse(await kc('get', 'ds', name, '-o', 'json')) as { status: DaemonSetStatus }).status;
  /** Waits for one ready pod on each of `n` distinct nodes. */
  const onePerNode = (app: string, n: number) =>
    pollUntil(
      `${n} ready pods of ${app}, one per node`,
      async () => {
        const list = await livePods(app);
        const nodes = new Set(list.map((p) => p.spec.nodeName));
        return list.length === n && nodes.size === n && list.every(ready) ? list : undefined;
      },
      30_000,
    );
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

  it('runs one ready pod on each of the 3 nodes, pinned by matchFields and bound by the scheduler', async () => {
    await create(daemonSet('agent', 'agent:v1'));
    const pods = await onePerNode('agent', 3);
    for (const p of pods) {
      const terms =
        p.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
          ?.nodeSelectorTerms;
      assert.deepEqual(terms, [
        { matchFields: [{ key: 'metadata.name', operator: 'In', values: [p.spec.nodeName] }] },
      ]);
      assert.ok(
        p.spec.tolerations?.some(
          (t) => t.key === 'node.kubernetes.io/unreachable' && t.effect === 'NoExecute',
        ),
      );
      assert.equal(p.metadata.labels['pod-template-generation'], '1');
      assert.match(p.metadata.labels['controller-revision-hash'] ?? '', /^[a-z0-9]+$/);
    }
    const st = await pollUntil('status 3/3', async () => {
      const v = await status('agent');
      return v.numberAvailable === 3 && v.observedGeneration === 1 ? v : undefined;
    });
    assert.deepEqual(
      [
        st.desiredNumberScheduled,
        st.currentNumberScheduled,
        st.numberReady,
        st.updatedNumberScheduled,
      ],
      [3, 3, 3, 3],
    );
    const table = await kc('get', 'ds', 'agent');
    assert.match(
      table,
      /^NAME\s+DESIRED\s+CURRENT\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+NODE SELECTOR\s+AGE\nagent\s+3\s+3\s+3\s+3\s+3\s+<none>\s+/,
    );
  });

  it('a node added through the API gets a pod; deleted, it leaves the count', async () => {
    await s.k().ok(['create', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'ds-extra', labels: { 'kubernetes.io/hostname': 'ds-extra' } },
        status: {
          conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
          capacity: { cpu: '4', memory: '8Gi', pods: '110' },
          allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
        },
      }),
    });
    // No kubelet runs it, so its pod stays Pending; the scheduler binds it all the same.
    await pollUntil('a pod bound to ds-extra, 4 desired', async () => {
      const bound = (await livePods('agent')).some((p) => p.spec.nodeName === 'ds-extra');
      return bound && (await status('agent')).desiredNumberScheduled === 4 ? true : undefined;
    });
    await s.k().ok(['delete', 'node', 'ds-extra']);
    await pollUntil('3 desired again', async () => {
      const v = await status('agent');
      return v.desiredNumberScheduled === 3 && v.numberMisscheduled === 0 ? true : undefined;
    });
    // A bound pod of a deleted node is PodGC's (after its 40 s quarantine), not the
    // DaemonSet's, as upstream: remove it now as an administrator would.
    const stranded = (await livePods('agent')).filter((p) => p.spec.nodeName === 'ds-extra');
    assert.equal(stranded.length, 1);
    await kc('delete', 'pod', stranded[0]?.metadata.name ?? '', '--force', '--grace-period=0');
  });

  it('a node taken down keeps its daemon pod but is no longer desired; back up, it is', async () => {
    const down = 'fleetyard-node-3';
    const before = (await livePods('agent')).find((p) => p.spec.nodeName === down);
    assert.ok(before);
    await chaos('node-down', down);
    const st = await pollUntil(
      'the down node dropped from desired',
      async () => {
        const v = await status('agent');
        return v.desiredNumberScheduled === 2 ? v : undefined;
      },
      20_000,
    );
    assert.equal(st.numberMisscheduled, 1);
    // Daemon pods tolerate node.kubernetes.io/unreachable:NoExecute: the pod is not evicted.
    assert.ok((await livePods('agent')).some((p) => p.metadata.uid === before.metadata.uid));
    await chaos('node-up', down);
    await pollUntil(
      'the node desired again',
      async () => {
        const v = await status('agent');
        return v.desiredNumberScheduled === 3 && v.numberMisscheduled === 0 && v.numberReady === 3
          ? true
          : undefined;
      },
      20_000,
    );
  });

  it('a RollingUpdate to a new image completes under kubectl rollout status; undo goes back', async (t) => {
    const [original] = await onePerNode('agent', 3);
    const firstHash = original?.metadata.labels['controller-revision-hash'];
    await kc('set', 'image', 'ds/agent', 'agent=agent:v2');
    const started = performance.now();
    const out = await kc('rollout', 'status', 'ds/agent', '--timeout=30s');
    const seconds = (performance.now() - started) / 1000;
    assert.match(out, /daemon set "agent" successfully rolled out/);
    const updated = await onePerNode('agent', 3);
    assert.ok(updated.every((p) => p.spec.containers[0]?.image === 'agent:v2'));
    assert.ok(updated.every((p) => p.metadata.labels['pod-template-generation'] === '2'));
    t.diagnostic(`3-node rollout (maxUnavailable 1): ${seconds.toFixed(1)} s`);
    assert.ok(seconds < 20, `rollout took ${seconds} s`);

    const history = await kc('rollout', 'history', 'ds/agent');
    assert.match(history, /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);

    assert.match(await kc('rollout', 'undo', 'ds/agent'), /daemonset.apps\/agent rolled back/);
    await kc('rollout', 'status', 'ds/agent', '--timeout=30s');
    const back = await onePerNode('agent', 3);
    assert.ok(back.every((p) => p.spec.containers[0]?.image === 'agent:v1'));
    // The first revision is reused (moved to number 3), so pods carry its hash again.
    assert.ok(back.every((p) => p.metadata.labels['controller-revision-hash'] === firstHash));
    assert.match(
      await kc('rollout', 'history', 'ds/agent'),
      /REVISION\s+CHANGE-CAUSE\n2\s+<none>\n3\s+<none>/,
    );
  });

  it('OnDelete leaves the pods alone until each is deleted', async () => {
    await kc('patch', 'ds', 'agent', '-p', '{"spec":{"updateStrategy":{"type":"OnDelete"}}}');
    await kc('set', 'image', 'ds/agent', 'agent=agent:v3');
    const st = await pollUntil('generation observed', async () => {
      const v = await status('agent');
      return v.observedGeneration === 5 ? v : undefined;
    });
    assert.equal(st.updatedNumberScheduled ?? 0, 0);
    const pods = await livePods('agent');
    assert.ok(pods.every((p) => p.spec.containers[0]?.image === 'agent:v1'));
    const victim = pods[0] as Pod;
    await kc('delete', 'pod', victim.metadata.name, '--wait=false');
    const after = await pollUntil('the deleted pod replaced at v3', async () => {
      const list = await livePods('agent');
      const fresh = list.find((p) => p.spec.nodeName === victim.spec.nodeName);
      return list.length === 3 &&
        fresh !== undefined &&
        fresh.metadata.uid !== victim.metadata.uid &&
        ready(fresh)
        ? list
        : undefined;
    });
    const images = after.map((p) => p.spec.containers[0]?.image).sort();
    assert.deepEqual(images, ['agent:v1', 'agent:v1', 'agent:v3']);
  });
});
