/**
 * A PersistentFleet's life on a real `fleetyard up --nodes 6` (two nodes per zone), applied
 * from `examples/celld-persistent-fleet.yaml` with kubectl 1.33: it reaches Ready, `kubectl
 * get cf` prints its columns, and its children carry the retained-disk contract (docs/design/operator.md §9):
 * RWOP claims on a Delete/WaitForFirstConsumer CSI class, a Parallel RollingUpdate StatefulSet
 * with partition 0 and retention Retain/Retain, the two Services, the NetworkPolicy and the
 * PDB. Then the disks are shown to survive: a restart (`maintenance.restartToken`) and an
 * upgrade (`runtimeImage`) roll one member at a time, highest ordinal first, on the same
 * claims; scale-in removes the highest ordinals one step at a time and keeps their claims;
 * growth back reattaches those claims; and `maintenance.paused` stops every workload write
 * until it is cleared.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { V1Pod } from '@kubernetes/client-node';
import {
  condition,
  type FleetEnv,
  fleetClaims,
  fleetEnvForFile,
  IMAGE_V2,
  isReady,
  memberPods,
  ordinalOf,
  type PodWatch,
  patchFleet,
  sleep,
  statefulSet,
  uids,
  waitFleet,
  waitReady,
  watchPods,
  watchReplicas,
} from './testing/celld-fixtures.js';
import { REPO_ROOT } from './testing/cluster.js';
import { lines, pollUntil } from './testing/kubectl-fixtures.js';

const EXAMPLE = join(REPO_ROOT, 'examples', 'celld-persistent-fleet.yaml');
const NS = 'default';
const NAME = 'orders';
const REPLICAS = 5;
const RESTART_TOKEN = 'celld.fleetyard.dev/restart-token';

const env = fleetEnvForFile(['--nodes=6', '--zones=a,b,c']);

/**
 * A member is down while its pod is terminating or not Ready (docs/design/operator.md §6); an
 * absent one is not counted.
 */
function downMembers(pods: readonly V1Pod[]): string[] {
  return pods.filter((p) => !isReady(p)).map((p) => p.metadata?.name ?? '');
}

/** The roll invariant: never more than one member down at any observed moment. */
function atMostOneDown(pods: readonly V1Pod[]): string | undefined {
  const down = downMembers(pods);
  return down.length > 1 ? `${down.length} members down at once: ${down.join(', ')}` : undefined;
}

/** Waits until every member's pod is new (not in `before`), Ready, and passes `check`. */
async function waitAllReplaced(
  e: FleetEnv,
  before: Record<string, string>,
  check: (p: V1Pod) => boolean,
): Promise<V1Pod[]> {
  return pollUntil(
    'every member replaced and Ready',
    async () => {
      const pods = await memberPods(e, NS, NAME);
      const done =
        pods.length === REPLICAS &&
        pods.every((p) => isReady(p) && before[p.metadata?.name ?? ''] !== p.metadata?.uid) &&
        pods.every(check);
      return done ? pods : undefined;
    },
    40_000,
    100,
  );
}

/** The created order as ordinals, each ordinal's first re-creation only. */
function rollOrder(w: PodWatch): number[] {
  const out: number[] = [];
  for (const c of w.created) {
    const o = ordinalOf({ metadata: { name: c.name } });
    if (!out.includes(o)) out.push(o);
  }
  return out;
}

/** Runs one roll: applies `change`, and proves it went one member at a time on the same disks. */
async function rollAndCheck(
  e: FleetEnv,
  change: () => Promise<unknown>,
  check: (p: V1Pod) => boolean,
): Promise<void> {
  const podsBefore = uids(await memberPods(e, NS, NAME));
  const claimsBefore = uids(await fleetClaims(e, NS, NAME));
  const watch = await watchPods(e, NS, NAME, atMostOneDown);
  try {
    await change();
    await waitAllReplaced(e, podsBefore, check);
    await waitReady(e, NS, NAME);
  } finally {
    await watch.stop();
  }
  assert.deepEqual(watch.violations, [], 'a roll took two members down at once');
  // StatefulSet RollingUpdate: highest ordinal first.
  assert.deepEqual(rollOrder(watch), [4, 3, 2, 1, 0]);
  assert.deepEqual(uids(await fleetClaims(e, NS, NAME)), claimsBefore, 'a claim was replaced');
}

