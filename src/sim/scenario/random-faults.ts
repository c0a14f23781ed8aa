/**
 * `random-faults`: for `duration`, every `every`, one fault chosen with a PRNG seeded from
 * the step's `seed` — first the verb, among the listed verbs that have a possible target
 * now, then the target among that verb's candidates sorted by name. Candidates come from the
 * cluster at that moment (node-up only picks a node that is down; lose-volume a Bound
 * claim), so with the cluster's own seed and a paused virtual clock the same file injects
 * the same faults at the same virtual times in every run.
 *
 * | verb                         | candidates                                            |
 * |------------------------------|-------------------------------------------------------|
 * | node-down                    | nodes up, while fewer than `maxNodesDown` are down    |
 * | node-up                      | nodes down                                            |
 * | crash, break-readiness       | running pods not being deleted (namespace, selector)  |
 * | restore-readiness            | pods with readiness broken                            |
 * | lose-volume                  | Bound claims (namespace, selector)                    |
 * | fail-zone / restore-zone     | node zones not failing / failing                      |
 * | fail-node-storage / restore-node-storage | nodes not failing / failing               |
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import { isNotFound } from '../../client/api-errors.js';
import {
  FAILING_NODES_KEY,
  FAILING_ZONES_KEY,
  STORAGE_FAULTS_CONFIGMAP,
} from '../storage/storage-faults.js';
import { type ActionContext, injectFault, interrupted } from './actions.js';
import { formatDuration } from './format.js';
import type { FaultVerb, RandomFaultPlan } from './types.js';

/** mulberry32: a small, fast 32-bit PRNG; returns floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the cluster offers each verb, names sorted. */
export type Candidates = Readonly<Partial<Record<FaultVerb, readonly string[]>>>;

export interface Choice {
  readonly verb: FaultVerb;
  readonly target: string;
  /** Namespace of a pod or claim target. */
  readonly namespace?: string;
}

/** Picks a verb with candidates, then a target; undefined when no verb has one. */
export function chooseFault(
  verbs: readonly FaultVerb[],
  candidates: Candidates,
  random: () => number,
): Choice | undefined {
  const eligible = verbs.filter((v) => (candidates[v]?.length ?? 0) > 0);
  if (eligible.length === 0) return undefined;
  const verb = eligible[Math.floor(random() * eligible.length)] ?? eligible[0]!;
  const list = candidates[verb] ?? [];
  const picked = list[Math.floor(random() * list.length)] ?? list[0]!;
  // Pods and claims are `namespace/name`.
  const slash = picked.indexOf('/');
  return slash < 0
    ? { verb, target: picked }
    : { verb, target: picked.slice(slash + 1), namespace: picked.slice(0, slash) };
}

export async function runRandomFaults(ctx: ActionContext, plan: RandomFaultPlan): Promise<string> {
  const random = seededRandom(plan.seed);
  const clock = ctx.cluster.clock;
  const end = clock.now().getTime() + plan.durationMs;
  const ticks = Math.ceil(plan.durationMs / plan.everyMs);
  let injected = 0;
  const start = clock.now().getTime();
  for (let tick = 1; tick <= ticks; tick++) {
    if (ctx.stopped()) throw interrupted(clock.now().getTime() - start);
    const choice = chooseFault(plan.faults, await candidates(ctx, plan), random);
    if (choice === undefined) {
      ctx.note(`random fault ${tick}/${ticks}: none possible`);
    } else {
      const ns = choice.namespace ? ` -n ${choice.namespace}` : '';
      ctx.note(`random fault ${tick}/${ticks}: ${choice.verb} ${choice.target}${ns}`);
      await injectFault(ctx.cluster, choice.verb, choice.target, choice.namespace);
      injected++;
    }
    const left = end - clock.now().getTime();
    if (left > 0) await clock.advance(Math.min(plan.everyMs, left));
  }
  return `${injected} faults in ${formatDuration(plan.durationMs)}`;
}

