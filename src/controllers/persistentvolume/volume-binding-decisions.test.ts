import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  StorageClass,
} from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import type { FilterStatus } from '../../scheduler/types.js';
import { VOLUME_REASONS } from '../../scheduler/volume-binding-hook.js';
import { claim, node, storageClass, volume } from './testing/fixtures.js';
import {
  filterVolumes,
  findPodVolumes,
  podClaims,
  preFilterVolumes,
  type StorageSnapshot,
  VOLUME_MESSAGES,
} from './volume-binding-decisions.js';
import { type BindingProgress, checkBindings } from './volume-binding-progress.js';

const BOUND = { 'pv.kubernetes.io/bind-completed': 'yes' };
const NODES = {
  a: node('node-a', 'local-a'),
  b: node('node-b', 'local-b'),
  c: node('node-c', 'local-c'),
};

function pod(name: string, claims: string[], nodeName?: string, phase = 'Running'): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: {
      ...(nodeName ? { nodeName } : {}),
      containers: [{ name: 'c', image: 'x' }],
      volumes: claims.map((c, i) => ({ name: `v${i}`, persistentVolumeClaim: { claimName: c } })),
    },
    status: { phase },
  };
}

/** The two drivers the simulated cluster has (`src/sim/storage/provisioning.ts`). */
const CSI_DRIVERS = new Map([
  ['hostpath.csi.k8s.io', { topologyKey: 'kubernetes.io/hostname' }],
  ['ebs.csi.aws.com', { topologyKey: 'topology.kubernetes.io/zone' }],
]);

function snapshot(
  objs: {
    claims?: PersistentVolumeClaim[];
    volumes?: PersistentVolume[];
    classes?: StorageClass[];
    pods?: Pod[];
  } = {},
): StorageSnapshot {
  const name = (o: KubeObject) => o.metadata?.name ?? '';
  return {
    claim: (_ns, n) => objs.claims?.find((c) => name(c) === n),
    volume: (n) => objs.volumes?.find((v) => name(v) === n),
    volumes: () => objs.volumes ?? [],
    storageClass: (n) => objs.classes?.find((c) => name(c) === n),
    csiDriver: (provisioner) => CSI_DRIVERS.get(provisioner),
    claimUsers: (_ns, n) =>
      (objs.pods ?? []).filter((p) =>
        (p.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === n),
      ),
  };
}

function hostVolume(name: string, host: string, extra: Parameters<typeof volume>[0] = { name }) {
  const pv = volume({ ...extra, name });
  (pv.spec as Record<string, unknown>).nodeAffinity = {
    required: {
      nodeSelectorTerms: [
        { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [host] }] },
      ],
    },
  };
  return pv;
}

const unresolvable = (reason: string): FilterStatus => ({
  code: 'UnschedulableAndUnresolvable',
  reasons: [reason],
});

describe('preFilterVolumes', () => {
  const cases: { name: string; snap: StorageSnapshot; want: FilterStatus | null }[] = [
    {
      name: 'missing claim',
      snap: snapshot(),
      want: unresolvable('persistentvolumeclaim "data" not found'),
    },
    {
      name: 'claim being deleted',
      snap: snapshot({
        claims: [
          {
            ...claim(),
            metadata: { ...claim().metadata, deletionTimestamp: '2024-06-01T00:00:00Z' },
          },
        ],
      }),
      want: unresolvable('persistentvolumeclaim "data" is being deleted'),
    },
    {
      name: 'lost claim',
      snap: snapshot({ claims: [claim({ phase: 'Lost', volumeName: 'gone' })] }),
      want: unresolvable(
        'persistentvolumeclaim "data" bound to non-existent persistentvolume "gone"',
      ),
    },
    {
      name: 'unbound claim of an Immediate class',
      snap: snapshot({ claims: [claim({ className: 'gp3' })], classes: [storageClass('gp3')] }),
      want: unresolvable(VOLUME_REASONS.unboundImmediateClaims),
    },
    {
      name: 'unbound claim without a class is Immediate',
      snap: snapshot({ claims: [claim({ className: '' })] }),
      want: unresolvable(VOLUME_REASONS.unboundImmediateClaims),
    },
    {
      name: 'unbound WaitForFirstConsumer claim waits for the node',
      snap: snapshot({
        claims: [claim({ className: 'gp3' })],
        classes: [storageClass('gp3', { wffc: true })],
      }),
      want: null,
    },
    {
      name: 'bound claim',
      snap: snapshot({
        claims: [claim({ volumeName: 'pv1', annotations: BOUND, phase: 'Bound' })],
      }),
      want: null,
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(preFilterVolumes(pod('p', ['data']), c.snap), c.want));
  }
});

