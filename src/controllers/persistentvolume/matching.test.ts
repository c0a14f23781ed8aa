/**
 * Table-driven tests for volume matching (upstream `index_test.go` `TestMatchVolume`,
 * `TestFindingPreboundVolumes`, `TestAlphaVolumeModeCheck` in spirit): each criterion,
 * tie-breaks, pre-binding, and node affinity on the scheduler path.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PersistentVolume, PersistentVolumeClaim } from '../../api/model/index.js';
import { findBestMatchForClaim, findMatchingVolume, volumeSatisfiesClaim } from './matching.js';
import { volumeNodeAffinityMatches } from './node-affinity.js';
import { claim, node, volume } from './testing/fixtures.js';

const name = (v: PersistentVolume | undefined) => v?.metadata?.name;

describe('findBestMatchForClaim', () => {
  const cases: {
    title: string;
    claim: PersistentVolumeClaim;
    volumes: PersistentVolume[];
    delay?: boolean;
    want: string | undefined;
  }[] = [
    {
      title: 'smallest volume that fits',
      claim: claim({ size: '2Gi' }),
      volumes: [
        volume({ name: 'a', size: '10Gi' }),
        volume({ name: 'b', size: '1Gi' }),
        volume({ name: 'c', size: '5Gi' }),
      ],
      want: 'c',
    },
    {
      title: 'capacity below request never matches',
      claim: claim({ size: '20Gi' }),
      volumes: [volume({ name: 'a', size: '10Gi' })],
      want: undefined,
    },
    {
      title: 'access modes: the volume must offer every requested mode',
      claim: claim({ modes: ['ReadWriteMany'] }),
      volumes: [
        volume({ name: 'rwo', modes: ['ReadWriteOnce'] }),
        volume({ name: 'rwx', modes: ['ReadWriteMany', 'ReadWriteOnce'], size: '5Gi' }),
      ],
      want: 'rwx',
    },
    {
      title: 'fewest access modes win before size',
      claim: claim(),
      volumes: [
        volume({ name: 'multi', modes: ['ReadWriteOnce', 'ReadOnlyMany'], size: '1Gi' }),
        volume({ name: 'exact', size: '5Gi' }),
      ],
      want: 'exact',
    },
    {
      title: 'class must be equal ("" matches only "")',
      claim: claim({ className: 'fast' }),
      volumes: [
        volume({ name: 'none' }),
        volume({ name: 'slow', className: 'slow' }),
        volume({ name: 'fast', className: 'fast', size: '9Gi' }),
      ],
      want: 'fast',
    },
    {
      title: 'a claim without class matches only class-less volumes',
      claim: claim({ className: '' }),
      volumes: [volume({ name: 'fast', className: 'fast' })],
      want: undefined,
    },
    {
      title: 'volumeMode must be equal',
      claim: claim({ volumeMode: 'Block' }),
      volumes: [volume({ name: 'fs' }), volume({ name: 'blk', volumeMode: 'Block', size: '3Gi' })],
      want: 'blk',
    },
    {
      title: 'label selector',
      claim: claim({ selector: { matchLabels: { tier: 'gold' } } }),
      volumes: [
        volume({ name: 'plain' }),
        volume({ name: 'gold', labels: { tier: 'gold' }, size: '2Gi' }),
      ],
      want: 'gold',
    },
    {
      title: 'a volume bound to another claim is skipped',
      claim: claim(),
      volumes: [
        volume({ name: 'taken', claimRef: { name: 'other', uid: 'u2' }, phase: 'Bound' }),
        volume({ name: 'free', size: '4Gi' }),
      ],
      want: 'free',
    },
    {
      title: 'a volume pre-bound to this claim wins over a smaller one',
      claim: claim(),
      volumes: [
        volume({ name: 'small' }),
        volume({ name: 'mine', size: '8Gi', claimRef: { name: 'data' } }),
      ],
      want: 'mine',
    },
    {
      title: 'pre-bound by a different uid is another claim',
      claim: claim(),
      volumes: [volume({ name: 'old', claimRef: { name: 'data', uid: 'gone' } })],
      want: undefined,
    },
    {
      title: 'non-Available volumes are skipped',
      claim: claim(),
      volumes: [
        volume({ name: 'released', phase: 'Released' }),
        volume({ name: 'ok', size: '2Gi' }),
      ],
      want: 'ok',
    },
    {
      title: 'deleting volumes are skipped, even pre-bound',
      claim: claim(),
      volumes: [volume({ name: 'dying', deleting: true, claimRef: { name: 'data' } })],
      want: undefined,
    },
    {
      title: 'equal sizes: the first by name',
      claim: claim(),
      volumes: [volume({ name: 'b' }), volume({ name: 'a' })],
      want: 'a',
    },
    {
      title: 'delayed binding: only pre-bound volumes',
      claim: claim(),
      volumes: [volume({ name: 'free' })],
      delay: true,
      want: undefined,
    },
    {
      title: 'delayed binding: a provisioned (pre-bound) volume still binds',
      claim: claim(),
      volumes: [volume({ name: 'pvc-uid-data', claimRef: { name: 'data', uid: 'uid-data' } })],
      delay: true,
      want: 'pvc-uid-data',
    },
  ];
  for (const c of cases) {
    it(c.title, () => {
      assert.equal(name(findBestMatchForClaim(c.claim, c.volumes, c.delay ?? false)), c.want);
    });
  }
});

describe('findMatchingVolume (scheduler path)', () => {
  const a1 = node('n1', 'zone-a');
  it('skips volumes whose affinity excludes the node', () => {
    const vols = [
      volume({ name: 'b', zone: 'zone-b' }),
      volume({ name: 'a', zone: 'zone-a', size: '5Gi' }),
    ];
    assert.equal(name(findMatchingVolume(claim(), vols, a1)), 'a');
  });
  it('a pre-bound volume in another zone means no match at all', () => {
    const vols = [
      volume({ name: 'mine', zone: 'zone-b', claimRef: { name: 'data' } }),
      volume({ name: 'a', zone: 'zone-a' }),
    ];
    assert.equal(findMatchingVolume(claim(), vols, a1), undefined);
  });
  it('checks access modes itself', () => {
    const vols = [volume({ name: 'rwo' })];
    assert.equal(findMatchingVolume(claim({ modes: ['ReadWriteMany'] }), vols, a1), undefined);
  });
  it('honours the exclusion set', () => {
    const vols = [volume({ name: 'a' }), volume({ name: 'b', size: '2Gi' })];
    assert.equal(name(findMatchingVolume(claim(), vols, a1, { excluded: new Set(['a']) })), 'b');
  });
});

describe('volumeNodeAffinityMatches', () => {
  it('no affinity matches every node; terms are ORed', () => {
    assert.equal(volumeNodeAffinityMatches(volume({ name: 'x' }), {}), true);
    assert.equal(
      volumeNodeAffinityMatches(volume({ name: 'x', zone: 'z' }), {
        'topology.kubernetes.io/zone': 'z',
      }),
      true,
    );
    assert.equal(
      volumeNodeAffinityMatches(volume({ name: 'x', zone: 'z' }), {
        'topology.kubernetes.io/zone': 'y',
      }),
      false,
    );
  });
  it('an empty term list matches nothing', () => {
    const pv = volume({ name: 'x' });
    (pv.spec as Record<string, unknown>).nodeAffinity = { required: { nodeSelectorTerms: [] } };
    assert.equal(volumeNodeAffinityMatches(pv, { a: 'b' }), false);
  });
});

describe('volumeSatisfiesClaim', () => {
  const table: [string, PersistentVolume, string | undefined][] = [
    ['fits', volume({ name: 'v' }), undefined],
    ['too small', volume({ name: 'v', size: '1Mi' }), 'requested PV is too small'],
    ['class', volume({ name: 'v', className: 'x' }), 'storageClassName does not match'],
    ['mode', volume({ name: 'v', volumeMode: 'Block' }), 'incompatible volumeMode'],
    ['access', volume({ name: 'v', modes: ['ReadOnlyMany'] }), 'incompatible accessMode'],
  ];
  for (const [title, pv, want] of table) {
    it(title, () => assert.equal(volumeSatisfiesClaim(pv, claim()), want));
  }
});
