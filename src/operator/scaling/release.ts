/**
 * `planRelease`: which scheduling-gated member pods of a PersistentFleet the scheduler may see
 * now, and where a member on a fresh disk may not go (issue 14, item 8; docs/design/operator.md §9: growth back
 * to an ordinal reattaches its disk, node-local disks alike).
 *
 * A kept disk pins its member: a node-local disk to its node, a zonal one to its zone. A fresh
 * WaitForFirstConsumer disk is made wherever its pod lands. The StatefulSet creates the pods of
 * a growth together, lowest ordinal first, so without help a fresh member can land on the node
 * (or take the last room in the zone) a kept disk needs, and that member never schedules. Every
 * member pod therefore starts behind the gate `celld.fleetyard.dev/disk-placement`, and:
 *
 * 1. a member whose disk exists (a bound claim that is not being deleted) is released at once:
 *    its disk decides where it goes;
 * 2. a member on a fresh disk is released only when every other wanted member on an existing
 *    disk has a pod the scheduler has decided (placed, or found Unschedulable), so kept disks
 *    take their places first and the scheduler counts them (host anti-affinity, zone spread);
 * 3. when every kept disk is in use by its own placed member, nothing can be taken and every
 *    fresh member goes at once; otherwise fresh members go one at a time, each after the
 *    previous one is decided, so each one's exclusions see where the others went;
 * 4. under Strict placement the fresh member is kept off (required node affinity, which a gated
 *    pod may narrow) every free node a node-local kept disk needs, whatever its ordinal: a node
 *    holding a removed member's disk stays reserved to it until the claim is deleted; and off
 *    the free nodes of every zone where, by the capacity model of `zone-capacity.ts`, it would
 *    leave a kept member (one the growth brings back, not yet placed) no way to be placed. A
 *    zone may hold several members, so a zone is excluded only when capacity demands it, and
 *    only a least-filled one (the spread keeps the member out of the others anyway); when no
 *    zone is safe now, the member waits for the kept ones. A zone is never excluded by dropping
 *    every node of it from the affinity (that would drop it as a spread domain, and with
 *    `minDomains` the scheduler would then treat the minimum as 0): the member waits then.
 *
 * Nothing is recorded: the plan is re-derived from pods, claims and nodes on every reconcile.
 *
 * @module
 */
import { memberPodName } from './plan.js';
import type {
  ClaimFacts,
  MemberPodFacts,
  NodeFacts,
  Release,
  ReleaseInput,
  ReleasePlan,
  ScaleWait,
} from './types.js';
import { type ZoneLoad, zonesForFresh } from './zone-capacity.js';

/** The claim's disk exists and stays: it decides where its member runs. */
function pinned(claim: ClaimFacts | undefined): boolean {
  return claim !== undefined && !claim.terminating && claim.bound === true;
}

/** The member's pod is alive and bound to a node. */
function placedNode(member: MemberPodFacts | undefined): string | undefined {
  if (member === undefined || member.terminating || member.placement !== 'scheduled') return;
  return member.node;
}

function decided(member: MemberPodFacts | undefined): boolean {
  return (
    member !== undefined &&
    !member.terminating &&
    !member.gated &&
    (member.placement === 'scheduled' || member.placement === 'unschedulable')
  );
}

/** The plan for one reconcile; see the module note. */
export function planRelease(input: ReleaseInput): ReleasePlan {
  const claims = new Map(input.claims.map((c) => [c.ordinal, c]));
  const members = new Map(input.members.map((m) => [m.ordinal, m]));
  const gated = input.members
    .filter((m) => m.gated && !m.terminating)
    .sort((a, b) => a.ordinal - b.ordinal);
  const releases: Release[] = gated
    .filter((m) => pinned(claims.get(m.ordinal)))
    .map((m) => ({ ordinal: m.ordinal, excludeNodes: [] }));
  const fresh = gated.filter((m) => !pinned(claims.get(m.ordinal)) && m.ordinal < input.replicas);
  const candidate = fresh[0]?.ordinal;
  if (candidate === undefined) return { releases };
  const wait = orderingWait(input, claims, members, candidate);
  if (wait !== undefined) return { releases, wait };
  if (input.mode === 'Relaxed' || nothingToGuard(input, claims, members)) {
    // No place to guard: every fresh member may go at once, wherever the scheduler puts it.
    return {
      releases: [...releases, ...fresh.map((m) => ({ ordinal: m.ordinal, excludeNodes: [] }))],
    };
  }
  const excluded = exclusions(input, claims, members, candidate);
  if ('wait' in excluded) return { releases, wait: excluded.wait };
  return { releases: [...releases, { ordinal: candidate, excludeNodes: excluded.nodes }] };
}

