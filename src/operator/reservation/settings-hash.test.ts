/**
 * Tests for `immutableSettingsHash`: which fields count, the normalisations (set and map lists,
 * the `bucketWorkload` default), stability, and key order (fast-check).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { immutableSettingsHash } from './settings-hash.js';
import type { FleetSpec } from './types.js';

function spec(over: Record<string, unknown> = {}): FleetSpec {
  return {
    profile: 'PersistentFleet',
    replicas: 3,
    runtimeImage: `ghcr.io/x/celld@sha256:${'a'.repeat(64)}`,
    serviceAccountName: 'celld',
    storage: { bucket: 'b', region: 'us-east-1', storageClassName: 'ebs', sizeGiB: 10 },
    placement: { zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'], mode: 'Strict' },
    execution: { cpuRequest: '250m', memoryRequest: '512Mi', memoryLimit: '1Gi' },
    lifecycle: { shutdownSeconds: 20, terminationGraceSeconds: 30 },
    env: [
      { name: 'CELLD_A', value: '1' },
      { name: 'CELLD_B', value: '2' },
    ],
    ...over,
  };
}
const BASE = immutableSettingsHash(spec());

describe('immutableSettingsHash', () => {
  it('is sha256 over canonical JSON, pinned so a stored hash keeps matching across releases', () => {
    const minimal = {
      profile: 'PersistentFleet',
      replicas: 3,
      storage: { region: 'us-east-1', bucket: 'b' },
    };
    // sha256('{"profile":"PersistentFleet","storage":{"bucket":"b","region":"us-east-1"}}')
    assert.equal(
      immutableSettingsHash(minimal),
      'd8c6b4142d00bc367c20ad49fcd7f72b799a85804a6e8e1ead66befa7e3a21ef',
    );
    assert.equal(
      immutableSettingsHash(minimal),
      createHash('sha256')
        .update('{"profile":"PersistentFleet","storage":{"bucket":"b","region":"us-east-1"}}')
        .digest('hex'),
    );
    assert.equal(immutableSettingsHash(spec()), BASE);
  });

  const unchanged: Array<[string, Record<string, unknown>]> = [
    ['replicas (mutable)', { replicas: 7 }],
    ['runtimeImage (mutable)', { runtimeImage: 'other' }],
    ['maintenance (mutable)', { maintenance: { paused: true, restartToken: 't' } }],
    [
      'zones reordered (a set)',
      { placement: { mode: 'Strict', zones: ['us-east-1c', 'us-east-1a', 'us-east-1b'] } },
    ],
    [
      'env reordered (a map by name)',
      {
        env: [
          { name: 'CELLD_B', value: '2' },
          { name: 'CELLD_A', value: '1' },
        ],
      },
    ],
    ['bucketWorkload on a PersistentFleet (meaningless)', { bucketWorkload: 'Ordered' }],
    [
      'a null field is an absent one',
      {
        serviceAccountName: 'celld',
        execution: {
          cpuRequest: '250m',
          memoryRequest: '512Mi',
          memoryLimit: '1Gi',
          cpuLimit: null,
        },
      },
    ],
  ];
  for (const [name, over] of unchanged) {
    it(`unchanged by ${name}`, () => assert.equal(immutableSettingsHash(spec(over)), BASE));
  }

  const changed: Array<[string, Record<string, unknown>]> = [
    ['profile', { profile: 'Bucket' }],
    ['serviceAccountName', { serviceAccountName: 'other' }],
    [
      'storage.region',
      { storage: { bucket: 'b', region: 'us-west-2', storageClassName: 'ebs', sizeGiB: 10 } },
    ],
    [
      'storage.sizeGiB',
      { storage: { bucket: 'b', region: 'us-east-1', storageClassName: 'ebs', sizeGiB: 11 } },
    ],
    [
      'placement.mode',
      { placement: { zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'], mode: 'Relaxed' } },
    ],
    [
      'execution',
      { execution: { cpuRequest: '500m', memoryRequest: '512Mi', memoryLimit: '1Gi' } },
    ],
    ['lifecycle', { lifecycle: { shutdownSeconds: 21, terminationGraceSeconds: 30 } }],
    [
      'an env value',
      {
        env: [
          { name: 'CELLD_A', value: '9' },
          { name: 'CELLD_B', value: '2' },
        ],
      },
    ],
  ];
  for (const [name, over] of changed) {
    it(`changed by ${name}`, () => assert.notEqual(immutableSettingsHash(spec(over)), BASE));
  }

  it('Bucket fleets: an absent bucketWorkload is the default Deployment; Ordered differs', () => {
    const bucket = (over: Record<string, unknown>) =>
      immutableSettingsHash(spec({ profile: 'Bucket', ...over }));
    assert.equal(bucket({}), bucket({ bucketWorkload: 'Deployment' }));
    assert.notEqual(bucket({}), bucket({ bucketWorkload: 'Ordered' }));
  });

  it('key order never changes the hash (fast-check)', () => {
    const shuffle = (value: unknown, seed: number): unknown => {
      if (Array.isArray(value)) return value.map((v) => shuffle(v, seed));
      if (typeof value !== 'object' || value === null) return value;
      const entries = Object.entries(value);
      // Rotate and optionally reverse: a deterministic reordering driven by the seed.
      const k = entries.length === 0 ? 0 : seed % entries.length;
      const rotated = [...entries.slice(k), ...entries.slice(0, k)];
      if (seed % 2 === 1) rotated.reverse();
      return Object.fromEntries(rotated.map(([key, v]) => [key, shuffle(v, seed + 1)]));
    };
    fc.assert(
      fc.property(fc.object(), fc.nat(), (extra, seed) => {
        const s = spec({ execution: extra, lifecycle: { nested: extra, shutdownSeconds: 20 } });
        const reordered = shuffle(s, seed) as FleetSpec;
        assert.equal(immutableSettingsHash(reordered), immutableSettingsHash(s));
      }),
      { numRuns: 500 },
    );
  });
});
