/**
 * The endpoints helpers: repacking is order-insensitive and idempotent (fast-check), truncation
 * keeps ready addresses first, the trigger-time tracker, and which Services a pod update syncs.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { EndpointSubset, Pod } from '../../api/model/index.js';
import { servicesToUpdateOnPodChange } from './pod-services.js';
import { countAddresses, repackSubsets, truncateSubsets } from './repack.js';
import { pod, service } from './testing/fixtures.js';
import { TriggerTimeTracker } from './trigger-time.js';

const subsetArb: fc.Arbitrary<EndpointSubset> = fc.record({
  addresses: fc.array(
    fc.integer({ min: 1, max: 6 }).map((n) => ({ ip: `10.0.0.${n}` })),
    {
      maxLength: 3,
    },
  ),
  notReadyAddresses: fc.array(
    fc.integer({ min: 1, max: 6 }).map((n) => ({ ip: `10.0.0.${n}` })),
    {
      maxLength: 3,
    },
  ),
  ports: fc.array(
    fc.constantFrom(80, 443).map((port) => ({ port, protocol: 'TCP' })),
    {
      maxLength: 2,
    },
  ),
});

describe('repackSubsets', () => {
  it('does not depend on input order and is idempotent', () => {
    fc.assert(
      fc.property(fc.array(subsetArb, { maxLength: 5 }), (subsets) => {
        const packed = repackSubsets(subsets);
        assert.deepEqual(repackSubsets([...subsets].reverse()), packed);
        assert.deepEqual(repackSubsets(packed), packed);
      }),
    );
  });

  it('keeps exactly the (address, port, ready) facts and every address; no empty subset', () => {
    // A fact: an address serves a port, ready when any input lists it ready for that port.
    // Addresses of a subset without ports are kept, but not as facts of their own: as in
    // upstream's RepackSubsets, the "no port" sentinel's address set merges into a port's
    // group with the same addresses and ready bits.
    const note = (out: Map<string, boolean>, fact: string, ready: boolean) => {
      if (!out.get(fact)) out.set(fact, ready);
    };
    const listed = (s: EndpointSubset) => [
      ...(s.addresses ?? []).map((a) => [a.ip, true] as const),
      ...(s.notReadyAddresses ?? []).map((a) => [a.ip, false] as const),
    ];
    const facts = (subsets: readonly EndpointSubset[]) => {
      const out = new Map<string, boolean>();
      for (const s of subsets)
        for (const p of s.ports ?? [])
          for (const [ip, ready] of listed(s)) note(out, `${ip}/${p.port}`, ready);
      return [...out].sort();
    };
    const ips = (subsets: readonly EndpointSubset[]) =>
      [...new Set(subsets.flatMap((s) => listed(s).map(([ip]) => ip)))].sort();
    fc.assert(
      fc.property(fc.array(subsetArb, { maxLength: 5 }), (subsets) => {
        const packed = repackSubsets(subsets);
        assert.deepEqual(facts(packed), facts(subsets));
        assert.deepEqual(ips(packed), ips(subsets));
        assert.ok(
          packed.every((s) => listed(s).length > 0),
          'a subset without addresses',
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('a subset with ports and no address adds no subset', () => {
    const packed = repackSubsets([
      { ports: [{ port: 443, protocol: 'TCP' }] },
      { addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80, protocol: 'TCP' }] },
    ]);
    assert.deepEqual(packed, [
      { addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80, protocol: 'TCP' }] },
    ]);
  });

  it('an address ready for a port anywhere is ready for it', () => {
    const packed = repackSubsets([
      { notReadyAddresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80, protocol: 'TCP' }] },
      { addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80, protocol: 'TCP' }] },
    ]);
    assert.deepEqual(packed, [
      { addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80, protocol: 'TCP' }] },
    ]);
  });
});

describe('truncateSubsets', () => {
  const ips = (n: number, base: number) =>
    Array.from({ length: n }, (_, i) => ({ ip: `10.${base}.0.${i}` }));
  const cases: { name: string; subsets: EndpointSubset[]; max: number; want?: number[][] }[] = [
    { name: 'under capacity: untouched', subsets: [{ addresses: ips(3, 1) }], max: 3 },
    {
      name: 'not-ready addresses go first, proportionally (rounded up)',
      subsets: [
        { addresses: ips(2, 1), notReadyAddresses: ips(3, 2) },
        { addresses: ips(2, 3), notReadyAddresses: ips(3, 4) },
      ],
      max: 7,
      want: [
        [2, 2],
        [2, 1],
      ],
    },
    {
      name: 'too many ready: every not-ready goes, ready split by share',
      subsets: [{ addresses: ips(6, 1), notReadyAddresses: ips(2, 2) }, { addresses: ips(2, 3) }],
      max: 4,
      want: [
        [3, 0],
        [1, 0],
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const out = truncateSubsets(c.subsets, c.max);
      if (c.want === undefined) return assert.equal(out, undefined);
      assert.ok(out !== undefined);
      const counts = out.map((s) => [
        (s.addresses ?? []).length,
        (s.notReadyAddresses ?? []).length,
      ]);
      assert.deepEqual(counts, c.want);
      const { ready, notReady } = countAddresses(out);
      assert.ok(ready + notReady <= c.max);
    });
  }
});

describe('TriggerTimeTracker', () => {
  const t = (s: string) => Date.parse(`2026-01-01T00:00:${s}Z`);
  it('first sync: the Service creation; then the earliest moved pod Ready time, or none', () => {
    const tracker = new TriggerTimeTracker();
    const svc = service();
    assert.equal(
      tracker.compute('k', svc, [pod(0, { readySince: '2026-01-01T00:00:10Z' })]),
      t('00'),
    );
    assert.equal(
      tracker.compute('k', svc, [pod(0, { readySince: '2026-01-01T00:00:10Z' })]),
      undefined,
    );
    const moved = [
      pod(0, { readySince: '2026-01-01T00:00:30Z' }),
      pod(1, { readySince: '2026-01-01T00:00:20Z' }),
    ];
    assert.equal(tracker.compute('k', svc, moved), t('20'));
    tracker.delete('k');
    assert.equal(tracker.compute('k', svc, moved), t('00'));
  });
});

describe('servicesToUpdateOnPodChange', () => {
  const web = service();
  const db = service({ selector: { app: 'db' } }, 'db');
  const withRv = (p: Pod, rv: string): Pod => ({
    ...p,
    metadata: { ...p.metadata, resourceVersion: rv },
  });
  const cases: { name: string; old: Pod; cur: Pod; want: string[] }[] = [
    { name: 'same resourceVersion: nothing', old: pod(0), cur: pod(0, { ready: false }), want: [] },
    {
      name: 'readiness moved: its Services',
      old: pod(0),
      cur: withRv(pod(0, { ready: false }), '2'),
      want: ['default/web'],
    },
    { name: 'nothing relevant moved: nothing', old: pod(0), cur: withRv(pod(0), '2'), want: [] },
    {
      name: 'labels moved only: the Services joined and left',
      old: pod(0),
      cur: withRv(pod(0, { labels: { app: 'db' } }), '2'),
      want: ['default/db', 'default/web'],
    },
    {
      name: 'labels and IP moved: old and new Services',
      old: pod(0),
      cur: withRv(pod(0, { labels: { app: 'db' }, ip: '10.9.9.9' }), '2'),
      want: ['default/db', 'default/web'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual([...servicesToUpdateOnPodChange(c.old, c.cur, [web, db])].sort(), c.want);
    });
  }
});