/**
 * Every kept disk is in use by its placed member: none waits for its place, and (node-local)
 * none holds a node for a removed member. A fresh member can then take nothing a kept disk
 * needs. A removed member's zonal disk needs nothing now: its zone is judged when it returns.
 */
function nothingToGuard(
  input: ReleaseInput,
  claims: ReadonlyMap<number, ClaimFacts>,
  members: ReadonlyMap<number, MemberPodFacts>,
): boolean {
  for (const c of claims.values()) {
    if (!pinned(c) || (input.diskScope === 'zone' && c.ordinal >= input.replicas)) continue;
    if (placedNode(members.get(c.ordinal)) === undefined) return false;
  }
  return true;
}

/** Rules 2 and 3: a kept member not yet decided, or a fresh one released but not decided. */
function orderingWait(
  input: ReleaseInput,
  claims: ReadonlyMap<number, ClaimFacts>,
  members: ReadonlyMap<number, MemberPodFacts>,
  candidate: number,
): ScaleWait | undefined {
  const pod = (o: number) => memberPodName(input.setName, o);
  for (let o = 0; o < input.replicas; o++) {
    if (o === candidate || !pinned(claims.get(o)) || decided(members.get(o))) continue;
    return {
      reason: 'SchedulerPending',
      message: `Waiting for the scheduler to place member ${pod(o)} on its kept disk, or find no node for it, before member ${pod(candidate)} starts on a fresh disk`,
    };
  }
  for (const m of members.values()) {
    if (m.ordinal === candidate || m.gated || m.terminating || m.placement !== 'awaiting') continue;
    if (pinned(claims.get(m.ordinal))) continue;
    return {
      reason: 'SchedulerPending',
      message: `Waiting for the scheduler to place member ${pod(m.ordinal)} on its fresh disk before member ${pod(candidate)} starts on one`,
    };
  }
  return undefined;
}

interface Places {
  readonly zoneOf: ReadonlyMap<string, string | undefined>;
  readonly eligible: readonly NodeFacts[];
  /** Nodes holding a member pod, terminating ones included (host anti-affinity counts them). */
  readonly occupied: ReadonlySet<string>;
}

function placesOf(input: ReleaseInput): Places {
  const zoneOf = new Map(input.nodes.map((n) => [n.name, n.zone]));
  const eligible = input.nodes.filter((n) => n.eligible);
  const occupied = new Set(input.members.flatMap((m) => (m.node ? [m.node] : [])));
  return { zoneOf, eligible, occupied };
}

/**
 * Free eligible nodes that node-local kept disks need: every kept disk of ours (any ordinal but
 * the candidate's) whose member is not on its node. A node already holding another member is
 * not listed: that disk is stranded whatever happens now.
 */
function reservedNodes(
  input: ReleaseInput,
  members: ReadonlyMap<number, MemberPodFacts>,
  places: Places,
  candidate: number,
): Map<string, number> {
  const reserved = new Map<string, number>();
  if (input.diskScope !== 'node') return reserved;
  const eligible = new Set(places.eligible.map((n) => n.name));
  for (const c of input.claims) {
    if (c.ordinal === candidate || !c.ours || !pinned(c) || c.node === undefined) continue;
    if (placedNode(members.get(c.ordinal)) === c.node) continue;
    if (eligible.has(c.node) && !places.occupied.has(c.node)) reserved.set(c.node, c.ordinal);
  }
  return reserved;
}

type Exclusions = { nodes: string[] } | { wait: ScaleWait };

/** Rule 4: the nodes the candidate may not take, or a wait when no zone is safe now. */
function exclusions(
  input: ReleaseInput,
  claims: ReadonlyMap<number, ClaimFacts>,
  members: ReadonlyMap<number, MemberPodFacts>,
  candidate: number,
): Exclusions {
  const places = placesOf(input);
  const reserved = reservedNodes(input, members, places, candidate);
  const nodes = new Set(reserved.keys());
  const loads = zoneLoads(input, claims, members, places, reserved, candidate);
  const allowed =
    loads === undefined ? undefined : zonesForFresh(loads, freshCount(input, claims, members));
  const held: ScaleWait = {
    reason: 'PlacementHeld',
    message: `Holding member ${memberPodName(input.setName, candidate)} back from a fresh disk: every zone it could take now holds only the room that members on kept disks need`,
  };
  if (allowed !== undefined && allowed.length === 0) return { wait: held };
  if (allowed !== undefined && loads !== undefined) {
    // Only a least-filled zone can take the member now (maxSkew 1); the others need no rule.
    const lowest = Math.min(...loads.map((z) => z.placed));
    for (const [i, zone] of input.zones.entries()) {
      if (allowed.includes(i) || loads[i]?.placed !== lowest) continue;
      const inZone = places.eligible.filter((n) => n.zone === zone);
      const free = inZone.filter((n) => !places.occupied.has(n.name) && !reserved.has(n.name));
      // Excluding every eligible node of a zone would drop it as a spread domain.
      if (free.length > 0 && free.length === inZone.length) return { wait: held };
      for (const n of free) nodes.add(n.name);
    }
  }
  return { nodes: [...nodes].sort() };
}