describe('filterVolumes', () => {
  const boundTo = (pv: string, name = 'data', modes?: string[]) =>
    claim({
      name,
      volumeName: pv,
      annotations: BOUND,
      phase: 'Bound',
      ...(modes ? { modes } : {}),
    });
  const cases: {
    name: string;
    pod?: Pod;
    snap: StorageSnapshot;
    podsOnNode?: Pod[];
    want: Record<keyof typeof NODES, FilterStatus | null>;
  }[] = [
    {
      name: 'zone pinning: a claim bound to a PV in local-b fits only local-b',
      snap: snapshot({
        claims: [boundTo('pv1')],
        volumes: [volume({ name: 'pv1', zone: 'local-b' })],
      }),
      want: {
        a: unresolvable(VOLUME_REASONS.nodeAffinityConflict),
        b: null,
        c: unresolvable(VOLUME_REASONS.nodeAffinityConflict),
      },
    },
    {
      name: 'node-local PV fits only its node',
      snap: snapshot({ claims: [boundTo('pv1')], volumes: [hostVolume('pv1', 'node-c')] }),
      want: {
        a: unresolvable(VOLUME_REASONS.nodeAffinityConflict),
        b: unresolvable(VOLUME_REASONS.nodeAffinityConflict),
        c: null,
      },
    },
    {
      name: 'bound to a PV that does not exist',
      snap: snapshot({ claims: [boundTo('pv1')] }),
      want: {
        a: unresolvable(VOLUME_MESSAGES.pvNotExist),
        b: unresolvable(VOLUME_MESSAGES.pvNotExist),
        c: unresolvable(VOLUME_MESSAGES.pvNotExist),
      },
    },
    {
      name: 'WFFC zonal provisioning limited by allowedTopologies',
      snap: snapshot({
        claims: [claim({ className: 'ebs' })],
        classes: [storageClass('ebs', { wffc: true, allowedZones: ['local-a', 'local-b'] })],
      }),
      want: { a: null, b: null, c: unresolvable(VOLUME_REASONS.noPersistentVolumes) },
    },
    {
      name: 'WFFC node-local provisioning fits every node',
      snap: snapshot({
        claims: [claim({ className: 'hp' })],
        classes: [storageClass('hp', { wffc: true, provisioner: 'hostpath.csi.k8s.io' })],
      }),
      want: { a: null, b: null, c: null },
    },
    {
      name: 'WFFC static PVs only (no provisioner): the node must fit an Available PV',
      snap: snapshot({
        claims: [claim({ className: 'local' })],
        classes: [
          storageClass('local', { wffc: true, provisioner: 'kubernetes.io/no-provisioner' }),
        ],
        volumes: [volume({ name: 'pv-a', zone: 'local-a', className: 'local' })],
      }),
      want: {
        a: null,
        b: unresolvable(VOLUME_REASONS.noPersistentVolumes),
        c: unresolvable(VOLUME_REASONS.noPersistentVolumes),
      },
    },
    {
      name: 'WFFC claim already handed to the provisioner for node-b fits only node-b',
      snap: snapshot({
        claims: [
          claim({
            className: 'ebs',
            annotations: { 'volume.kubernetes.io/selected-node': 'node-b' },
          }),
        ],
        classes: [storageClass('ebs', { wffc: true })],
      }),
      want: {
        a: unresolvable(VOLUME_REASONS.noPersistentVolumes),
        b: null,
        c: unresolvable(VOLUME_REASONS.noPersistentVolumes),
      },
    },
    {
      name: 'RWOP claim used by a scheduled pod elsewhere: Unschedulable everywhere',
      snap: snapshot({
        claims: [boundTo('pv1', 'data', ['ReadWriteOncePod'])],
        volumes: [volume({ name: 'pv1', modes: ['ReadWriteOncePod'] })],
        pods: [pod('holder', ['data'], 'node-a')],
      }),
      want: {
        a: { code: 'Unschedulable', reasons: [VOLUME_REASONS.readWriteOncePodInUse] },
        b: { code: 'Unschedulable', reasons: [VOLUME_REASONS.readWriteOncePodInUse] },
        c: { code: 'Unschedulable', reasons: [VOLUME_REASONS.readWriteOncePodInUse] },
      },
    },
    {
      name: 'RWOP claim whose only user is the pod itself',
      snap: snapshot({
        claims: [boundTo('pv1', 'data', ['ReadWriteOncePod'])],
        volumes: [volume({ name: 'pv1', modes: ['ReadWriteOncePod'] })],
        pods: [pod('p', ['data'], 'node-a')],
      }),
      want: { a: null, b: null, c: null },
    },
    {
      name: 'RWO claim may be shared by pods',
      snap: snapshot({
        claims: [boundTo('pv1')],
        volumes: [volume({ name: 'pv1' })],
        pods: [pod('other', ['data'], 'node-a')],
      }),
      want: { a: null, b: null, c: null },
    },
    {
      name: 'legacy zone label on the PV (VolumeZone)',
      snap: snapshot({
        claims: [boundTo('pv1')],
        volumes: [
          volume({ name: 'pv1', labels: { 'topology.kubernetes.io/zone': 'local-a__local-c' } }),
        ],
      }),
      want: { a: null, b: unresolvable(VOLUME_MESSAGES.volumeZoneConflict), c: null },
    },
    {
      name: 'pod without claims',
      pod: pod('p', []),
      snap: snapshot(),
      want: { a: null, b: null, c: null },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = Object.fromEntries(
        Object.entries(NODES).map(([k, n]) => [
          k,
          filterVolumes(c.pod ?? pod('p', ['data']), n, c.podsOnNode ?? [], c.snap),
        ]),
      );
      assert.deepEqual(got, c.want);
    });
  }

  it('RWOP: an assumed pod on the node counts too', () => {
    const snap = snapshot({
      claims: [boundTo('pv1', 'data', ['ReadWriteOncePod'])],
      volumes: [volume({ name: 'pv1', modes: ['ReadWriteOncePod'] })],
    });
    const got = filterVolumes(
      pod('p', ['data']),
      NODES.a,
      [pod('assumed', ['data'], 'node-a')],
      snap,
    );
    assert.equal(got?.code, 'Unschedulable');
  });
});

