/**
 * Claim and volume state transitions (a table of observed objects → plan) and a property: a binding plan never binds one volume to two
 * claims, nor a volume that cannot serve the claim.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  asKind,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type StorageClass,
} from '../../api/model/index.js';
import { planClaim } from './claim-sync.js';
import { claim, NOW, storageClass, volume } from './testing/fixtures.js';
import { planVolume } from './volume-sync.js';
import { accessModesSatisfy, capacityBytes, requestedBytes } from './volume-util.js';

// biome-ignore lint/suspicious/noExplicitAny: a test reads nested spec fields directly.
type SpecView = Record<string, any>;
const BOUND = { 'pv.kubernetes.io/bind-completed': 'yes' };

describe('planClaim', () => {
  const cases: {
    title: string;
    claim: PersistentVolumeClaim;
    volumes?: PersistentVolume[];
    classes?: StorageClass[];
    outcome: string;
    phase?: string;
    event?: [string, string];
  }[] = [
    {
      title: 'binds a matching volume',
      claim: claim(),
      volumes: [volume({ name: 'a' })],
      outcome: 'Bind',
      phase: 'Bound',
    },
    {
      title: 'no class, no volume: FailedBinding',
      claim: claim(),
      outcome: 'Pending',
      event: [
        'FailedBinding',
        'no persistent volumes available for this claim and no storage class is set',
      ],
    },
    {
      title: 'WaitForFirstConsumer without selected node',
      claim: claim({ className: 'wffc' }),
      volumes: [volume({ name: 'a', className: 'wffc' })],
      classes: [storageClass('wffc', { wffc: true })],
      outcome: 'WaitForFirstConsumer',
      event: ['WaitForFirstConsumer', 'waiting for first consumer to be created before binding'],
    },
    {
      title: 'WaitForFirstConsumer with selected node: provision',
      claim: claim({
        className: 'wffc',
        annotations: { 'volume.kubernetes.io/selected-node': 'n1' },
      }),
      classes: [storageClass('wffc', { wffc: true })],
      outcome: 'Provision',
      event: [
        'ExternalProvisioning',
        "Waiting for a volume to be created either by the external provisioner 'ebs.csi.aws.com' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.",
      ],
    },
    {
      title: 'missing class: ProvisioningFailed',
      claim: claim({ className: 'nope' }),
      outcome: 'Pending',
      event: ['ProvisioningFailed', 'storageclass.storage.k8s.io "nope" not found'],
    },
    {
      title: 'no class field: the default class is assigned',
      claim: claim({ className: null }),
      classes: [storageClass('std', { isDefault: true })],
      outcome: 'AssignDefaultClass',
    },
    {
      title: 'bound claim whose volume vanished is Lost',
      claim: claim({ volumeName: 'gone', annotations: BOUND, phase: 'Bound' }),
      outcome: 'Lost',
      phase: 'Lost',
      event: [
        'ClaimLost',
        'Bound claim has lost its PersistentVolume. Data on the volume is lost!',
      ],
    },
    {
      title: 'bound claim with volumeName cleared is Lost',
      claim: claim({ annotations: BOUND, phase: 'Bound' }),
      outcome: 'Lost',
      phase: 'Lost',
      event: [
        'ClaimLost',
        'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!',
      ],
    },
    {
      title: 'volume bound to someone else: ClaimMisbound',
      claim: claim({ volumeName: 'a', annotations: BOUND, phase: 'Bound' }),
      volumes: [volume({ name: 'a', claimRef: { name: 'other', uid: 'x' }, phase: 'Bound' })],
      outcome: 'Lost',
      phase: 'Lost',
      event: [
        'ClaimMisbound',
        'Two claims are bound to the same volume, this one is bound incorrectly',
      ],
    },
    {
      title: 'Lost recovers when a volume of that name points back',
      claim: claim({ volumeName: 'a', annotations: BOUND, phase: 'Lost' }),
      volumes: [volume({ name: 'a', claimRef: { name: 'data', uid: 'uid-data' }, phase: 'Bound' })],
      outcome: 'Bind',
      phase: 'Bound',
    },
    {
      title: 'named volume too small: VolumeMismatch',
      claim: claim({ volumeName: 'a', size: '5Gi' }),
      volumes: [volume({ name: 'a' })],
      outcome: 'Pending',
      event: ['VolumeMismatch', 'Cannot bind to requested volume "a": requested PV is too small'],
    },
    {
      title: 'named volume claimed by another',
      claim: claim({ volumeName: 'a' }),
      volumes: [volume({ name: 'a', claimRef: { name: 'other', uid: 'x' } })],
      outcome: 'Pending',
      event: ['FailedBinding', 'volume "a" already bound to a different claim.'],
    },
  ];
  for (const c of cases) {
    it(c.title, () => {
      const plan = planClaim(c.claim, c.volumes ?? [], c.classes ?? [], NOW);
      assert.equal(plan.outcome, c.outcome);
      if (c.phase !== undefined) assert.equal(plan.claimStatus?.phase, c.phase);
      if (c.event !== undefined) {
        assert.deepEqual(
          plan.events.map((e) => [e.reason, e.message]),
          [c.event],
        );
      }
    });
  }

  it('a binding writes both pointers and the annotations', () => {
    const plan = planClaim(claim(), [volume({ name: 'a', size: '3Gi' })], [], NOW);
    const ref = (plan.volume?.spec as SpecView | undefined)?.claimRef;
    assert.deepEqual([ref.name, ref.uid], ['data', 'uid-data']);
    assert.equal(
      plan.volume?.metadata?.annotations?.['pv.kubernetes.io/bound-by-controller'],
      'yes',
    );
    assert.equal(plan.volumeStatus?.phase, 'Bound');
    assert.equal((plan.claim?.spec as SpecView | undefined)?.volumeName, 'a');
    assert.equal(plan.claim?.metadata?.annotations?.['pv.kubernetes.io/bind-completed'], 'yes');
    assert.deepEqual(plan.claimStatus?.capacity, { storage: '3Gi' });
  });

  it('a finished binding plans no write', () => {
    const pv = volume({
      name: 'a',
      claimRef: { name: 'data', uid: 'uid-data' },
      phase: 'Bound',
      annotations: { 'pv.kubernetes.io/bound-by-controller': 'yes' },
    });
    const c = claim({
      volumeName: 'a',
      annotations: { ...BOUND, 'pv.kubernetes.io/bound-by-controller': 'yes' },
      phase: 'Bound',
    });
    (c.status as Record<string, unknown>).accessModes = ['ReadWriteOnce'];
    (c.status as Record<string, unknown>).capacity = { storage: '1Gi' };
    const plan = planClaim(c, [pv], [], NOW);
    assert.deepEqual(
      [plan.volume, plan.volumeStatus, plan.claim, plan.claimStatus],
      [undefined, undefined, undefined, undefined],
    );
  });

  it('Lost is reported once', () => {
    const plan = planClaim(
      claim({ volumeName: 'gone', annotations: BOUND, phase: 'Lost' }),
      [],
      [],
      NOW,
    );
    assert.deepEqual([plan.outcome, plan.events.length, plan.claimStatus], ['Lost', 0, undefined]);
  });

  it('names unscheduled consumers', () => {
    const pod = asKind(
      {
        metadata: { name: 'web-0', namespace: 'default' },
        spec: { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] },
      },
      'Pod',
    );
    const plan = planClaim(
      claim({ className: 'w' }),
      [],
      [storageClass('w', { wffc: true })],
      NOW,
      { pods: [pod] },
    );
    assert.deepEqual(
      plan.events.map((e) => e.message),
      ['waiting for pod web-0 to be scheduled'],
    );
  });
});

describe('planVolume', () => {
  const ref = { name: 'data', uid: 'uid-data' };
  const cases: {
    title: string;
    pv: PersistentVolume;
    claims: PersistentVolumeClaim[];
    outcome: string;
    phase?: string;
    deleted?: boolean;
  }[] = [
    {
      title: 'unclaimed: Available',
      pv: volume({ name: 'a', phase: 'Pending' }),
      claims: [],
      outcome: 'Available',
      phase: 'Available',
    },
    {
      title: 'bound both ways',
      pv: volume({ name: 'a', claimRef: ref }),
      claims: [claim({ volumeName: 'a' })],
      outcome: 'Bound',
      phase: 'Bound',
    },
    {
      title: 'claim gone, Retain: Released',
      pv: volume({ name: 'a', claimRef: ref, phase: 'Bound' }),
      claims: [],
      outcome: 'Released',
      phase: 'Released',
    },
    {
      title: 'claim recreated with another uid: Released',
      pv: volume({ name: 'a', claimRef: ref, phase: 'Bound' }),
      claims: [claim({ uid: 'new' })],
      outcome: 'Released',
      phase: 'Released',
    },
    {
      title: 'claim gone, Delete, provisioned: the provisioner deletes it',
      pv: volume({
        name: 'a',
        claimRef: ref,
        phase: 'Released',
        policy: 'Delete',
        annotations: { 'pv.kubernetes.io/provisioned-by': 'ebs.csi.aws.com' },
        finalizers: [
          'kubernetes.io/pv-protection',
          'external-provisioner.volume.kubernetes.io/finalizer',
        ],
      }),
      claims: [],
      outcome: 'Delete',
      deleted: true,
    },
    {
      title: 'Delete without provisioner: Failed',
      pv: volume({ name: 'a', claimRef: ref, phase: 'Bound', policy: 'Delete' }),
      claims: [],
      outcome: 'Failed',
      phase: 'Failed',
    },
    {
      title: 'claim not yet pointing back: sync the claim',
      pv: volume({ name: 'a', claimRef: ref }),
      claims: [claim()],
      outcome: 'SyncClaim',
    },
    {
      title: 'claim bound elsewhere, controller binding: unbound',
      pv: volume({
        name: 'a',
        claimRef: ref,
        phase: 'Bound',
        annotations: { 'pv.kubernetes.io/bound-by-controller': 'yes' },
      }),
      claims: [claim({ volumeName: 'b' })],
      outcome: 'Unbind',
      phase: 'Available',
    },
  ];
  for (const c of cases) {
    it(c.title, () => {
      const plan = planVolume(c.pv, c.claims, NOW, { provisioners: new Set(['ebs.csi.aws.com']) });
      assert.equal(plan.outcome, c.outcome);
      if (c.phase !== undefined) assert.equal(plan.volumeStatus?.phase, c.phase);
      assert.equal(plan.deleteVolume === true, c.deleted === true);
    });
  }

  it('the provisioner drops only its finalizer', () => {
    const pv = volume({
      name: 'a',
      claimRef: ref,
      phase: 'Released',
      policy: 'Delete',
      annotations: { 'pv.kubernetes.io/provisioned-by': 'ebs.csi.aws.com' },
      finalizers: [
        'kubernetes.io/pv-protection',
        'external-provisioner.volume.kubernetes.io/finalizer',
      ],
    });
    const plan = planVolume(pv, [], NOW, { provisioners: new Set(['ebs.csi.aws.com']) });
    assert.deepEqual(plan.volume?.metadata?.finalizers, ['kubernetes.io/pv-protection']);
  });

  it('pv-protection: kept while Bound, dropped once not', () => {
    const bound = planVolume(
      volume({ name: 'a', claimRef: ref, phase: 'Bound', deleting: true }),
      [claim({ volumeName: 'a' })],
      NOW,
    );
    assert.equal(bound.volume, undefined);
    const released = planVolume(
      volume({ name: 'a', claimRef: ref, phase: 'Released', deleting: true }),
      [],
      NOW,
    );
    assert.deepEqual(released.volume?.metadata?.finalizers, []);
    const fresh = planVolume(volume({ name: 'a', finalizers: [] }), [], NOW);
    assert.deepEqual(fresh.volume?.metadata?.finalizers, ['kubernetes.io/pv-protection']);
  });
});

describe('binding property', () => {
  const modes = fc.subarray(['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany'], { minLength: 1 });
  const pvArb = fc.record({ size: fc.integer({ min: 1, max: 8 }), modes, bound: fc.boolean() });
  const claimArb = fc.record({ size: fc.integer({ min: 1, max: 8 }), modes });
  it('never binds one volume to two claims, nor one that cannot serve the claim', () => {
    fc.assert(
      fc.property(
        fc.array(pvArb, { maxLength: 6 }),
        fc.array(claimArb, { minLength: 1, maxLength: 6 }),
        (pvs, cs) => {
          let volumes = pvs.map((p, i) =>
            volume({
              name: `pv${i}`,
              size: `${p.size}Gi`,
              modes: p.modes,
              ...(p.bound ? { claimRef: { name: 'someone', uid: 'x' }, phase: 'Bound' } : {}),
            }),
          );
          const owner = new Map<string, string>();
          cs.forEach((spec, i) => {
            const c = claim({
              name: `c${i}`,
              uid: `u${i}`,
              size: `${spec.size}Gi`,
              modes: spec.modes,
            });
            const plan = planClaim(c, volumes, [], NOW);
            if (plan.outcome !== 'Bind' || plan.volumeName === undefined) return;
            const pv = volumes.find((v) => v.metadata?.name === plan.volumeName);
            assert.ok(pv !== undefined);
            assert.ok(capacityBytes(pv) >= requestedBytes(c));
            assert.ok(accessModesSatisfy(c, pv));
            assert.equal(owner.has(plan.volumeName), false);
            owner.set(plan.volumeName, `c${i}`);
            // Apply the planned writes so the next claim sees them.
            volumes = volumes.map((v) =>
              v.metadata?.name === plan.volumeName
                ? { ...(plan.volume ?? v), status: plan.volumeStatus ?? v.status }
                : v,
            );
          });
        },
      ),
    );
  });
});