/** Fresh members still to place: ordinals below the target with no disk and no bound pod. */
function freshCount(
  input: ReleaseInput,
  claims: ReadonlyMap<number, ClaimFacts>,
  members: ReadonlyMap<number, MemberPodFacts>,
): number {
  let n = 0;
  for (let o = 0; o < input.replicas; o++) {
    if (!pinned(claims.get(o)) && placedNode(members.get(o)) === undefined) n++;
  }
  return n;
}

type Loads = Map<
  string,
  { placed: number; pinned: number; freeHosts: number; pinnedNeedingHost: number }
>;

/**
 * The capacity model's view of each fleet zone, or undefined when a zone has no eligible node
 * (the spread's minimum is then 0 and the model does not apply; nothing is restricted by zone).
 */
function zoneLoads(
  input: ReleaseInput,
  claims: ReadonlyMap<number, ClaimFacts>,
  members: ReadonlyMap<number, MemberPodFacts>,
  places: Places,
  reserved: ReadonlyMap<string, number>,
  candidate: number,
): ZoneLoad[] | undefined {
  if (input.zones.some((z) => !places.eligible.some((n) => n.zone === z))) return undefined;
  const loads: Loads = new Map(
    input.zones.map((z) => [z, { placed: 0, pinned: 0, freeHosts: 0, pinnedNeedingHost: 0 }]),
  );
  // The spread counts live members on the nodes it considers (eligible ones).
  const eligibleZone = new Map(places.eligible.map((n) => [n.name, n.zone]));
  for (const m of members.values()) {
    const zone = m.terminating || m.node === undefined ? undefined : eligibleZone.get(m.node);
    const load = zone === undefined ? undefined : loads.get(zone);
    if (load) load.placed++;
  }
  for (const n of places.eligible) {
    const load = n.zone === undefined ? undefined : loads.get(n.zone);
    if (load && !places.occupied.has(n.name) && !reserved.has(n.name)) load.freeHosts++;
  }
  addKeptDemands(input, claims, members, places, reserved, candidate, loads);
  // Every zone has its entry (made above), so nothing is dropped.
  return input.zones.flatMap((z): ZoneLoad[] => {
    const load = loads.get(z);
    return load === undefined ? [] : [load];
  });
}

/** Counts each wanted kept member not yet placed against the zone its disk pins it to. */
function addKeptDemands(
  input: ReleaseInput,
  claims: ReadonlyMap<number, ClaimFacts>,
  members: ReadonlyMap<number, MemberPodFacts>,
  places: Places,
  reserved: ReadonlyMap<string, number>,
  candidate: number,
  loads: Loads,
): void {
  for (let o = 0; o < input.replicas; o++) {
    const claim = claims.get(o);
    if (o === candidate || !pinned(claim) || placedNode(members.get(o)) !== undefined) continue;
    const demand = keptDemand(input, claim, places, reserved);
    const load = demand === undefined ? undefined : loads.get(demand.zone);
    if (load === undefined || demand === undefined) continue;
    load.pinned++;
    if (demand.needsHost) load.pinnedNeedingHost++;
  }
}

/**
 * Where a kept member not yet placed must go, when it can be placed now: a node-local disk on
 * its reserved (free, eligible) node; a zonal disk in the zone of the node it was made on.
 */
function keptDemand(
  input: ReleaseInput,
  claim: ClaimFacts | undefined,
  places: Places,
  reserved: ReadonlyMap<string, number>,
): { zone: string; needsHost: boolean } | undefined {
  if (claim?.node === undefined) return undefined;
  const zone = places.zoneOf.get(claim.node);
  if (zone === undefined) return undefined;
  if (input.diskScope === 'node') {
    return reserved.has(claim.node) ? { zone, needsHost: false } : undefined;
  }
  return { zone, needsHost: true };
}
