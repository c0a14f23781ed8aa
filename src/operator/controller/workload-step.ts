/**
 * The workload (docs/design/operator.md §2.6): create it when missing (after the foreign-claim check),
 * refuse one that is not the fleet's, then write one `spec.replicas` step together with the
 * operator-owned fields (template, strategy, retention) in a single fenced update.
 *
 * PersistentFleet steps come from `planScale` (contraction one member after a full roll-out,
 * growth in one write); Bucket fleets contract one member at a time after a roll-out too, and
 * grow in one step (their disks are scratch). Before the write, PersistentFleet members waiting
 * behind the disk-placement gate are released (`member-release.ts`): members on kept disks at
 * once, members on fresh disks once they cannot take a place a kept disk needs.
 *
 * @module
 */
import { asKind, type PersistentVolumeClaim } from '../../api/model/index.js';
import { isJsonObject, type JsonObject, type KubeObject } from '../../api/object.js';
import { replicasOf } from '../../controller/workload-defaults.js';
import { convergeObject } from '../render/converge.js';
import type { ResolvedFleet } from '../render/fleet-view.js';
import { LABEL_FLEET_UID } from '../render/metadata.js';
import {
  claimFacts,
  memberClaimName,
  planScale,
  rolledOut,
  type ScalePlan,
  type ScaleWait,
  type StatefulSetFacts,
} from '../scaling/index.js';
import { ensureChild } from './children.js';
import type { FleetDeps } from './deps.js';
import { releaseGatedMembers } from './member-release.js';
import type { FleetObservation, Workload } from './observe.js';
import { type Outcome, outcome } from './outcome.js';

export interface WorkloadResult {
  /** Set when the fleet cannot go on this reconcile (blocked, or just created). */
  readonly outcome?: Outcome;
  /** The live workload after this step's write, if any. */
  readonly workload?: Workload;
  /**
   * Desired equals actual and the workload controller has observed it
   * (docs/design/operator.md §2.7).
   */
  readonly settled: boolean;
  /** What the scale plan waits for, reported when nothing more urgent is. */
  readonly wait?: Outcome;
}

/** A StatefulSet's revisions (a Deployment has none): what says a roll-out is under way. */
export function revisionsOf(w: Workload): { currentRevision?: string; updateRevision?: string } {
  const s = w.status;
  const out: { currentRevision?: string; updateRevision?: string } = {};
  if (s === undefined) return out;
  if ('currentRevision' in s && s.currentRevision !== undefined) {
    out.currentRevision = s.currentRevision;
  }
  if ('updateRevision' in s && s.updateRevision !== undefined)
    out.updateRevision = s.updateRevision;
  return out;
}

/** The scaling planner's facts of a StatefulSet (`obj`, from a StatefulSet source). */
export function setFacts(obj: KubeObject): StatefulSetFacts {
  const set = asKind(obj, 'StatefulSet');
  const s = set.status;
  const facts: StatefulSetFacts = {
    specReplicas: replicasOf(set),
    generation: set.metadata?.generation ?? 0,
    replicas: s?.replicas ?? 0,
    readyReplicas: s?.readyReplicas ?? 0,
    updatedReplicas: s?.updatedReplicas ?? 0,
  };
  if (s?.observedGeneration !== undefined) facts.observedGeneration = s.observedGeneration;
  return { ...facts, ...revisionsOf(set) };
}

/** A Deployment's roll-out is done: observed, every replica updated, Ready and none extra. */
function deploymentRolledOut(obj: KubeObject): boolean {
  const d = asKind(obj, 'Deployment');
  const s = d.status;
  const n = replicasOf(d);
  return (
    (s?.observedGeneration ?? -1) >= (d.metadata?.generation ?? 0) &&
    s?.replicas === n &&
    s.updatedReplicas === n &&
    s.readyReplicas === n
  );
}

/**
 * The fleet's layout says which kind `w` is: list items from a real API server carry no
 * `kind`, so a cached object's own `kind` cannot be trusted.
 */
export function workloadRolledOut(w: KubeObject, deployment: boolean): boolean {
  return deployment ? deploymentRolledOut(w) : rolledOut(setFacts(w));
}

/** Every claim at a member name for ordinals below `upTo`, plus the fleet-labelled ones. */
function memberClaims(
  obs: FleetObservation,
  setName: string,
  upTo: number,
): PersistentVolumeClaim[] {
  const byName = new Map<string, PersistentVolumeClaim>();
  for (const c of obs.claims) byName.set(c.metadata?.name ?? '', c);
  for (let o = 0; o < upTo; o++) {
    const name = memberClaimName(setName, o);
    const found = byName.get(name) ?? obs.claimNamed(name);
    if (found !== undefined) byName.set(name, found);
  }
  return [...byName.values()];
}

