/**
 * Bucket fleets on a real `fleetyard up --nodes 3` (one node per zone), from
 * `examples/celld-bucket-fleet.yaml` with kubectl 1.33 (docs/design/operator-api.md §3):
 * - the example as written (a Deployment fleet) reaches Ready on a Deployment with
 *   RollingUpdate maxUnavailable 1 / maxSurge 0, an emptyDir data volume,
 *   `CELLD_DURABILITY=bucket` and `CELLD_NODE` from the pod's UID, and no claims;
 * - the same with `bucketWorkload: Ordered` reaches Ready on a claim-less StatefulSet whose
 *   pods start scheduling-gated; the operator pins member n to zone `zones[n % 3]` and lifts
 *   the gate, so each member runs in its zone;
 * - deleting either fleet removes its workload, pods, Services, NetworkPolicy and PDB.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { V1Container, V1PodSpec } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import {
  apply,
  type FleetEnv,
  fleetClaims,
  fleetEnvForFile,
  type Manifest,
  memberPods,
  ordinalOf,
  statefulSet,
  waitReady,
  ZONE_LABEL,
  ZONES,
} from './testing/celld-fixtures.js';
import { REPO_ROOT } from './testing/cluster.js';

const EXAMPLE = join(REPO_ROOT, 'examples', 'celld-bucket-fleet.yaml');
const NS = 'default';
const GATE = 'celld.fleetyard.dev/bucket-zone';

const env = fleetEnvForFile(['--nodes=3', '--zones=a,b,c']);

function exampleObjects(): Manifest[] {
  return parseAllDocuments(readFileSync(EXAMPLE, 'utf8')).map((d) => d.toJS() as Manifest);
}

/** The example's fleet renamed, on its own bucket, with `bucketWorkload: Ordered`. */
function orderedFleet(name: string): Manifest {
  const f = exampleObjects().find((o) => o.kind === 'CelldFleet');
  assert.ok(f?.spec);
  const storage = f.spec.storage as Record<string, unknown>;
  return {
    ...f,
    metadata: { name, namespace: NS },
    spec: { ...f.spec, bucketWorkload: 'Ordered', storage: { ...storage, bucket: `${name}-data` } },
  };
}

function envOf(c: V1Container | undefined, name: string) {
  return c?.env?.find((v) => v.name === name);
}

/** What every Bucket member's pod spec carries, whichever the workload. */
function assertBucketPod(spec: V1PodSpec | undefined): void {
  const c = spec?.containers[0];
  assert.equal(envOf(c, 'CELLD_DURABILITY')?.value, 'bucket');
  assert.equal(envOf(c, 'CELLD_NODE')?.valueFrom?.fieldRef?.fieldPath, 'metadata.uid');
  const data = spec?.volumes?.find((v) => v.emptyDir !== undefined);
  assert.ok(data, 'no emptyDir data volume');
  assert.equal(
    spec?.volumes?.some((v) => v.persistentVolumeClaim !== undefined),
    false,
  );
}

/** Deletes the fleet (waiting for it to go) and checks none of its children is left. */
async function deleteAndCheck(e: FleetEnv, name: string, workloadKind: string): Promise<void> {
  await e.k.ok(['delete', 'cf', name, '-n', NS, '--wait=true'], { timeoutMs: 30_000 });
  const left = await e.k.ok([
    'get',
    `${workloadKind},pods,services,networkpolicies,poddisruptionbudgets`,
    '-n',
    NS,
    '-l',
    `celld.fleetyard.dev/fleet=${name}`,
    '-o',
    'name',
  ]);
  assert.equal(left, '', `children of ${name} left behind:\n${left}`);
  for (const kind of [workloadKind, 'service', 'networkpolicy', 'pdb']) {
    const r = await e.k.run(['get', kind, name, '-n', NS]);
    assert.notEqual(r.code, 0, `${kind} ${name} still exists`);
  }
}

describe('a Bucket fleet on a Deployment (the example)', () => {
  it('reaches Ready on a maxUnavailable 1 / maxSurge 0 Deployment with emptyDir members', async () => {
    const e = env();
    await e.k.ok(['apply', '-f', EXAMPLE]);
    await waitReady(e, NS, 'events', 30_000);
    const d = await e.apps.readNamespacedDeployment({ name: 'events', namespace: NS });
    assert.equal(d.spec?.replicas, 3);
    assert.equal(d.spec?.strategy?.type, 'RollingUpdate');
    assert.equal(d.spec?.strategy?.rollingUpdate?.maxUnavailable, 1);
    assert.equal(d.spec?.strategy?.rollingUpdate?.maxSurge, 0);
    assertBucketPod(d.spec?.template.spec);
    assert.equal(await statefulSet(e, NS, 'events'), undefined);
    assert.deepEqual(await fleetClaims(e, NS, 'events'), []);
    const pods = await memberPods(e, NS, 'events');
    assert.equal(pods.length, 3);
    for (const p of pods) assertBucketPod(p.spec);
  });

  it('deleting it removes its Deployment, pods, Services, NetworkPolicy and PDB', async () => {
    await deleteAndCheck(env(), 'events', 'deployment');
  });
});

describe('an Ordered Bucket fleet', () => {
  const name = 'ranks';

  it('reaches Ready with member n ungated and pinned to zone zones[n % 3]', async () => {
    const e = env();
    const sa = exampleObjects().find((o) => o.kind === 'ServiceAccount');
    assert.ok(sa);
    await apply(e, sa, orderedFleet(name));
    await waitReady(e, NS, name, 30_000);
    const sts = await statefulSet(e, NS, name);
    assert.ok(sts, 'no StatefulSet');
    assert.equal(sts.spec?.serviceName, `${name}-peers`);
    assert.equal(sts.spec?.podManagementPolicy, 'Parallel');
    assert.equal(sts.spec?.updateStrategy?.rollingUpdate?.partition ?? 0, 0);
    assert.equal(sts.spec?.persistentVolumeClaimRetentionPolicy?.whenScaled, 'Retain');
    assert.equal(sts.spec?.persistentVolumeClaimRetentionPolicy?.whenDeleted, 'Retain');
    assert.equal(sts.spec?.volumeClaimTemplates?.length ?? 0, 0);
    // The template is gated: no member schedules before the operator has pinned its zone.
    assert.deepEqual(
      sts.spec?.template.spec?.schedulingGates?.map((g) => g.name),
      [GATE],
    );
    assertBucketPod(sts.spec?.template.spec);
    const pods = await memberPods(e, NS, name);
    assert.equal(pods.length, 3);
    for (const p of pods) {
      const zone = ZONES[ordinalOf(p) % ZONES.length];
      assert.deepEqual(p.spec?.schedulingGates ?? [], [], `${p.metadata?.name} is still gated`);
      assert.equal(p.spec?.nodeSelector?.[ZONE_LABEL], zone);
      const node = await e.core.readNode({ name: p.spec?.nodeName ?? '' });
      assert.equal(node.metadata?.labels?.[ZONE_LABEL], zone, `${p.metadata?.name} runs elsewhere`);
    }
    assert.deepEqual(await fleetClaims(e, NS, name), []);
  });

  it('deleting it removes its StatefulSet, pods, Services, NetworkPolicy and PDB', async () => {
    await deleteAndCheck(env(), name, 'statefulset');
  });
});
