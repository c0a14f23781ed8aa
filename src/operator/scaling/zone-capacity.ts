/**
 * Which zones a fresh member may take without stranding a kept disk, under Strict placement:
 * the zone spread is `maxSkew: 1`, `DoNotSchedule`, `minDomains` = the number of zones, and
 * host anti-affinity allows one member per node.
 *
 * With `maxSkew: 1` a pod may go to zone z only when `count(z) + 1 - min ≤ 1`, i.e. only to a
 * zone that holds the fewest members: members fill the zones level by level. A member on a kept
 * disk is pinned to one zone, so it waits until that zone is among the least filled; if fresh
 * members fill the other zones' levels unevenly, or take the free nodes of its zone, it can
 * never be placed. A zone may hold several members, so a zone is not simply "taken" by a kept
 * disk: whether a fresh member may go there is a capacity question, answered here exactly for
 * the model above.
 *
 * Final counts `m` are reachable from the current counts `c` by filling the least-filled zone
 * one member at a time iff every zone that receives a member ends at most one above the final
 * minimum (a zone that gets a member must be a minimum when it gets it, and minima only rise).
 * For a guessed final minimum M each zone then has an interval of fresh members it can take, so
 * feasibility is a sum of interval bounds per M: no search.
 *
 * @module
 */

/** One zone as the capacity model sees it. */
export interface ZoneLoad {
  /** Members bound to an eligible node of the zone (the spread's count). */
  readonly placed: number;
  /** Kept members not placed yet that are pinned to this zone and can be placed now. */
  readonly pinned: number;
  /**
   * Free eligible nodes a member without a fixed node may take: not holding a member and not
   * reserved for a node-local kept disk. Zonal kept members and fresh members both need one.
   */
  readonly freeHosts: number;
  /** Of `pinned`, the ones that need a free host (zonal disks; a node-local one has its node). */
  readonly pinnedNeedingHost: number;
}

/** The interval of fresh members zone `z` can take when the final minimum is `min`. */
function freshRange(z: ZoneLoad, min: number): [number, number] | undefined {
  const hostRoom = z.freeHosts - z.pinnedNeedingHost;
  if (hostRoom < 0) return undefined;
  const base = z.placed + z.pinned;
  let lo: number;
  let hi: number;
  if (z.pinned > 0) {
    if (base > min + 1) return undefined;
    lo = Math.max(min - base, 0);
    hi = min + 1 - base;
  } else if (base > min) {
    // Above the minimum already: it may receive nothing.
    lo = 0;
    hi = 0;
  } else if (base === min) {
    lo = 0;
    hi = 1;
  } else {
    lo = min - base;
    hi = min + 1 - base;
  }
  hi = Math.min(hi, hostRoom);
  return lo <= hi ? [lo, hi] : undefined;
}

/**
 * Whether `fresh` more members without a fixed place, plus every pinned one, can all be placed
 * from `zones` by filling least-filled zones first, within the free hosts.
 */
export function placementFeasible(zones: readonly ZoneLoad[], fresh: number): boolean {
  if (zones.length === 0) return fresh === 0;
  const lowest = Math.min(...zones.map((z) => z.placed));
  const total = zones.reduce((n, z) => n + z.placed + z.pinned, 0) + fresh;
  const highest = Math.ceil(total / zones.length);
  for (let min = lowest; min <= highest; min++) {
    let lo = 0;
    let hi = 0;
    let ok = true;
    for (const z of zones) {
      const range = freshRange(z, min);
      if (range === undefined) {
        ok = false;
        break;
      }
      lo += range[0];
      hi += range[1];
    }
    if (ok && lo <= fresh && fresh <= hi) return true;
  }
  return false;
}

/**
 * How many of `fresh` members can be placed beside every pinned one: the largest count that is
 * feasible (fewer is not always easier: the spread may need fresh members to fill the other
 * zones before a pinned one's zone is least filled), or -1 when the pinned members cannot all
 * be placed even alone.
 */
export function freshThatFit(zones: readonly ZoneLoad[], fresh: number): number {
  for (let f = fresh; f >= 0; f--) if (placementFeasible(zones, f)) return f;
  return -1;
}

/**
 * The zones (indexes into `zones`) where one fresh member may be placed now: a least-filled
 * zone with a free host, after which as many fresh members as can fit, and every pinned one,
 * can still be placed. Kept disks come first: when the room left is only the pinned members',
 * no zone is allowed (`[]`). Undefined when the pinned members cannot all be placed whatever
 * this member does (restricting it would then save nobody, so the caller does not).
 */
export function zonesForFresh(zones: readonly ZoneLoad[], fresh: number): number[] | undefined {
  if (fresh < 1) return undefined;
  const fits = freshThatFit(zones, fresh);
  if (fits < 0) return undefined;
  if (fits === 0) return [];
  const lowest = Math.min(...zones.map((z) => z.placed));
  const allowed: number[] = [];
  zones.forEach((z, i) => {
    if (z.placed !== lowest || z.freeHosts - z.pinnedNeedingHost < 1) return;
    const after = zones.map((y, j) =>
      j === i ? { ...y, placed: y.placed + 1, freeHosts: y.freeHosts - 1 } : y,
    );
    if (placementFeasible(after, fits - 1)) allowed.push(i);
  });
  return allowed;
}
