/**
 * One fleet's reconcile, level-triggered, in the order of docs/design/operator.md §2: deletion or the finalizer;
 * the gates (pause, isolation attestation, ServiceAccount, StorageClass contract); the
 * reservation; the prerequisites; the workload and its one scale step; self-healing (at most
 * one destructive action); then one status write, only when the status changed. Every input
 * comes from the caches ({@link observeFleet}); the only reads that go to the API are the one
 * Get after a lost reservation race and the pod re-read right before a replacement.
 *
 * @module
 */
import { asKind, type CelldFleet, type CelldFleetStatus } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { parseTime } from '../../api/time.js';
import { isForbidden } from '../../client/api-client.js';
import { objectRef } from '../../client/resource-path.js';
import { objectKey, splitKey } from '../../client/store.js';
import type { ReconcileResult } from '../../controller/controller.js';
import { replicasOf } from '../../controller/workload-defaults.js';
import { fleetReplicas } from '../api/fleet-defaults.js';
import { CELLD_API_VERSION } from '../api/types.js';
import type { HealingPlan } from '../healing/types.js';
import { renderChildren } from '../render/children.js';
import { type FleetSpecView, type ResolvedFleet, resolveFleet } from '../render/fleet-view.js';
import { ensureChild } from './children.js';
import { reconcileDeletion } from './deletion.js';
import type { FleetDeps } from './deps.js';
import { checkGates } from './gates.js';
import { applyHealing, planFleetHealing } from './healing-step.js';
import { memberPods } from './members.js';
import { cachedFleet, type FleetObservation, observeFleet, type Workload } from './observe.js';
import { scheduleOrderedMembers } from './ordered-bucket.js';
import { type Outcome, outcome, withRequeue } from './outcome.js';
import { ensureReservation } from './reservation-step.js';
import { FLEET_FINALIZER, FLEETS } from './resources.js';
import { blockedChange, fleetStatus, statusChanged } from './status.js';
import { reconcileWorkload, revisionsOf, workloadRolledOut } from './workload-step.js';

/** Nothing to report: the fleet is gone, or a metadata write will bring a fresh event. */
const SKIP = Symbol('skip');

function viewOf(fleet: CelldFleet): FleetSpecView {
  const m = fleet.metadata ?? {};
  return {
    metadata: {
      name: m.name ?? '',
      namespace: m.namespace ?? '',
      uid: m.uid ?? '',
      ...(m.generation === undefined ? {} : { generation: m.generation }),
    },
    spec: fleet.spec,
  };
}

export async function reconcileFleet(deps: FleetDeps, key: string): Promise<ReconcileResult> {
  const [namespace, name] = splitKey(key);
  const cached = deps.listers.fleets.get(namespace, name);
  // The fleet as this operator last wrote it, while the cache still holds the version that
  // write replaced: pod events arrive faster than the watch echoes a status write, and
  // reconciling the older copy would only earn a 409 (one per member event during a roll-out).
  const fleet = deps.ownWrites.newest(key, cachedFleet(cached));
  if (fleet === undefined) {
    deps.metrics?.forget(namespace, name);
    return {};
  }
  const obs = observeFleet(deps.listers, fleet);
  let result: Outcome | typeof SKIP;
  try {
    result = await decide(deps, obs);
  } catch (err) {
    if (!isForbidden(err)) throw err;
    result = outcome.blocked(
      'NamespaceAccessDenied',
      `The operator may not manage namespace ${namespace}: ${err instanceof Error ? err.message : String(err)}; grant it the fleet-namespace Role (deploy/operator/rbac.yaml)`,
    );
  }
  if (result === SKIP) return {};
  await report(deps, obs, result);
  return result.requeueAfterMs === undefined ? {} : { requeueAfter: result.requeueAfterMs };
}

async function decide(deps: FleetDeps, obs: FleetObservation): Promise<Outcome | typeof SKIP> {
  const fleet = obs.fleet;
  if (fleet.metadata?.deletionTimestamp) {
    const step = await reconcileDeletion(deps, obs);
    if (step === undefined) {
      deps.metrics?.forget(fleet.metadata.namespace ?? '', fleet.metadata.name ?? '');
      return SKIP;
    }
    return step;
  }
  const finalizers = fleet.metadata?.finalizers ?? [];
  if (!finalizers.includes(FLEET_FINALIZER)) {
    await deps.client.patch(
      objectRef(FLEETS, fleet),
      {
        metadata: {
          resourceVersion: fleet.metadata?.resourceVersion,
          finalizers: [...finalizers, FLEET_FINALIZER],
        },
      },
      'merge',
    );
    return SKIP;
  }
  const gate = checkGates(obs, deps);
  if (gate !== undefined) return gate;
  const reserved = await ensureReservation(deps, obs);
  if (reserved !== undefined) return reserved;
  const view = viewOf(fleet);
  const resolved = resolveFleet(view);
  const children = renderChildren(view, deps.render);
  const desiredWorkload = children.pop();
  if (desiredWorkload === undefined) throw new Error('renderChildren returned no workload');
  for (const child of children) {
    const ensured = await ensureChild(deps, child, livePrerequisite(obs, child), resolved.uid);
    if (ensured.kind === 'refused') return ensured.outcome;
  }
  const workload = await reconcileWorkload(deps, resolved, obs, desiredWorkload);
  if (workload.outcome !== undefined) return workload.outcome;
  return afterWorkload(deps, resolved, obs, workload.settled, workload.wait, workload.workload);
}

