/**
 * The cluster the dashboard's tests and screenshots look at: the README's walk-through (the
 * Deployment `web`, the StatefulSet example with zonal disks) and its celld fleet `orders`,
 * on `fleetyard up --clock virtual --nodes 6`, and the choices made on it: which member's node
 * to take down so the member cannot come back in its zone and gets replaced (Strict placement
 * puts five members on six nodes, so exactly one zone has a free node).
 *
 * @module
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { type Cluster, REPO_ROOT } from './cluster.js';
import { clusterTime, fleetyard } from './dashboard-fixtures.js';
import type { Kubectl } from './kubectl.js';

/** `up` flags: a paused virtual clock at a fixed start, six nodes, a fixed seed, and the
 * operator's shortest replacement delay (1 min) so a replacement takes few virtual minutes. */
export const SCENARIO_UP_ARGS = [
  '--clock=virtual',
  '--clock-start=2026-01-01T00:00:00Z',
  '--speed=0',
  '--nodes=6',
  '--seed=1',
  '--member-replacement-delay=1m',
] as const;

export const ZONE_LABEL = 'topology.kubernetes.io/zone';

export interface Obj {
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly uid?: string;
    readonly labels?: Record<string, string>;
    readonly annotations?: Record<string, string>;
    readonly deletionTimestamp?: string;
  };
  readonly spec?: {
    readonly nodeName?: string;
    readonly unschedulable?: boolean;
    readonly replicas?: number;
    readonly claimRef?: { readonly namespace?: string; readonly name?: string };
    readonly nodeAffinity?: {
      readonly required?: {
        readonly nodeSelectorTerms?: readonly {
          readonly matchExpressions?: readonly { key: string; values?: string[] }[];
        }[];
      };
    };
  };
  readonly status?: {
    readonly phase?: string;
    readonly conditions?: readonly { type: string; status: string }[];
    readonly members?: readonly FleetMember[];
  };
}

export interface FleetMember {
  readonly pod: string;
  readonly node?: string;
  readonly zone?: string;
  readonly claim?: string;
  readonly claimPhase?: string;
  readonly downSince?: string;
  readonly replacementDue?: string;
  readonly note?: string;
}

export async function list(k: Kubectl, ...what: string[]): Promise<Obj[]> {
  return (JSON.parse(await k.ok(['get', ...what, '-o', 'json'])) as { items: Obj[] }).items;
}

export async function getObj(k: Kubectl, ...what: string[]): Promise<Obj> {
  return JSON.parse(await k.ok(['get', ...what, '-o', 'json'])) as Obj;
}

/** The README's walk-through and its fleet, then 2 virtual minutes for everything to start. */
export async function applyWalkthrough(k: Kubectl, cluster: Cluster): Promise<void> {
  await k.ok(['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=6']);
  await k.ok(['apply', '-f', join(REPO_ROOT, 'examples', 'web-statefulset.yaml')]);
  await k.ok(['apply', '-f', join(REPO_ROOT, 'examples', 'celld-persistent-fleet.yaml')]);
  await fleetyard(cluster, 'clock', 'advance', '2m');
}

export function isReady(o: Obj): boolean {
  return (o.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The zone a PV is pinned to by its node affinity, if it is zonal. */
export function pvZone(pv: Obj): string | undefined {
  for (const term of pv.spec?.nodeAffinity?.required?.nodeSelectorTerms ?? []) {
    for (const e of term.matchExpressions ?? []) {
      if (e.key === ZONE_LABEL || e.key === 'topology.ebs.csi.aws.com/zone') return e.values?.[0];
    }
  }
  return undefined;
}

export interface FleetPlan {
  /** The member whose node goes down: in a zone without a free node, so it is replaced. */
  readonly member: string;
  readonly downNode: string;
  /** The node without a member (where the replaced member comes back). */
  readonly freeNode: string;
  /** A node that is neither: the one the tests cordon. */
  readonly spareNode: string;
}

export async function planFleet(k: Kubectl): Promise<FleetPlan> {
  const nodes = await list(k, 'nodes');
  const pods = await list(k, 'pods', '-l', 'app.kubernetes.io/instance=orders');
  const members = new Map<string, string>();
  for (const p of pods) {
    if (/^orders-\d+$/.test(p.metadata.name) && p.spec?.nodeName)
      members.set(p.spec.nodeName, p.metadata.name);
  }
  if (members.size !== 5) {
    const where = pods.map((p) => `${p.metadata.name}@${p.spec?.nodeName}`).join(', ');
    throw new Error(`expected 5 orders members on 5 nodes, found: ${where}`);
  }
  const zone = (name: string): string | undefined =>
    nodes.find((n) => n.metadata.name === name)?.metadata.labels?.[ZONE_LABEL];
  const freeNode = nodes.map((n) => n.metadata.name).find((n) => !members.has(n));
  if (freeNode === undefined) throw new Error('no node without an orders member');
  const candidates = [...members.entries()]
    .filter(([node]) => zone(node) !== zone(freeNode))
    .sort(([, a], [, b]) => a.localeCompare(b));
  const [downNode, member] = candidates[0]!;
  const spareNode = [...members.keys()].find((n) => n !== downNode)!;
  return { member, downNode, freeNode, spareNode };
}

/** The fleet's status entry for `pod`. */
export async function fleetMember(k: Kubectl, pod: string): Promise<FleetMember | undefined> {
  const fleet = await getObj(k, 'celldfleets.celld.fleetyard.dev', 'orders');
  return fleet.status?.members?.find((m) => m.pod === pod);
}

/**
 * Moves the timeline's scrub slider to the last moment before `change` (a history entry the
 * result must not include), whatever the slider's values are: times in ms since the epoch (the
 * paused virtual clock gives many changes the same ms, so: 1 ms before it), a change's `seq`,
 * or its index in the history. Returns the value set.
 */
export async function scrubBefore(
  page: Page,
  history: { readonly seq: number; readonly entries: readonly { seq: number }[] },
  change: { readonly seq: number; readonly time: string },
): Promise<string> {
  const slider = page.locator('input[type=range][data-testid="scrub"]');
  const max = Number(await slider.getAttribute('max'));
  let value: number;
  if (max > 1e11) value = Date.parse(change.time) - 1;
  else if (max >= history.seq) value = change.seq - 1;
  else value = Math.max(0, history.entries.findIndex((e) => e.seq === change.seq) - 1);
  await slider.fill(String(value));
  return String(value);
}

/**
 * Advances the clock until `member` (its node down) has a `replacementDue` still in the
 * future: it is down from its node's NotReady on, and qualifies once its pod was
 * force-deleted and recreated where it cannot run (~8.5 virtual minutes after node-down with
 * the default timings). Returns that time.
 */
export async function advanceUntilDue(
  k: Kubectl,
  cluster: Cluster,
  member: string,
): Promise<string> {
  for (let step = 0; step < 40; step++) {
    const m = await fleetMember(k, member);
    const now = await clusterTime(cluster);
    if (m?.replacementDue && Date.parse(m.replacementDue) > now) return m.replacementDue;
    await fleetyard(cluster, 'clock', 'advance', step === 0 ? '7m' : '15s');
  }
  throw new Error(`${member} never got a replacementDue in the future`);
}
