/**
 * Self-healing's thin apply (docs/design/operator.md §6): gather each member's pod, claim and node from the
 * observation, ask `planHealing`, and issue its one action's deletes in order, each fenced by
 * uid and resourceVersion. A delete that finds the object gone counts as done; a precondition
 * that fails (409) stops the action and the next reconcile re-plans from fresher caches, so a
 * failed or ambiguous call never leads to a delete the plan did not make from observed state.
 *
 * @module
 */
import type { CelldFleet } from '../../api/model/index.js';
import { isNotFound } from '../../client/api-client.js';
import { RESOURCES } from '../../controller/context.js';
import { planHealing } from '../healing/plan-healing.js';
import type { HealingPlan, MemberObservation, PlannedDelete } from '../healing/types.js';
import type { ResolvedFleet } from '../render/fleet-view.js';
import { LABEL_FLEET_UID } from '../render/metadata.js';
import { ordinalOf } from '../scaling/index.js';
import type { FleetDeps } from './deps.js';
import { fencedDelete } from './fenced-delete.js';
import { controlledBy } from './members.js';
import type { FleetObservation } from './observe.js';

/**
 * Member observations by ordinal: the workload's pods `<f>-<n>`, this fleet's claims
 * `data-<f>-<n>`, and the nodes those pods are on.
 */
export function memberObservations(
  fleet: ResolvedFleet,
  obs: FleetObservation,
): MemberObservation[] {
  const members = new Map<number, MemberObservation>();
  const at = (o: number): MemberObservation => {
    let m = members.get(o);
    if (m === undefined) {
      m = { ordinal: o };
      members.set(o, m);
    }
    return m;
  };
  for (const pod of obs.pods) {
    // A stray pod at a member's name, or at an ordinal the fleet never had, is no member: it
    // must not add a row to the member table, nor lend its node to one.
    if (!controlledBy(pod, obs.workload, obs.workloadKind)) continue;
    const o = ordinalOf(pod.metadata?.name ?? '', `${fleet.name}-`);
    if (o === undefined) continue;
    const m = at(o);
    m.pod = pod;
    const nodeName = pod.spec?.nodeName;
    if (nodeName) m.node = obs.node(nodeName);
  }
  for (const claim of obs.claims) {
    const meta = claim.metadata ?? {};
    if (meta.labels?.[LABEL_FLEET_UID] !== fleet.uid || (meta.ownerReferences ?? []).length > 0)
      continue;
    const o = ordinalOf(meta.name ?? '', `data-${fleet.name}-`);
    if (o !== undefined) at(o).claim = claim;
  }
  return [...members.values()].sort((a, b) => a.ordinal - b.ordinal);
}

export function planFleetHealing(
  deps: FleetDeps,
  fleet: ResolvedFleet,
  obs: FleetObservation,
  settled: boolean,
): HealingPlan {
  const workload = obs.workload;
  return planHealing({
    settings: {
      replicas: fleet.replicas,
      ...(deps.memberReplacementDelayMs === undefined
        ? {}
        : { memberReplacementDelayMs: deps.memberReplacementDelayMs }),
    },
    now: deps.clock.now(),
    workloadName: fleet.name,
    workloadUid: workload?.metadata?.uid ?? '',
    workloadSettled: settled,
    members: memberObservations(fleet, obs),
  });
}

/**
 * Before a claim delete that a pod delete follows (a replacement), re-read the pod from the
 * API, not the cache: if it changed since the plan (it recovered, or was replaced), the
 * claim is kept and the next reconcile re-plans. The claim's own preconditions cannot see a
 * pod that became Ready, so without this a member that came back just before the delete would
 * still lose its disk (the Go operator's "Pod/PVC replacement race"). One GET per replacement.
 */
async function podUnchanged(
  deps: FleetDeps,
  namespace: string,
  deletes: readonly PlannedDelete[],
): Promise<boolean> {
  const [first, ...rest] = deletes;
  const pod = rest.find((d) => d.kind === 'Pod');
  if (first?.kind !== 'PersistentVolumeClaim' || pod === undefined) return true;
  try {
    const live = await deps.client.get({
      ...RESOURCES.pods,
      namespace,
      name: pod.name,
    });
    return live.metadata?.uid === pod.uid && live.metadata?.resourceVersion === pod.resourceVersion;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

/** Issues the plan's action, if any, then records its event on the fleet. */
export async function applyHealing(
  deps: FleetDeps,
  fleetObj: CelldFleet,
  plan: HealingPlan,
): Promise<boolean> {
  const action = plan.action;
  if (action === undefined) return false;
  const namespace = fleetObj.metadata?.namespace ?? '';
  if (!(await podUnchanged(deps, namespace, action.deletes))) return false;
  let issued = 0;
  for (const d of action.deletes) {
    if (!(await fencedDelete(deps, { ...d, namespace }))) break;
    issued++;
  }
  // Nothing deleted: the plan read a stale cache; nothing happened worth an event.
  if (issued === 0) return false;
  deps.recorder.event(fleetObj, action.event.type, action.event.reason, action.event.message);
  deps.metrics?.replaced(namespace, fleetObj.metadata?.name ?? '', action.kind);
  deps.log?.info(
    {
      fleet: `${namespace}/${fleetObj.metadata?.name}`,
      action: action.kind,
      ordinal: action.ordinal,
    },
    'healing action',
  );
  return true;
}