describe('a PersistentFleet from the example', () => {
  let originalClaims: Record<string, string> = {};

  it('reaches Ready and kubectl get cf prints its columns', async () => {
    const e = env();
    await e.k.ok(['apply', '-f', EXAMPLE]);
    await waitReady(e, NS, NAME, 30_000);
    const table = lines(await e.k.ok(['get', 'cf', NAME, '-n', NS]));
    assert.match(table[0] ?? '', /^NAME\s+PROFILE\s+REPLICAS\s+READY\s+STATE\s+AGE$/);
    assert.match(table[1] ?? '', /^orders\s+PersistentFleet\s+5\s+5\s+Ready\s+\d+s$/);
  });

  it('has RWOP claims data-orders-<n> on the Delete/WaitForFirstConsumer CSI class', async () => {
    const e = env();
    const claims = await fleetClaims(e, NS, NAME);
    assert.deepEqual(
      claims.map((c) => c.metadata?.name).sort(),
      [0, 1, 2, 3, 4].map((n) => `data-orders-${n}`),
    );
    for (const c of claims) {
      assert.deepEqual(c.spec?.accessModes, ['ReadWriteOncePod']);
      assert.equal(c.spec?.storageClassName, 'ebs');
      assert.equal(c.status?.phase, 'Bound');
      const pv = await e.core.readPersistentVolume({ name: c.spec?.volumeName ?? '' });
      assert.equal(pv.spec?.persistentVolumeReclaimPolicy, 'Delete');
      assert.equal(pv.spec?.csi?.driver, 'ebs.csi.aws.com');
    }
    originalClaims = uids(claims);
    const sc = JSON.parse(await e.k.ok(['get', 'storageclass', 'ebs', '-o', 'json'])) as {
      provisioner: string;
      reclaimPolicy: string;
      volumeBindingMode: string;
    };
    assert.equal(sc.provisioner, 'ebs.csi.aws.com');
    assert.equal(sc.reclaimPolicy, 'Delete');
    assert.equal(sc.volumeBindingMode, 'WaitForFirstConsumer');
  });

  it('runs a Parallel RollingUpdate StatefulSet (partition 0, Retain/Retain) with CELLD_DURABILITY=fleet', async () => {
    const e = env();
    const sts = await statefulSet(e, NS, NAME);
    assert.ok(sts, 'no StatefulSet orders');
    assert.equal(sts.spec?.podManagementPolicy, 'Parallel');
    assert.equal(sts.spec?.serviceName, 'orders-peers');
    assert.equal(sts.spec?.updateStrategy?.type, 'RollingUpdate');
    assert.equal(sts.spec?.updateStrategy?.rollingUpdate?.partition, 0);
    const retention = sts.spec?.persistentVolumeClaimRetentionPolicy;
    assert.equal(retention?.whenDeleted, 'Retain');
    assert.equal(retention?.whenScaled, 'Retain');
    const template = sts.spec?.volumeClaimTemplates?.[0];
    assert.equal(template?.metadata?.name, 'data');
    assert.deepEqual(template?.spec?.accessModes, ['ReadWriteOncePod']);
    assert.equal(template?.spec?.storageClassName, 'ebs');
    const env0 = sts.spec?.template.spec?.containers[0]?.env ?? [];
    assert.equal(env0.find((v) => v.name === 'CELLD_DURABILITY')?.value, 'fleet');
  });

  it('has Services orders and orders-peers, a NetworkPolicy and a PDB with maxUnavailable 1', async () => {
    const e = env();
    const svc = await e.core.readNamespacedService({ name: NAME, namespace: NS });
    assert.equal(svc.spec?.type, 'ClusterIP');
    assert.deepEqual(
      svc.spec?.ports?.map((p) => p.port),
      [8080],
    );
    const peers = await e.core.readNamespacedService({ name: 'orders-peers', namespace: NS });
    assert.equal(peers.spec?.clusterIP, 'None');
    assert.equal(peers.spec?.publishNotReadyAddresses, true);
    assert.equal(peers.spec?.ports?.[0]?.port, 8081);
    assert.equal(peers.spec?.ports?.[0]?.appProtocol, 'tcp');
    const np = JSON.parse(await e.k.ok(['get', 'networkpolicy', NAME, '-n', NS, '-o', 'json'])) as {
      spec: { podSelector: { matchLabels?: Record<string, string> } };
    };
    assert.equal(np.spec.podSelector.matchLabels?.['celld.fleetyard.dev/fleet'], NAME);
    const pdb = JSON.parse(await e.k.ok(['get', 'pdb', NAME, '-n', NS, '-o', 'json'])) as {
      spec: { maxUnavailable?: number | string };
    };
    assert.equal(pdb.spec.maxUnavailable, 1);
  });

  it('restarts on restartToken one member at a time, highest first, on the same claims', async () => {
    const e = env();
    await rollAndCheck(
      e,
      () => patchFleet(e, NS, NAME, { maintenance: { restartToken: 'r1' } }),
      (p) => p.metadata?.annotations?.[RESTART_TOKEN] === 'r1',
    );
  });

  it('upgrades runtimeImage one member at a time, highest first, on the same claims', async () => {
    const e = env();
    await rollAndCheck(
      e,
      () => patchFleet(e, NS, NAME, { runtimeImage: IMAGE_V2 }),
      (p) => p.spec?.containers[0]?.image === IMAGE_V2,
    );
    assert.deepEqual(uids(await fleetClaims(e, NS, NAME)), originalClaims);
  });

  it('scales in 5 → 3 one highest ordinal at a time and keeps the removed claims', async () => {
    const e = env();
    const replicas = await watchReplicas(e, NS, NAME);
    const watch = await watchPods(e, NS, NAME, atMostOneDown);
    try {
      await e.k.ok(['scale', 'cf', NAME, '-n', NS, '--replicas=3']);
      await waitReady(e, NS, NAME);
      await pollUntil('3 member pods', async () =>
        (await memberPods(e, NS, NAME)).length === 3 ? true : undefined,
      );
    } finally {
      await watch.stop();
      await replicas.stop();
    }
    assert.deepEqual(watch.violations, []);
    assert.deepEqual(
      replicas.history,
      [5, 4, 3],
      'the StatefulSet did not shrink one step at a time',
    );
    assert.deepEqual((await memberPods(e, NS, NAME)).map((p) => p.metadata?.name).sort(), [
      'orders-0',
      'orders-1',
      'orders-2',
    ]);
    // whenScaled: Retain and no operator delete: every claim, with its uid.
    assert.deepEqual(uids(await fleetClaims(e, NS, NAME)), originalClaims);
  });

  it('grows back to 5 on the same claims', async () => {
    const e = env();
    await e.k.ok(['scale', 'cf', NAME, '-n', NS, '--replicas=5']);
    await waitReady(e, NS, NAME);
    const claims = await fleetClaims(e, NS, NAME);
    assert.deepEqual(uids(claims), originalClaims);
    const pods = await memberPods(e, NS, NAME);
    assert.equal(pods.length, 5);
    for (const p of pods) {
      const volume = p.spec?.volumes?.find((v) => v.name === 'data');
      assert.equal(volume?.persistentVolumeClaim?.claimName, `data-${p.metadata?.name}`);
    }
  });

  it('maintenance.paused stops workload writes; unpausing resumes them', async () => {
    const e = env();
    const patch = (maintenance: Record<string, unknown>) =>
      patchFleet(e, NS, NAME, { maintenance });
    await patch({ paused: true });
    await waitFleet(
      e,
      NS,
      NAME,
      'Paused',
      (f) => f.status?.state === 'Paused' && condition(f, 'MaintenancePaused')?.status === 'True',
    );
    const before = await statefulSet(e, NS, NAME);
    await e.k.ok(['scale', 'cf', NAME, '-n', NS, '--replicas=4']);
    await patch({ paused: true, restartToken: 'r2' });
    const paused = await waitFleet(
      e,
      NS,
      NAME,
      'still Paused at generation',
      (f) => condition(f, 'MaintenancePaused')?.status === 'True',
    );
    assert.equal(paused.spec.replicas, 4);
    // Give a writing operator ample time to act, then prove it did not.
    await sleep(3_000);
    const after = await statefulSet(e, NS, NAME);
    // The StatefulSet controller may still write status; the spec is the operator's alone.
    assert.equal(after?.metadata?.generation, before?.metadata?.generation);
    assert.equal(after?.spec?.replicas, 5);
    assert.equal(after?.spec?.template.metadata?.annotations?.[RESTART_TOKEN], 'r1');
    assert.equal((await memberPods(e, NS, NAME)).length, 5);

    await patch({ paused: false });
    const resumed = await waitReady(e, NS, NAME, 40_000);
    assert.equal(condition(resumed, 'MaintenancePaused')?.status, 'False');
    const sts = await statefulSet(e, NS, NAME);
    assert.equal(sts?.spec?.replicas, 4);
    assert.equal(sts?.spec?.template.metadata?.annotations?.[RESTART_TOKEN], 'r2');
    const claims = await fleetClaims(e, NS, NAME);
    assert.deepEqual(uids(claims), originalClaims, 'scale-in under a resumed fleet kept claims');
  });
});