describe('findPodVolumes', () => {
  const cls = storageClass('ebs', { wffc: true });
  it('pre-binds the smallest matching Available PV and provisions the rest', () => {
    const small = claim({ name: 'small', uid: 'u1', size: '1Gi', className: 'ebs' });
    const big = claim({ name: 'big', uid: 'u2', size: '50Gi', className: 'ebs' });
    const snap = snapshot({
      claims: [small, big],
      classes: [cls],
      volumes: [
        volume({ name: 'pv-5', size: '5Gi', zone: 'local-a', className: 'ebs' }),
        volume({ name: 'pv-2', size: '2Gi', zone: 'local-a', className: 'ebs' }),
        volume({ name: 'pv-b', size: '1Gi', zone: 'local-b', className: 'ebs' }),
      ],
    });
    const claims = podClaims(pod('p', ['small', 'big']), snap);
    assert.ok(!('code' in claims));
    const got = findPodVolumes(claims, NODES.a, snap);
    assert.ok('plan' in got);
    assert.deepEqual(
      got.plan.bindings.map((b) => [b.claim.metadata?.name, b.pv.metadata?.name]),
      [['small', 'pv-2']],
    );
    assert.deepEqual(
      got.plan.provisions.map((c) => c.metadata?.name),
      ['big'],
    );
  });
});

describe('checkBindings', () => {
  const sel = { 'volume.kubernetes.io/selected-node': 'node-a' };
  const pending = claim({ className: 'ebs', annotations: sel });
  const plan = { bindings: [], provisions: [pending] };
  const cases: { name: string; snap: StorageSnapshot; want: BindingProgress }[] = [
    {
      name: 'provisioner still working',
      snap: snapshot({ claims: [pending] }),
      want: { done: false },
    },
    {
      name: 'provisioner gave up: annotation removed',
      snap: snapshot({ claims: [claim({ className: 'ebs' })] }),
      want: { error: 'provisioning failed for PVC "data"' },
    },
    {
      name: 'bound to a PV in the node zone',
      snap: snapshot({
        claims: [claim({ className: 'ebs', annotations: { ...sel, ...BOUND }, volumeName: 'pv1' })],
        volumes: [volume({ name: 'pv1', zone: 'local-a' })],
      }),
      want: { done: true },
    },
    {
      name: 'bound to a PV of another zone',
      snap: snapshot({
        claims: [claim({ className: 'ebs', annotations: { ...sel, ...BOUND }, volumeName: 'pv1' })],
        volumes: [volume({ name: 'pv1', zone: 'local-c' })],
      }),
      want: {
        error: 'pv "pv1" node affinity doesn\'t match node "node-a": no matching NodeSelectorTerms',
      },
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(checkBindings(plan, NODES.a, c.snap), c.want));
  }

  it('a pre-bound PV whose claimRef was reset fails', () => {
    const pv = volume({ name: 'pv1' });
    const got = checkBindings(
      { bindings: [{ claim: claim(), pv }], provisions: [] },
      NODES.a,
      snapshot({ claims: [claim()], volumes: [pv] }),
    );
    assert.deepEqual(got, { error: 'ClaimRef got reset for pv "pv1"' });
  });
});