function livePrerequisite(obs: FleetObservation, child: KubeObject): KubeObject | undefined {
  const name = child.metadata?.name ?? '';
  switch (child.kind) {
    case 'Service':
      return obs.services.get(name);
    case 'NetworkPolicy':
      return obs.networkPolicy;
    case 'PodDisruptionBudget':
      return obs.pdb;
    case 'ServiceAccount':
      return obs.serviceAccount;
    default:
      return undefined;
  }
}

async function afterWorkload(
  deps: FleetDeps,
  fleet: ResolvedFleet,
  obs: FleetObservation,
  settled: boolean,
  wait: Outcome | undefined,
  workload: Workload | undefined,
): Promise<Outcome> {
  let plan: HealingPlan | undefined;
  if (fleet.workload !== 'Deployment') {
    plan = planFleetHealing(deps, fleet, obs, settled);
    if (fleet.workload === 'Ordered') {
      await scheduleOrderedMembers(deps, fleet, obs);
      // Ordered Bucket members have no disk to replace: only the stuck-terminating rule.
      const force = plan.action?.kind === 'forceDeletePod' ? plan.action : undefined;
      plan = {
        ...(force ? { action: force } : {}),
        memberStatus: plan.memberStatus,
        ...(plan.requeueAfterMs ? { requeueAfterMs: plan.requeueAfterMs } : {}),
      };
    }
    if (await applyHealing(deps, obs.fleet, plan)) {
      const action = plan.action!;
      return withRequeue(
        {
          ...outcome.progress('LifecycleProgress', action.event.message),
          members: plan.memberStatus,
        },
        plan.requeueAfterMs,
      );
    }
  }
  const base = plan?.blocked
    ? outcome.blocked(plan.blocked.reason, plan.blocked.message)
    : (wait ?? progressOf(fleet, workload, plan));
  return withRequeue(plan ? { ...base, members: plan.memberStatus } : base, plan?.requeueAfterMs);
}

function progressOf(
  fleet: ResolvedFleet,
  workload: Workload | undefined,
  plan: HealingPlan | undefined,
): Outcome {
  if (workload === undefined) return outcome.progress('Provisioning', 'Waiting for the workload');
  const { currentRevision, updateRevision } = revisionsOf(workload);
  const specReplicas = replicasOf(workload);
  const deployment = fleet.workload === 'Deployment';
  if (workloadRolledOut(workload, deployment) && specReplicas === fleet.replicas) {
    return outcome.ready('Workload rolled out and all replicas ready');
  }
  // A StatefulSet is rolling while its revisions differ: a pod that is merely terminating (a
  // lost node) is not counted as updated, but nothing is rolling then.
  const rolling =
    deployment || currentRevision === undefined
      ? (workload.status?.updatedReplicas ?? 0) < specReplicas
      : currentRevision !== updateRevision;
  const note = plan?.memberStatus.find((r) => r.note)?.note;
  const message = rolling
    ? 'Rolling out one member at a time; waiting for updated, ready replicas'
    : `Waiting for ready replicas${note ? `; ${note}` : ''}`;
  return outcome.progress('Provisioning', message);
}

async function report(deps: FleetDeps, obs: FleetObservation, o: Outcome): Promise<void> {
  const fleet = obs.fleet;
  const now = deps.clock.now();
  const reservation = o.reason === 'StorageScopeConflict' ? undefined : obs.reservationName;
  const status = fleetStatus({
    fleet,
    observation: obs,
    outcome: o,
    now,
    ...(reservation ? { reservation } : {}),
  });
  recordMetrics(deps, fleet, status, obs);
  if (!statusChanged(fleet, status)) return;
  const updated = await deps.client.updateStatus(objectRef(FLEETS, fleet), {
    ...fleet,
    apiVersion: CELLD_API_VERSION,
    kind: 'CelldFleet',
    status,
  });
  deps.ownWrites.record(
    objectKey(fleet),
    fleet.metadata?.resourceVersion,
    asKind(updated, 'CelldFleet'),
  );
  const change = blockedChange(fleet.status, status);
  if (change !== undefined) {
    deps.recorder.event(
      fleet,
      change.blocked ? 'Warning' : 'Normal',
      change.reason,
      change.message,
    );
  }
}

function recordMetrics(
  deps: FleetDeps,
  fleet: CelldFleet,
  status: CelldFleetStatus,
  obs: FleetObservation,
): void {
  if (deps.metrics === undefined) return;
  const members = status.members ?? [];
  const blockedSince =
    status.blockedSince === undefined ? undefined : parseTime(status.blockedSince);
  deps.metrics.record(fleet.metadata?.namespace ?? '', fleet.metadata?.name ?? '', {
    desired: fleetReplicas(fleet.spec),
    ready: status.readyReplicas ?? 0,
    observed: status.replicas ?? 0,
    terminating: memberPods(obs).filter((p) => p.metadata?.deletionTimestamp).length,
    ...(blockedSince === undefined ? {} : { blockedSince }),
    membersDown: members.filter((m) => !m.ready).length,
  });
}
