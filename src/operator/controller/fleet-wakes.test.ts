import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { fleetChanged } from './fleet-wakes.js';

const base: KubeObject = {
  apiVersion: 'celld.fleetyard.dev/v1alpha1',
  kind: 'CelldFleet',
  metadata: {
    name: 'orders',
    namespace: 'default',
    uid: 'u1',
    generation: 2,
    resourceVersion: '10',
    labels: { team: 'a' },
    annotations: { note: 'x' },
    finalizers: ['celld.fleetyard.dev/fleet'],
  },
  status: { observedGeneration: 1 },
};

type Meta = NonNullable<KubeObject['metadata']>;

/** `base` as the next write returns it (a new resourceVersion), with `meta` and `status` set. */
const written = (meta: Partial<Meta>, status = base.status): KubeObject => ({
  ...structuredClone(base),
  metadata: { ...base.metadata, resourceVersion: '11', ...meta },
  status,
});

describe('fleetChanged: which fleet updates wake a reconcile', () => {
  const cases: [string, KubeObject, boolean][] = [
    [
      'a status write (resourceVersion and status only)',
      written({}, { observedGeneration: 2 }),
      false,
    ],
    ['a managedFields-only change', written({ managedFields: [] }), false],
    ['the same labels written again', written({ labels: { team: 'a' } }), false],
    ['a spec edit (generation)', written({ generation: 3 }), true],
    ['deletion requested', written({ deletionTimestamp: '2026-12-02T00:00:00Z' }), true],
    ['a finalizer removed', written({ finalizers: [] }), true],
    ['recreated under the same name', written({ uid: 'u2' }), true],
    [
      'kubectl annotate (an annotation added)',
      written({ annotations: { note: 'x', retry: '1' } }),
      true,
    ],
    ['an annotation changed', written({ annotations: { note: 'y' } }), true],
    ['the last annotation removed', written({ annotations: undefined }), true],
    ['kubectl label (a label changed)', written({ labels: { team: 'b' } }), true],
  ];
  for (const [name, cur, wakes] of cases) {
    it(`${name}: ${wakes ? 'wakes' : 'does not wake'}`, () => {
      assert.equal(fleetChanged(base, cur), wakes);
    });
  }
});
