/**
 * The zone capacity model: `placementFeasible` against an exhaustive search of the orders the
 * spread allows (each member goes to a least-filled zone), and table cases of `zonesForFresh`.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { placementFeasible, type ZoneLoad, zonesForFresh } from './zone-capacity.js';

/** Every order: place a pinned or a fresh member in some least-filled zone, until none is left. */
function searchFeasible(zones: readonly ZoneLoad[], fresh: number): boolean {
  const seen = new Set<string>();
  const go = (zs: readonly ZoneLoad[], f: number): boolean => {
    if (f === 0 && zs.every((z) => z.pinned === 0)) return true;
    const key = `${f}|${zs.map((z) => [z.placed, z.pinned, z.freeHosts, z.pinnedNeedingHost].join(',')).join(';')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    const min = Math.min(...zs.map((z) => z.placed));
    return zs.some((z, i) => {
      if (z.placed !== min) return false;
      const at = (next: ZoneLoad) => zs.map((y, j) => (j === i ? next : y));
      const room = z.freeHosts - z.pinnedNeedingHost;
      const hostless = z.pinned - z.pinnedNeedingHost;
      if (hostless > 0 && go(at({ ...z, placed: z.placed + 1, pinned: z.pinned - 1 }), f))
        return true;
      if (
        z.pinnedNeedingHost > 0 &&
        go(
          at({
            ...z,
            placed: z.placed + 1,
            pinned: z.pinned - 1,
            pinnedNeedingHost: z.pinnedNeedingHost - 1,
            freeHosts: z.freeHosts - 1,
          }),
          f,
        )
      )
        return true;
      return (
        f > 0 &&
        room > 0 &&
        go(at({ ...z, placed: z.placed + 1, freeHosts: z.freeHosts - 1 }), f - 1)
      );
    });
  };
  if (zones.some((z) => z.freeHosts < z.pinnedNeedingHost)) return false;
  return go(zones, fresh);
}

const zoneArb: fc.Arbitrary<ZoneLoad> = fc
  .record({
    placed: fc.integer({ min: 0, max: 4 }),
    hostless: fc.integer({ min: 0, max: 2 }),
    needing: fc.integer({ min: 0, max: 2 }),
    freeHosts: fc.integer({ min: 0, max: 4 }),
  })
  .map((r) => ({
    placed: r.placed,
    pinned: r.hostless + r.needing,
    pinnedNeedingHost: r.needing,
    freeHosts: r.freeHosts,
  }));

describe('placementFeasible', () => {
  it('agrees with an exhaustive search of least-filled-zone orders', () => {
    fc.assert(
      fc.property(
        fc.array(zoneArb, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 5 }),
        (zones, fresh) => {
          assert.equal(placementFeasible(zones, fresh), searchFeasible(zones, fresh));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('zonesForFresh: least-filled zones after which every pinned member and as many fresh ones as can fit still fit', () => {
    fc.assert(
      fc.property(
        fc.array(zoneArb, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 5 }),
        (zones, fresh) => {
          const allowed = zonesForFresh(zones, fresh);
          let fits = fresh;
          while (fits >= 0 && !searchFeasible(zones, fits)) fits--;
          if (fits < 0) {
            assert.equal(allowed, undefined);
            return;
          }
          const min = Math.min(...zones.map((z) => z.placed));
          zones.forEach((z, i) => {
            const after = zones.map((y, j) =>
              j === i ? { ...y, placed: y.placed + 1, freeHosts: y.freeHosts - 1 } : y,
            );
            const ok =
              fits > 0 &&
              z.placed === min &&
              z.freeHosts - z.pinnedNeedingHost >= 1 &&
              searchFeasible(after, fits - 1);
            assert.equal(allowed?.includes(i), ok, `zone ${i}`);
          });
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('zonesForFresh', () => {
  const zone = (placed: number, pinned: number, freeHosts: number, needing = pinned): ZoneLoad => ({
    placed,
    pinned,
    freeHosts,
    pinnedNeedingHost: needing,
  });
  const cases: Array<{ name: string; zones: ZoneLoad[]; fresh: number; want?: number[] }> = [
    {
      name: 'no kept member waiting: every least-filled zone with a free node',
      zones: [zone(1, 0, 1), zone(1, 0, 1), zone(2, 0, 1)],
      fresh: 2,
      want: [0, 1],
    },
    {
      name: 'the last free node of a zone belongs to a kept zonal disk there',
      zones: [zone(1, 1, 1), zone(1, 0, 2), zone(1, 0, 2)],
      fresh: 2,
      want: [1, 2],
    },
    {
      name: 'a zone may hold several members: room for the kept one and a fresh one',
      zones: [zone(1, 1, 2), zone(1, 0, 2), zone(1, 0, 2)],
      fresh: 3,
      want: [0, 1, 2],
    },
    {
      name: 'the same with one fresh member fewer: the spread leaves the kept zone one slot',
      zones: [zone(1, 1, 2), zone(1, 0, 2), zone(1, 0, 2)],
      fresh: 2,
      want: [1, 2],
    },
    {
      name: 'the spread: a fresh member in the kept member’s zone would hold it back for good',
      // a2 b2 c2 placed, one kept for a, two fresh: a3 then needs b3 and c3 first, which the
      // one fresh left cannot give.
      zones: [zone(2, 1, 2), zone(2, 0, 1), zone(2, 0, 1)],
      fresh: 2,
      want: [1, 2],
    },
    {
      name: 'the kept members cannot all be placed whatever happens: no restriction (undefined)',
      zones: [zone(1, 2, 1), zone(1, 0, 0)],
      fresh: 1,
    },
    {
      name: 'room for the kept member only: kept disks come first, no zone for the fresh one',
      zones: [zone(1, 1, 1), zone(2, 0, 0), zone(2, 0, 0)],
      fresh: 1,
      want: [],
    },
    {
      name: 'a node-local kept disk needs its own node, not one of the free hosts',
      zones: [zone(1, 1, 1, 0), zone(1, 0, 1)],
      fresh: 2,
      want: [0, 1],
    },
    {
      name: 'a zonal kept disk needs one of the free hosts: one of two fresh members fits, not in a',
      zones: [zone(1, 1, 1), zone(1, 0, 1)],
      fresh: 2,
      want: [1],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(zonesForFresh(c.zones, c.fresh), c.want));
  }
});
