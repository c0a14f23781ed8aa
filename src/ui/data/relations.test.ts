import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { change, obj, pod } from './fixtures.js';
import { dependents, eventsFor, objectHref, owners } from './relations.js';
import { ObjectStore } from './store.js';

describe('owners and dependents', () => {
  const s = new ObjectStore();
  const deploy = obj('Deployment', 'api', { namespace: 'ns', uid: 'd-uid' });
  const rs = obj('ReplicaSet', 'api-123', {
    namespace: 'ns',
    uid: 'rs-uid',
    ownerReferences: [{ kind: 'Deployment', name: 'api', uid: 'd-uid', controller: true }],
  });
  const p = pod('ns', 'api-123-x', {
    owner: { kind: 'ReplicaSet', name: 'api-123', uid: 'rs-uid', controller: true },
  });
  const orphan = pod('ns', 'gone-owner', {
    owner: { kind: 'ReplicaSet', name: 'old', uid: 'missing', controller: true },
  });
  s.apply(change('ADDED', 'apps', 'deployments', deploy));
  s.apply(change('ADDED', 'apps', 'replicasets', rs));
  s.apply(change('ADDED', '', 'pods', p));
  s.apply(change('ADDED', '', 'pods', orphan));

  const cases: [string, () => unknown, unknown][] = [
    [
      'a ReplicaSet is owned by its Deployment',
      () => owners(s, rs).map((l) => [l.kind, l.name, l.ref?.resource]),
      [['Deployment', 'api', 'deployments']],
    ],
    [
      'a Deployment has its ReplicaSet as dependent',
      () => dependents(s, deploy).map((l) => [l.kind, l.name]),
      [['ReplicaSet', 'api-123']],
    ],
    [
      'a ReplicaSet has its pod as dependent',
      () => dependents(s, rs).map((l) => l.name),
      ['api-123-x'],
    ],
    [
      'an owner not in the store still resolves its kind',
      () => owners(s, orphan).map((l) => [l.name, l.ref?.resource]),
      [['old', 'replicasets']],
    ],
  ];
  for (const [name, got, want] of cases) it(name, () => assert.deepEqual(got(), want));
});

describe('eventsFor', () => {
  it('matches by uid, or by kind/namespace/name when the event has no uid', () => {
    const s = new ObjectStore();
    const target = pod('ns', 'p');
    const ev = (name: string, inv: Record<string, string>) => ({
      ...obj('Event', name, { namespace: 'ns' }),
      involvedObject: inv,
      reason: name,
    });
    s.apply(
      change(
        'ADDED',
        '',
        'events',
        ev('by-uid', { uid: target.metadata.uid ?? '', kind: 'Pod', name: 'p', namespace: 'ns' }),
      ),
    );
    s.apply(
      change('ADDED', '', 'events', ev('by-name', { kind: 'Pod', name: 'p', namespace: 'ns' })),
    );
    s.apply(
      change(
        'ADDED',
        '',
        'events',
        ev('other-uid', { uid: 'x', kind: 'Pod', name: 'p', namespace: 'ns' }),
      ),
    );
    s.apply(
      change('ADDED', '', 'events', ev('other-ns', { kind: 'Pod', name: 'p', namespace: 'other' })),
    );
    assert.deepEqual(
      eventsFor(s, target)
        .map((e) => e.reason)
        .sort(),
      ['by-name', 'by-uid'],
    );
  });
});

describe('objectHref', () => {
  const cases: [Parameters<typeof objectHref>, string][] = [
    [[{ group: '', resource: 'pods' }, 'ns', 'p'], '#/object/core/pods/ns/p'],
    [[{ group: '', resource: 'nodes' }, undefined, 'n1'], '#/object/core/nodes/_/n1'],
    [
      [{ group: 'celld.fleetyard.dev', resource: 'celldfleets' }, 'shop', 'orders'],
      '#/object/celld.fleetyard.dev/celldfleets/shop/orders',
    ],
  ];
  for (const [args, want] of cases) it(want, () => assert.equal(objectHref(...args), want));
});