const NODES = { group: '', version: 'v1', plural: 'nodes' } as const;
const STATE = 'sim.fleetyard.dev/state';
const READY = 'sim.fleetyard.dev/ready';
const ZONE = 'topology.kubernetes.io/zone';

async function candidates(ctx: ActionContext, plan: RandomFaultPlan): Promise<Candidates> {
  const client = ctx.cluster.client;
  const wants = (...verbs: FaultVerb[]): boolean => verbs.some((v) => plan.faults.includes(v));
  const nodes = (await client.list(NODES)).items;
  const down = nodes.filter((n) => n.metadata?.annotations?.[STATE] === 'down').map(nameOf);
  const up = nodes.filter((n) => n.metadata?.annotations?.[STATE] !== 'down').map(nameOf);
  const out: Partial<Record<FaultVerb, readonly string[]>> = {
    'node-down': down.length < (plan.maxNodesDown ?? Number.POSITIVE_INFINITY) ? sorted(up) : [],
    'node-up': sorted(down),
  };
  const scope = {
    ...(plan.namespace ? { namespace: plan.namespace } : {}),
  };
  const listOptions = plan.selector ? { labelSelector: plan.selector } : {};
  if (wants('crash', 'break-readiness', 'restore-readiness')) {
    const pods = (
      await client.list({ group: '', version: 'v1', plural: 'pods', ...scope }, listOptions)
    ).items;
    const live = pods.filter((p) => !p.metadata?.deletionTimestamp && phase(p) === 'Running');
    out.crash = sorted(live.map(qualified));
    out['break-readiness'] = sorted(
      live.filter((p) => p.metadata?.annotations?.[READY] !== 'false').map(qualified),
    );
    out['restore-readiness'] = sorted(
      pods.filter((p) => p.metadata?.annotations?.[READY] === 'false').map(qualified),
    );
  }
  if (wants('lose-volume')) {
    const ref = { group: '', version: 'v1', plural: 'persistentvolumeclaims', ...scope };
    const claims = (await client.list(ref, listOptions)).items;
    out['lose-volume'] = sorted(claims.filter((c) => phase(c) === 'Bound').map(qualified));
  }
  if (wants('fail-zone', 'restore-zone', 'fail-node-storage', 'restore-node-storage')) {
    const failing = await storageFaults(ctx);
    const zones = [
      ...new Set(nodes.map((n) => n.metadata?.labels?.[ZONE]).filter((z) => z !== undefined)),
    ];
    out['fail-zone'] = sorted(zones.filter((z) => !failing.zones.has(z)));
    out['restore-zone'] = sorted(zones.filter((z) => failing.zones.has(z)));
    out['fail-node-storage'] = sorted(nodes.map(nameOf).filter((n) => !failing.nodes.has(n)));
    out['restore-node-storage'] = sorted(nodes.map(nameOf).filter((n) => failing.nodes.has(n)));
  }
  return out;
}

async function storageFaults(
  ctx: ActionContext,
): Promise<{ zones: Set<string>; nodes: Set<string> }> {
  let data: Record<string, unknown> = {};
  try {
    const cm = await ctx.cluster.client.get({
      group: '',
      version: 'v1',
      plural: 'configmaps',
      ...STORAGE_FAULTS_CONFIGMAP,
    });
    data =
      typeof cm.data === 'object' && cm.data !== null
        ? Object.fromEntries(Object.entries(cm.data))
        : {};
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  const set = (key: string): Set<string> => {
    const v = data[key];
    return new Set(
      typeof v === 'string'
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
    );
  };
  return { zones: set(FAILING_ZONES_KEY), nodes: set(FAILING_NODES_KEY) };
}

function nameOf(o: KubeObject): string {
  return o.metadata?.name ?? '';
}

function qualified(o: KubeObject): string {
  return `${o.metadata?.namespace ?? 'default'}/${nameOf(o)}`;
}

function phase(o: KubeObject): unknown {
  return typeof o.status === 'object' && o.status !== null
    ? Reflect.get(o.status, 'phase')
    : undefined;
}

function sorted(names: readonly string[]): string[] {
  return [...names].sort();
}
