/**
 * The StatefulSet fault test: `fleetyard up` (SQLite) is killed with SIGKILL in the middle of
 * a rollout, of a scale-down and of a scale-up of a 6-member OrderedReady StatefulSet with
 * `ebs` claims, and started again on the same data dir each time. The controllers must pick up
 * from what is stored and converge: every member updated and Ready, exactly one live pod per
 * ordinal (and never two at any moment observed before a kill or after a restart), and no
 * claim lost: every `data-web-<i>` keeps its uid and its volume through the kills, the
 * scale-down (whenScaled: Retain) and the scale-up that reuses the claims.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { type Cluster, newDataDir, startCluster } from './testing/cluster.js';
import { type Kubectl, kubectl } from './testing/kubectl.js';
import { pollUntil } from './testing/kubectl-fixtures.js';

const REPLICAS = 6;
const T = 90_000;
const ARGS = ['--nodes=6', '--zones=a,b,c'];

function statefulSet(image: string, replicas: number): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      serviceName: 'web',
      replicas,
      podManagementPolicy: 'OrderedReady',
      selector: { matchLabels: { app: 'web' } },
      persistentVolumeClaimRetentionPolicy: { whenScaled: 'Retain', whenDeleted: 'Retain' },
      template: {
        // Each pod takes 0.5-1.5 s to become ready and as long to exit on deletion (within
        // its grace period): the kubelet counts both delays from whole-second timestamps
        // (startedAt, deletionTimestamp), so 1500ms is at least 500 ms. A rollout or a scale
        // spans seconds, long enough to be caught in the middle.
        metadata: {
          labels: { app: 'web' },
          annotations: {
            'sim.fleetyard.dev/ready-delay': '1500ms',
            'sim.fleetyard.dev/shutdown-delay': '1500ms',
          },
        },
        spec: { terminationGracePeriodSeconds: 5, containers: [{ name: 'web', image }] },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: {
            storageClassName: 'ebs',
            accessModes: ['ReadWriteOnce'],
            resources: { requests: { storage: '1Gi' } },
          },
        },
      ],
    },
  });
}

interface Pod {
  metadata: {
    name: string;
    uid: string;
    deletionTimestamp?: string;
    labels?: Record<string, string>;
    ownerReferences?: { uid: string; controller?: boolean }[];
  };
  spec: { containers: { image: string }[] };
  status?: { phase?: string; conditions?: { type: string; status: string }[] };
}
interface Claim {
  metadata: { name: string; uid: string; deletionTimestamp?: string };
  spec: { volumeName?: string };
  status?: { phase?: string };
}
interface StatefulSet {
  metadata: { uid: string; generation: number };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    readyReplicas?: number;
    updatedReplicas?: number;
    currentRevision?: string;
    updateRevision?: string;
  };
}

const ready = (p: Pod) =>
  p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const live = (pods: Pod[]) => pods.filter((p) => p.metadata.deletionTimestamp === undefined);

async function getJson<T>(k: Kubectl, args: string[]): Promise<T> {
  return JSON.parse(await k.ok(['get', ...args, '-o', 'json'])) as T;
}
const listPods = async (k: Kubectl) =>
  (await getJson<{ items: Pod[] }>(k, ['pods', '-l', 'app=web'])).items;
const listClaims = async (k: Kubectl) => (await getJson<{ items: Claim[] }>(k, ['pvc'])).items;

/**
 * The ordinal invariant on one observation: every live pod of the set is `web-<i>` with a
 * matching `apps.kubernetes.io/pod-index`, no ordinal has two live pods, and with `prefix`
 * the live ordinals are 0..n-1. Returns the violations (empty when it holds).
 */
function ordinalViolations(pods: Pod[], prefix = false): string[] {
  const seen = new Map<number, string>();
  const out: string[] = [];
  for (const p of live(pods)) {
    const m = /^web-(\d+)$/.exec(p.metadata.name);
    if (!m) {
      out.push(`unexpected pod name ${p.metadata.name}`);
      continue;
    }
    const i = Number(m[1]);
    const index = p.metadata.labels?.['apps.kubernetes.io/pod-index'];
    if (index !== undefined && index !== String(i))
      out.push(`${p.metadata.name} has pod-index ${index}`);
    const other = seen.get(i);
    if (other !== undefined) out.push(`ordinal ${i} held by ${other} and ${p.metadata.uid}`);
    seen.set(i, p.metadata.uid);
  }
  // OrderedReady scaling creates ordinal i only once 0..i-1 are Ready and deletes from the
  // highest: the live ordinals are always 0..n-1 (a rollout may leave a gap, so it opts out).
  const ordinals = [...seen.keys()].sort((a, b) => a - b);
  if (prefix && ordinals.some((o, i) => o !== i)) out.push(`live ordinals ${ordinals} have a gap`);
  return out;
}

