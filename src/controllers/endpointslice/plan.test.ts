/**
 * The EndpointSlice planner: what it creates, updates in place and deletes, over the
 * endpoints planner's Service and pod fixtures.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EndpointSlice, Pod } from '../../api/model/index.js';
import { pod, service } from '../endpoints/testing/fixtures.js';
import { desiredGroups } from './desired.js';
import { planSlices, type SlicePlan } from './plan.js';
import type { SliceEndpoint } from './types.js';

const zoneOf = (node: string) => (node === 'node-0' ? 'zone-a' : undefined);

/** Stores planned creates as the server would (a name, a uid, a resourceVersion). */
function stored(plan: SlicePlan, start = 0): EndpointSlice[] {
  return plan.create.map((s, i) => ({
    ...s,
    metadata: {
      ...s.metadata,
      name: `web-${start + i}`,
      uid: `s${start + i}`,
      resourceVersion: '1',
    },
  }));
}

/** A one-line view of a plan: `c:<sizes> u:<names=sizes> d:<names>`. */
function view(plan: SlicePlan): string {
  const size = (s: EndpointSlice) => (s.endpoints ?? []).length;
  return [
    `c:${plan.create.map(size).join(',')}`,
    `u:${plan.update.map((s) => `${s.metadata?.name}=${size(s)}`).join(',')}`,
    `d:${plan.delete.map((s) => s.metadata?.name).join(',')}`,
  ].join(' ');
}

const pods = (n: number, o: Parameters<typeof pod>[1] = {}) =>
  Array.from({ length: n }, (_, i) => pod(i, o));

describe('planSlices', () => {
  it('builds slices with labels, owner, ports and endpoints', () => {
    const svc = service();
    const plan = planSlices(
      svc,
      [],
      desiredGroups(svc, [pod(0, { hostname: 'web-0', subdomain: 'web' })], zoneOf),
    );
    assert.equal(view(plan), 'c:1 u: d:');
    const [slice] = plan.create;
    assert.equal(slice?.metadata?.generateName, 'web-');
    assert.deepEqual(slice?.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
    assert.deepEqual(slice?.endpoints, [
      {
        addresses: ['10.0.0.1'],
        conditions: { ready: true, serving: true, terminating: false },
        hostname: 'web-0',
        nodeName: 'node-0',
        zone: 'zone-a',
        targetRef: { kind: 'Pod', namespace: 'default', name: 'web-0', uid: 'uid-0' },
      },
    ] satisfies SliceEndpoint[]);
  });

  it('marks terminating pods not ready, but keeps them', () => {
    const svc = service();
    const plan = planSlices(svc, [], desiredGroups(svc, [pod(0, { terminating: true })], zoneOf));
    const [e] = (plan.create[0]?.endpoints ?? []) as SliceEndpoint[];
    assert.deepEqual(e?.conditions, { ready: false, serving: true, terminating: true });
  });

  const cases: {
    name: string;
    before: number;
    after: Pod[];
    max?: number;
    svc?: Record<string, unknown>;
    want: string;
  }[] = [
    { name: 'nothing changed: no writes', before: 3, after: pods(3), want: 'c: u: d:' },
    {
      name: 'a pod left: its slice updated in place',
      before: 3,
      after: pods(2),
      want: 'c: u:web-0=2 d:',
    },
    {
      name: 'a pod joined: fills the slice with room',
      before: 3,
      after: pods(4),
      want: 'c: u:web-0=4 d:',
    },
    {
      name: 'readiness change: updated in place',
      before: 2,
      after: [pod(0), pod(1, { ready: false })],
      want: 'c: u:web-0=2 d:',
    },
    { name: 'over the limit: a new slice', before: 2, after: pods(3), max: 2, want: 'c:1 u: d:' },
    {
      name: 'all pods gone: slice emptied as placeholder',
      before: 2,
      after: [],
      want: 'c: u:web-0=0 d:',
    },
    {
      name: 'address family changed: delete and recreate',
      before: 1,
      after: [pod(0, { ip: 'fd00::1' })],
      svc: { ipFamilies: ['IPv6'] },
      want: 'c:1 u: d:web-0',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const svc = service();
      const existing = stored(
        planSlices(svc, [], desiredGroups(svc, pods(c.before), zoneOf), c.max),
      );
      const next = service(c.svc);
      const plan = planSlices(next, existing, desiredGroups(next, c.after, zoneOf), c.max);
      assert.equal(view(plan), c.want);
    });
  }

  it('splits 250 endpoints into slices of 100, 100 and 50', () => {
    const svc = service();
    const plan = planSlices(
      svc,
      [],
      desiredGroups(
        svc,
        pods(250, { ip: null }).map((p, i) => {
          const status = p.status as Record<string, unknown>;
          const ip = `10.1.${Math.floor(i / 200)}.${(i % 200) + 1}`;
          return { ...p, status: { ...status, podIP: ip, podIPs: [{ ip }] } };
        }),
        zoneOf,
      ),
    );
    assert.equal(view(plan), 'c:100,100,50 u: d:');
  });

  it('reuses a slice whose ports no longer match instead of creating one', () => {
    const svc = service();
    const existing = stored(planSlices(svc, [], desiredGroups(svc, pods(2), zoneOf)));
    const next = service({
      ports: [{ name: 'http', port: 80, targetPort: 9090, protocol: 'TCP' }],
    });
    const plan = planSlices(next, existing, desiredGroups(next, pods(2), zoneOf));
    assert.equal(view(plan), 'c: u:web-0=2 d:');
    assert.deepEqual(plan.update[0]?.ports, [{ name: 'http', port: 9090, protocol: 'TCP' }]);
  });

  it('rewrites labels that drifted, and nothing else', () => {
    const svc = service();
    const existing = stored(planSlices(svc, [], desiredGroups(svc, pods(1), zoneOf)));
    const relabelled = service();
    relabelled.metadata = { ...relabelled.metadata, labels: { team: 'b' } };
    const plan = planSlices(relabelled, existing, desiredGroups(relabelled, pods(1), zoneOf));
    assert.equal(view(plan), 'c: u:web-0=1 d:');
    assert.equal(plan.update[0]?.metadata?.labels?.team, 'b');
  });
});
