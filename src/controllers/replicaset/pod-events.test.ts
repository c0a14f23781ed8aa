/**
 * Table tests of what pod add/update/delete events mean for ReplicaSet keys and expectations.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asKind, type Pod, type ReplicaSet } from '../../api/model/index.js';
import type { ReplicaSetLookup } from './lookup.js';
import { type PodEventEffects, podAdded, podDeleted, podUpdated } from './pod-events.js';

function rs(name: string, uid: string, app: string, minReadySeconds = 0): ReplicaSet {
  return asKind(
    {
      metadata: { name, namespace: 'ns', uid },
      spec: { minReadySeconds, selector: { matchLabels: { app } } },
    },
    'ReplicaSet',
  );
}

const RS_A = rs('a', 'uid-a', 'web', 5);
const RS_B = rs('b', 'uid-b', 'web');
const RS_C = rs('c', 'uid-c', 'db');
const lookup: ReplicaSetLookup = {
  get: (ns, name) => [RS_A, RS_B, RS_C].find((r) => ns === 'ns' && r.metadata?.name === name),
  listInNamespace: (ns) => (ns === 'ns' ? [RS_A, RS_B, RS_C] : []),
};

interface PodOpts {
  rv?: string;
  labels?: Record<string, string>;
  owner?: { name: string; uid: string; kind?: string };
  deleting?: boolean;
  ready?: boolean;
}

function pod(o: PodOpts = {}): Pod {
  return asKind(
    {
      metadata: {
        name: 'p',
        namespace: 'ns',
        uid: 'pod-uid',
        resourceVersion: o.rv ?? '1',
        labels: o.labels ?? { app: 'web' },
        ...(o.owner
          ? {
              ownerReferences: [
                {
                  apiVersion: 'apps/v1',
                  kind: o.owner.kind ?? 'ReplicaSet',
                  name: o.owner.name,
                  uid: o.owner.uid,
                  controller: true,
                },
              ],
            }
          : {}),
        ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
      },
      status: o.ready ? { conditions: [{ type: 'Ready', status: 'True' }] } : {},
    },
    'Pod',
  );
}

const OWNED_A = { name: 'a', uid: 'uid-a' };
const none: PodEventEffects = {
  creationsObserved: [],
  deletionsObserved: [],
  enqueue: [],
  enqueueAfter: [],
};
const fx = (e: Partial<PodEventEffects>): PodEventEffects => ({ ...none, ...e });

describe('podAdded', () => {
  const cases: [string, Pod, PodEventEffects][] = [
    [
      'owned: creation observed',
      pod({ owner: OWNED_A }),
      fx({ creationsObserved: ['ns/a'], enqueue: ['ns/a'] }),
    ],
    ['owner UID mismatch: ignored', pod({ owner: { name: 'a', uid: 'other' } }), none],
    ['owner of another kind: ignored', pod({ owner: { ...OWNED_A, kind: 'StatefulSet' } }), none],
    ['orphan: every matching RS syncs, nothing observed', pod(), fx({ enqueue: ['ns/a', 'ns/b'] })],
    ['orphan without labels: nothing', pod({ labels: {} }), none],
    [
      'already being deleted: a deletion, not a creation',
      pod({ owner: OWNED_A, deleting: true }),
      fx({ deletionsObserved: [{ rsKey: 'ns/a', podKey: 'ns/p' }], enqueue: ['ns/a'] }),
    ],
  ];
  for (const [name, p, want] of cases) it(name, () => assert.deepEqual(podAdded(lookup, p), want));
});

describe('podUpdated', () => {
  const cases: [string, Pod, Pod, PodEventEffects][] = [
    ['same resourceVersion: nothing', pod({ owner: OWNED_A }), pod({ owner: OWNED_A }), none],
    [
      'owned, changed: owner syncs',
      pod({ owner: OWNED_A }),
      pod({ owner: OWNED_A, rv: '2', labels: { app: 'web', x: 'y' } }),
      fx({ enqueue: ['ns/a'] }),
    ],
    [
      'became ready with minReadySeconds 5: re-check after 6 s',
      pod({ owner: OWNED_A }),
      pod({ owner: OWNED_A, rv: '2', ready: true }),
      fx({ enqueue: ['ns/a'], enqueueAfter: [{ rsKey: 'ns/a', ms: 6000 }] }),
    ],
    [
      'became ready, minReadySeconds 0: no re-check',
      pod({ owner: { name: 'b', uid: 'uid-b' } }),
      pod({ owner: { name: 'b', uid: 'uid-b' }, rv: '2', ready: true }),
      fx({ enqueue: ['ns/b'] }),
    ],
    [
      'deletion started: a deletion for the owner',
      pod({ owner: OWNED_A }),
      pod({ owner: OWNED_A, rv: '2', deleting: true }),
      fx({ deletionsObserved: [{ rsKey: 'ns/a', podKey: 'ns/p' }], enqueue: ['ns/a'] }),
    ],
    [
      'deletion started with new labels: old owner observes too',
      pod({ owner: OWNED_A }),
      pod({ owner: OWNED_A, rv: '2', deleting: true, labels: { app: 'x' } }),
      fx({
        deletionsObserved: [
          { rsKey: 'ns/a', podKey: 'ns/p' },
          { rsKey: 'ns/a', podKey: 'ns/p' },
        ],
        enqueue: ['ns/a', 'ns/a'],
      }),
    ],
    [
      'released (ref removed): old owner and matching RSs sync',
      pod({ owner: OWNED_A }),
      pod({ rv: '2', labels: { app: 'db' } }),
      fx({ enqueue: ['ns/a', 'ns/c'] }),
    ],
    ['orphan, labels unchanged: nothing', pod(), pod({ rv: '2' }), none],
    [
      'orphan, labels changed: matching RSs sync',
      pod(),
      pod({ rv: '2', labels: { app: 'db' } }),
      fx({ enqueue: ['ns/c'] }),
    ],
  ];
  for (const [name, old, cur, want] of cases) {
    it(name, () => assert.deepEqual(podUpdated(lookup, old, cur), want));
  }
});

describe('podDeleted', () => {
  const cases: [string, Pod, PodEventEffects][] = [
    [
      'owned',
      pod({ owner: OWNED_A }),
      fx({ deletionsObserved: [{ rsKey: 'ns/a', podKey: 'ns/p' }], enqueue: ['ns/a'] }),
    ],
    ['orphan: nobody cares', pod(), none],
    ['unknown owner', pod({ owner: { name: 'zz', uid: 'u' } }), none],
  ];
  for (const [name, p, want] of cases)
    it(name, () => assert.deepEqual(podDeleted(lookup, p), want));
});
