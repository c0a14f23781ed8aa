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

const edit = (f: (o: KubeObject) => void): KubeObject => {
  const o = structuredClone(base);
  o.metadata = { ...o.metadata, resourceVersion: '11' };
  f(o);
  return o;
};

describe('fleetChanged: which fleet updates wake a reconcile', () => {
  const cases: [string, KubeObject, boolean][] = [
    [
      'a status write (resourceVersion and status only)',
      edit((o) => {
        o.status = { observedGeneration: 2 };
      }),
      false,
    ],
    [
      'a managedFields-only change',
      edit((o) => {
        o.metadata = { ...o.metadata, managedFields: [] };
      }),
      false,
    ],
    [
      'the same labels in another order',
      edit((o) => {
        o.metadata = { ...o.metadata, labels: { team: 'a' } };
      }),
      false,
    ],
    [
      'a spec edit (generation)',
      edit((o) => {
        o.metadata = { ...o.metadata, generation: 3 };
      }),
      true,
    ],
    [
      'deletion requested',
      edit((o) => {
        o.metadata = { ...o.metadata, deletionTimestamp: '2026-12-02T00:00:00Z' };
      }),
      true,
    ],
    [
      'a finalizer removed',
      edit((o) => {
        o.metadata = { ...o.metadata, finalizers: [] };
      }),
      true,
    ],
    [
      'recreated under the same name',
      edit((o) => {
        o.metadata = { ...o.metadata, uid: 'u2' };
      }),
      true,
    ],
    [
      'kubectl annotate (an annotation added)',
      edit((o) => {
        o.metadata = { ...o.metadata, annotations: { note: 'x', retry: '1' } };
      }),
      true,
    ],
    [
      'an annotation changed',
      edit((o) => {
        o.metadata = { ...o.metadata, annotations: { note: 'y' } };
      }),
      true,
    ],
    [
      'the last annotation removed',
      edit((o) => {
        o.metadata = { ...o.metadata, annotations: undefined };
      }),
      true,
    ],
    [
      'kubectl label (a label changed)',
      edit((o) => {
        o.metadata = { ...o.metadata, labels: { team: 'b' } };
      }),
      true,
    ],
  ];
  for (const [name, cur, wakes] of cases) {
    it(`${name}: ${wakes ? 'wakes' : 'does not wake'}`, () => {
      assert.equal(fleetChanged(base, cur), wakes);
    });
  }
});