function persistentPlan(
  obs: FleetObservation,
  fleet: ResolvedFleet,
  live: Workload | undefined,
  templateConverged: boolean,
): ScalePlan {
  const set: StatefulSetFacts =
    live === undefined
      ? {
          specReplicas: 0,
          generation: 0,
          observedGeneration: 0,
          replicas: 0,
          readyReplicas: 0,
          updatedReplicas: 0,
        }
      : setFacts(live);
  const upTo = Math.max(fleet.replicas, set.specReplicas);
  const claims = claimFacts(memberClaims(obs, fleet.name, upTo), fleet.name, {
    labelKey: LABEL_FLEET_UID,
    fleetUid: fleet.uid,
  });
  return planScale({
    setName: fleet.name,
    desired: fleet.replicas,
    set,
    templateConverged,
    claims,
  });
}

function bucketReplicas(
  fleet: ResolvedFleet,
  live: Workload,
  templateConverged: boolean,
): ScalePlan {
  const applied = replicasOf(live);
  if (fleet.replicas >= applied)
    return fleet.replicas === applied
      ? { action: 'none' }
      : { action: 'grow', replicas: fleet.replicas };
  if (!templateConverged || !workloadRolledOut(live, fleet.workload === 'Deployment')) {
    return {
      action: 'contract',
      wait: {
        reason: 'RolloutPending',
        message: 'Waiting for the previous change to roll out before removing a member',
      },
    };
  }
  return { action: 'contract', replicas: applied - 1 };
}

function withReplicas(desired: KubeObject, replicas: number): KubeObject {
  return { ...desired, spec: { ...objectField(desired.spec), replicas } };
}

/** A rendered object's field that is an object (`spec`), or an empty one. */
function objectField(value: unknown): JsonObject {
  return isJsonObject(value) ? value : {};
}

function waitOutcome(wait: ScaleWait | undefined): Outcome | undefined {
  if (wait === undefined) return undefined;
  return outcome.progress('Provisioning', wait.message);
}

function scalePlan(
  fleet: ResolvedFleet,
  obs: FleetObservation,
  live: Workload | undefined,
  templateConverged: boolean,
): ScalePlan {
  if (fleet.workload === 'PersistentFleet')
    return persistentPlan(obs, fleet, live, templateConverged);
  if (live === undefined) return { action: 'grow', replicas: fleet.replicas };
  return bucketReplicas(fleet, live, templateConverged);
}

function hasObserved(w: Workload | undefined): boolean {
  const observed = w?.status?.observedGeneration ?? -1;
  return w !== undefined && observed >= (w.metadata?.generation ?? 0);
}

const CREATED = 'Workload created; waiting for runtime readiness and placement';

/** An object the server answered for the fleet's workload, as the layout's kind. */
function asWorkload(fleet: ResolvedFleet, obj: KubeObject): Workload {
  return fleet.workload === 'Deployment' ? asKind(obj, 'Deployment') : asKind(obj, 'StatefulSet');
}

/** Creates or converges the workload; see the module note. */
export async function reconcileWorkload(
  deps: FleetDeps,
  fleet: ResolvedFleet,
  obs: FleetObservation,
  desired: KubeObject,
): Promise<WorkloadResult> {
  const live = obs.workload;
  if (live?.metadata?.deletionTimestamp) {
    const message = `Waiting for the deleted ${desired.kind} ${fleet.name} to go before it is recreated`;
    return { outcome: outcome.progress('Provisioning', message), settled: false };
  }
  const held = await releaseGatedMembers(deps, fleet, obs);
  const templateConverged =
    live !== undefined && convergeObject(live, desired, { keepReplicas: true }) === undefined;
  const plan = scalePlan(fleet, obs, live, templateConverged);
  if (plan.block !== undefined) {
    return {
      outcome: outcome.blocked('StorageIdentityConflict', plan.block.message),
      settled: false,
    };
  }
  // Nothing to add yet (e.g. the first run waits): a new StatefulSet starts at 0.
  const replicas = plan.replicas ?? (live === undefined ? 0 : replicasOf(live));
  const result = await ensureChild(
    deps,
    withReplicas(desired, replicas),
    live,
    fleet.uid,
    'LifecycleBlocked',
  );
  if (result.kind === 'refused') return { outcome: result.outcome, settled: false };
  const written = result.object === undefined ? undefined : asWorkload(fleet, result.object);
  if (result.kind === 'created') {
    return {
      outcome: outcome.progress('Provisioning', CREATED),
      settled: false,
      ...(written ? { workload: written } : {}),
    };
  }
  const current = written ?? live;
  const settled =
    result.kind === 'unchanged' && hasObserved(current) && replicas === fleet.replicas;
  const wait = waitOutcome(plan.wait ?? held);
  return { settled, ...(current ? { workload: current } : {}), ...(wait ? { wait } : {}) };
}