/** Every sampler started, stopped at the end whatever happens (they keep the loop alive). */
const samplers = new Set<{ stop(): Promise<unknown> }>();

/** Samples the pods until stopped; API errors (the server is down) are skipped. */
function startSampler(k: Kubectl, prefix: boolean) {
  let running = true;
  let samples = 0;
  const violations: string[] = [];
  const done = (async () => {
    while (running) {
      try {
        const pods = await listPods(k);
        samples++;
        violations.push(...ordinalViolations(pods, prefix));
      } catch {
        // server going down or not up: nothing observed
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const sampler = {
    async stop() {
      running = false;
      await done;
      return { samples, violations };
    },
  };
  samplers.add(sampler);
  return sampler;
}

/** Waits until the set has converged at `replicas` members of `image`, and checks the pods. */
async function converged(k: Kubectl, replicas: number, image: string): Promise<Pod[]> {
  const sts = await pollUntil(
    `web converged at ${replicas} × ${image}`,
    async () => {
      const s = await getJson<StatefulSet>(k, ['statefulset', 'web']);
      const st = s.status ?? {};
      const pods = await listPods(k);
      const ok =
        st.observedGeneration === s.metadata.generation &&
        st.replicas === replicas &&
        st.readyReplicas === replicas &&
        st.updatedReplicas === replicas &&
        st.currentRevision === st.updateRevision &&
        pods.length === replicas &&
        live(pods).every((p) => ready(p) && p.spec.containers[0]?.image === image);
      return ok ? s : undefined;
    },
    T,
    200,
  );
  const pods = await listPods(k);
  assert.deepEqual(ordinalViolations(pods), []);
  assert.deepEqual(
    live(pods)
      .map((p) => p.metadata.name)
      .sort(),
    Array.from({ length: replicas }, (_, i) => `web-${i}`).sort(),
    'exactly one live pod per ordinal',
  );
  for (const p of pods) {
    assert.equal(
      p.metadata.labels?.['controller-revision-hash'],
      sts.status?.updateRevision,
      `${p.metadata.name} is at the update revision`,
    );
    const owner = p.metadata.ownerReferences?.find((o) => o.controller);
    assert.equal(owner?.uid, sts.metadata.uid, `${p.metadata.name} is owned by the set`);
  }
  return pods;
}

type ClaimIds = Map<string, { uid: string; volumeName: string | undefined }>;

async function claimIds(k: Kubectl): Promise<ClaimIds> {
  return new Map(
    (await listClaims(k)).map((c) => [
      c.metadata.name,
      { uid: c.metadata.uid, volumeName: c.spec.volumeName },
    ]),
  );
}

/** No claim lost: the same names, uids and volumes as `want`, all Bound, none deleting. */
async function assertClaims(k: Kubectl, want: ClaimIds, when: string): Promise<void> {
  const claims = await listClaims(k);
  assert.deepEqual(
    claims.map((c) => c.metadata.name).sort(),
    [...want.keys()].sort(),
    `${when}: the same claims`,
  );
  for (const c of claims) {
    const w = want.get(c.metadata.name);
    assert.equal(c.metadata.uid, w?.uid, `${when}: ${c.metadata.name} keeps its uid`);
    assert.equal(c.spec.volumeName, w?.volumeName, `${when}: ${c.metadata.name} keeps its PV`);
    assert.equal(c.status?.phase, 'Bound', `${when}: ${c.metadata.name} is Bound`);
    assert.equal(c.metadata.deletionTimestamp, undefined);
    const pv = await getJson<{ spec: { claimRef?: { uid?: string } } }>(k, [
      'pv',
      c.spec.volumeName ?? '',
    ]);
    assert.equal(pv.spec.claimRef?.uid, c.metadata.uid, `${when}: the PV points at the claim`);
  }
}

it('converges with no duplicated ordinal and no lost claim after SIGKILLs mid-rollout and mid-scale', async (t) => {
  const dataDir = newDataDir();
  let cluster: Cluster = await startCluster({ dataDir, args: ARGS });
  try {
    let k = kubectl('1.33', cluster.kubeconfig);
    if (!k) {
      t.skip('kubectl.1.33 is not installed beside the kubectl on the PATH');
      return;
    }
    const apply = (kc: Kubectl, image: string, replicas: number) =>
      kc.ok(['apply', '-f', '-'], { input: statefulSet(image, replicas) });
    /** Kills when `mid` holds (polled), restarts on the same data dir, samples around it. */
    const killWhen = async (
      what: string,
      prefix: boolean,
      mid: (pods: Pod[], s: StatefulSet) => boolean,
    ) => {
      const before = startSampler(k as Kubectl, prefix);
      let seen: StatefulSet['status'];
      let last = '';
      try {
        seen = await pollUntil(
          what,
          async () => {
            const s = await getJson<StatefulSet>(k as Kubectl, ['statefulset', 'web']);
            const pods = await listPods(k as Kubectl);
            last = `${JSON.stringify(s.status)} ${pods.map((p) => `${p.metadata.name}:${p.status?.phase}${p.metadata.deletionTimestamp ? ':deleting' : ''}`)}`;
            return mid(pods, s) ? s.status : undefined;
          },
          T,
          20,
        );
      } catch (err) {
        throw new Error(`${(err as Error).message}; last seen ${last}`);
      } finally {
        await before.stop();
      }
      t.diagnostic(`killed at ${what}: ${JSON.stringify(seen)}`);
      const b = await before.stop();
      await cluster.kill();
      cluster = await startCluster({ dataDir, args: ARGS, timeoutMs: 30_000 });
      k = kubectl('1.33', cluster.kubeconfig) as Kubectl;
      assert.ok(b.samples > 0, 'observed before the kill');
      assert.deepEqual(b.violations, [], `no duplicated ordinal before the kill (${what})`);
      return startSampler(k, prefix);
    };
    const afterRestart = async (sampler: ReturnType<typeof startSampler>, what: string) => {
      const a = await sampler.stop();
      assert.ok(a.samples > 0, 'observed after the restart');
      assert.deepEqual(a.violations, [], `no duplicated ordinal after the restart (${what})`);
    };

    await apply(k, 'web:v1', REPLICAS);
    await converged(k, REPLICAS, 'web:v1');
    const ids = await claimIds(k);
    assert.deepEqual(
      [...ids.keys()].sort(),
      Array.from({ length: REPLICAS }, (_, i) => `data-web-${i}`).sort(),
    );
    await assertClaims(k, ids, 'created');

    // 1. Mid-rollout: some members updated, not all.
    await apply(k, 'web:v2', REPLICAS);
    let sampler = await killWhen('mid-rollout', false, (_pods, s) => {
      const updated = s.status?.updatedReplicas ?? 0;
      return updated >= 2 && updated < REPLICAS;
    });
    await converged(k, REPLICAS, 'web:v2');
    await afterRestart(sampler, 'rollout');
    await assertClaims(k, ids, 'after the rollout');

    // 2. Mid-scale-down 6 → 2: some members gone, not all.
    await apply(k, 'web:v2', 2);
    sampler = await killWhen('mid-scale-down', true, (pods) => {
      const n = live(pods).length;
      return n < REPLICAS && n > 2;
    });
    await converged(k, 2, 'web:v2');
    await afterRestart(sampler, 'scale-down');
    await assertClaims(k, ids, 'after the scale-down (whenScaled Retain)');

    // 3. Mid-scale-up 2 → 6: some members back, not all.
    await apply(k, 'web:v2', REPLICAS);
    sampler = await killWhen('mid-scale-up', true, (pods) => {
      const n = live(pods).length;
      return n > 2 && n < REPLICAS;
    });
    await converged(k, REPLICAS, 'web:v2');
    await afterRestart(sampler, 'scale-up');
    await assertClaims(k, ids, 'after the scale-up (claims reused)');
  } finally {
    for (const sampler of samplers) await sampler.stop();
    await cluster.stop();
    cluster.cleanup();
  }
});
