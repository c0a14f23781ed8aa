/**
 * Table tests for `desiredReservation` and `judgeReservation`: create when absent; ours when the
 * UID, name, bucket and settings hash match; `StorageScopeConflict` for another fleet, a
 * recreated fleet (same name, new UID), changed immutable settings, or a reservation that is
 * owned or being deleted; and the create race (judge the winner's object again).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { desiredReservation, judgeReservation } from './judge.js';
import { reservationName } from './name.js';
import { immutableSettingsHash } from './settings-hash.js';
import type { ReservationFleet, StorageReservation } from './types.js';

function fleet(
  over: { uid?: string; name?: string; namespace?: string; spec?: Record<string, unknown> } = {},
): ReservationFleet {
  return {
    metadata: {
      name: over.name ?? 'web',
      namespace: over.namespace ?? 'apps',
      uid: over.uid ?? 'uid-1',
    },
    spec: {
      profile: 'PersistentFleet',
      serviceAccountName: 'celld',
      storage: { bucket: 'celld-data', region: 'us-east-1', storageClassName: 'ebs', sizeGiB: 10 },
      placement: { zones: ['us-east-1a'], mode: 'Strict' },
      ...over.spec,
    },
  };
}
/** The reservation as the API would return it after `desiredReservation(f)` was created. */
function stored(f: ReservationFleet, meta: Record<string, unknown> = {}): StorageReservation {
  const d = desiredReservation(f);
  return { ...d, metadata: { ...d.metadata, uid: 'r-1', resourceVersion: '9', ...meta } };
}

describe('desiredReservation', () => {
  it('binds the bucket scope to the fleet UID and its settings hash; no labels, no owners', () => {
    const f = fleet();
    assert.deepEqual(desiredReservation(f), {
      apiVersion: 'celld.fleetyard.dev/v1alpha1',
      kind: 'CelldStorageReservation',
      metadata: { name: reservationName('celld-data', 'us-east-1') },
      spec: {
        bucket: 'celld-data',
        region: 'us-east-1',
        fleetNamespace: 'apps',
        fleetName: 'web',
        fleetUID: 'uid-1',
        specHash: immutableSettingsHash(f.spec),
        initialReplicas: 3,
      },
    });
  });
  it('records a custom endpoint and names the reservation after it', () => {
    const endpoint = { url: 'https://minio:9000', credentialsSecretName: 's3' };
    const d = desiredReservation(
      fleet({ spec: { storage: { bucket: 'b', region: 'x', endpoint } } }),
    );
    assert.equal(d.spec.endpoint, 'https://minio:9000');
    assert.equal(d.metadata.name, reservationName('b', 'x', 'https://minio:9000'));
  });
  it('refuses a fleet without a UID', () => {
    assert.throws(() => desiredReservation(fleet({ uid: '' })), TypeError);
  });
});

describe('judgeReservation', () => {
  const mine = fleet();
  const cases: Array<{
    name: string;
    existing: StorageReservation | undefined;
    fleet?: ReservationFleet;
    want: string;
    detail?: RegExp;
  }> = [
    { name: 'none yet: create', existing: undefined, want: 'create' },
    { name: 'our own: ours', existing: stored(mine), want: 'ours' },
    {
      name: 'ours after a mutable change (replicas, image, maintenance)',
      existing: stored(mine),
      fleet: fleet({ spec: { replicas: 9, runtimeImage: 'i', maintenance: { paused: true } } }),
      want: 'ours',
    },
    {
      name: 'another fleet on the same bucket',
      existing: stored(fleet({ uid: 'uid-9', name: 'other', namespace: 'team-b' })),
      want: 'conflict',
      detail: /reserved to fleet team-b\/other UID uid-9, not apps\/web UID uid-1/,
    },
    {
      name: 'a recreated fleet (same namespace and name, new UID) adopts nothing',
      existing: stored(fleet({ uid: 'uid-0' })),
      want: 'conflict',
      detail: /reserved to fleet apps\/web UID uid-0, not apps\/web UID uid-1/,
    },
    {
      name: 'another fleet naming the same AWS bucket in another region',
      existing: stored(
        fleet({ uid: 'uid-9', spec: { storage: { bucket: 'celld-data', region: 'eu-west-1' } } }),
      ),
      want: 'conflict',
      detail: /UID uid-9/,
    },
    {
      name: 'same UID, immutable settings changed (CEL bypassed or an older schema)',
      existing: stored(fleet({ spec: { placement: { zones: ['us-east-1b'], mode: 'Strict' } } })),
      want: 'conflict',
      detail: /immutable settings differ/,
    },
    {
      name: 'being deleted',
      existing: stored(mine, { deletionTimestamp: '2026-01-01T00:00:00Z' }),
      want: 'conflict',
      detail: /being deleted/,
    },
    {
      name: 'owned by something (a garbage collector could take it)',
      existing: stored(mine, {
        ownerReferences: [{ apiVersion: 'v1', kind: 'Namespace', name: 'apps', uid: 'n' }],
      }),
      want: 'conflict',
      detail: /owner references/,
    },
    {
      name: 'a malformed reservation (no spec)',
      existing: { metadata: { name: desiredReservation(mine).metadata.name } },
      want: 'conflict',
    },
    {
      name: 'an object under another name',
      existing: { ...stored(mine), metadata: { name: 's3-other' } },
      want: 'conflict',
      detail: /named s3-other/,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = judgeReservation(c.existing, c.fleet ?? mine);
      assert.equal(got.kind, c.want);
      if (got.kind === 'create') assert.deepEqual(got.object, desiredReservation(c.fleet ?? mine));
      if (got.kind === 'conflict') {
        assert.equal(got.reason, 'StorageScopeConflict');
        assert.match(
          got.message,
          /^Bucket celld-data is permanently reserved to another fleet UID or immutable configuration; no resources adopted \(reservation s3-[0-9a-f]{56}: /,
        );
        if (c.detail) assert.match(got.message, c.detail);
      }
    });
  }

  it('the create race: the loser re-reads the winner’s object and is refused', () => {
    const a = fleet({ uid: 'uid-a', name: 'a' });
    const b = fleet({ uid: 'uid-b', name: 'b' });
    const planA = judgeReservation(undefined, a);
    const planB = judgeReservation(undefined, b);
    assert.ok(planA.kind === 'create' && planB.kind === 'create');
    assert.equal(planA.object.metadata.name, planB.object.metadata.name);
    // The API server admits A's create; B gets AlreadyExists, re-reads and judges again.
    const winner = stored(a);
    assert.equal(judgeReservation(winner, a).kind, 'ours');
    assert.equal(judgeReservation(winner, b).kind, 'conflict');
  });
});
