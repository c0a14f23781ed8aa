import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { change, obj } from './fixtures.js';
import { fleetCards, memberRows } from './fleets.js';
import { ObjectStore } from './store.js';

const fleet = obj(
  'CelldFleet',
  'orders',
  { namespace: 'shop', uid: 'fleet-uid' },
  { replicas: 3, maintenance: { paused: false } },
  {
    state: 'Progressing',
    readyReplicas: 2,
    reservation: 'orders-bucket',
    conditions: [
      { type: 'Ready', status: 'False', reason: 'Provisioning', message: '2 of 3 members ready' },
    ],
    members: [
      {
        pod: 'orders-0',
        ordinal: 0,
        ready: true,
        node: 'n1',
        zone: 'a',
        claim: 'data-orders-0',
        claimPhase: 'Bound',
      },
      {
        pod: 'orders-1',
        ordinal: 1,
        ready: false,
        node: 'n2',
        zone: 'b',
        claim: 'data-orders-1',
        claimPhase: 'Bound',
        downSince: '2026-01-01T00:00:00Z',
        replacementDue: '2026-01-01T00:10:00Z',
        note: 'member orders-1 is down; it is replaced on a fresh disk at 2026-01-01T00:10:00Z unless it returns',
      },
      {
        pod: 'orders-2',
        ordinal: 2,
        ready: false,
        claim: 'data-orders-2',
        claimPhase: 'Lost',
        note: 'its disk is not Bound',
      },
    ],
  },
);

describe('memberRows', () => {
  it('reads status.members[] with the due time in ms', () => {
    const rows = memberRows(fleet);
    assert.deepEqual(
      rows.map((m) => [
        m.pod,
        m.ready,
        m.zone,
        m.claimPhase,
        m.replacementDueMs,
        m.note.slice(0, 20),
      ]),
      [
        ['orders-0', true, 'a', 'Bound', undefined, ''],
        [
          'orders-1',
          false,
          'b',
          'Bound',
          Date.parse('2026-01-01T00:10:00Z'),
          'member orders-1 is d',
        ],
        ['orders-2', false, '', 'Lost', undefined, 'its disk is not Boun'],
      ],
    );
  });
});

describe('fleetCards', () => {
  it('carries state, reservation, conditions and only the fleet’s own events, newest first', () => {
    const s = new ObjectStore();
    s.apply(change('ADDED', 'celld.fleetyard.dev', 'celldfleets', fleet));
    const ev = (name: string, time: string, uid: string) => ({
      ...obj('Event', name, { namespace: 'shop' }),
      involvedObject: { kind: 'CelldFleet', namespace: 'shop', name: 'orders', uid },
      reason: name,
      type: 'Warning',
      lastTimestamp: time,
    });
    s.apply(change('ADDED', '', 'events', ev('old', '2026-01-01T00:01:00Z', 'fleet-uid')));
    s.apply(change('ADDED', '', 'events', ev('new', '2026-01-01T00:02:00Z', 'fleet-uid')));
    s.apply(
      change(
        'ADDED',
        '',
        'events',
        ev('previous-incarnation', '2026-01-01T00:03:00Z', 'other-uid'),
      ),
    );
    const [card] = fleetCards(s);
    assert.equal(card?.key, 'shop/orders');
    assert.equal(card?.reservation, 'orders-bucket');
    assert.equal(card?.state, 'Progressing');
    assert.deepEqual(
      card?.conditions.map((c) => `${c.type}=${c.status}`),
      ['Ready=False'],
    );
    assert.deepEqual(
      card?.events.map((e) => e.reason),
      ['new', 'old'],
    );
  });
});
