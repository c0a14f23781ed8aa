/**
 * The thin apply of `planRelease` (`scaling/release.ts`): PersistentFleet members start behind
 * the gate `celld.fleetyard.dev/disk-placement`; each release is one update of the pod that adds
 * the planned node exclusions to its required node affinity and removes the gate (the API
 * server accepts both only while the pod is gated), fenced by the cached resourceVersion. A 409
 * or a vanished pod is left to the next reconcile, which plans again from fresher caches.
 *
 * @module
 */
import { asKind } from '../../api/model/index.js';
import type { JsonObject, KubeObject } from '../../api/object.js';
import { isConflict, isNotFound } from '../../client/api-client.js';
import { RESOURCES } from '../../controller/context.js';
import { replicasOf } from '../../controller/workload-defaults.js';
import type { ResolvedFleet } from '../render/fleet-view.js';
import { LABEL_FLEET_UID, SCHEDULING_GATE_DISK_PLACEMENT } from '../render/metadata.js';
import { excludeNodes } from '../render/scheduling.js';
import { diskScope } from '../render/storage-class.js';
import {
  claimFacts,
  memberPodFacts,
  memberPodName,
  nodeFacts,
  planRelease,
  type Release,
  type ReleasePlan,
  type ScaleWait,
} from '../scaling/index.js';
import { isOurs } from './children.js';
import type { FleetDeps } from './deps.js';
import type { FleetObservation, Workload } from './observe.js';

/** The release plan for the fleet's live StatefulSet `set`. */
export function planMemberRelease(
  deps: FleetDeps,
  fleet: ResolvedFleet,
  obs: FleetObservation,
  set: Workload,
): ReleasePlan {
  const setUid = set.metadata?.uid ?? '';
  const replicas = replicasOf(set);
  const zones = fleet.spec.placement.zones;
  return planRelease({
    setName: fleet.name,
    replicas,
    mode: fleet.mode,
    diskScope: diskScope(obs.storageClass),
    zones,
    members: memberPodFacts(obs.pods, fleet.name, setUid, SCHEDULING_GATE_DISK_PLACEMENT),
    claims: claimFacts(obs.claims, fleet.name, { labelKey: LABEL_FLEET_UID, fleetUid: fleet.uid }),
    nodes: deps.listers.nodes.list().map((n) => nodeFacts(n, zones)),
  });
}

/** The pod (`obj`, a cached pod) with the exclusions added and the gate removed. */
export function releasedPod(obj: KubeObject, release: Release): KubeObject {
  const pod = asKind(obj, 'Pod');
  const spec = excludeNodes({ ...pod.spec }, release.excludeNodes);
  const gates = (pod.spec?.schedulingGates ?? []).filter(
    (g) => g.name !== SCHEDULING_GATE_DISK_PLACEMENT,
  );
  const next: JsonObject = { ...spec, schedulingGates: gates };
  if (gates.length === 0) delete next.schedulingGates;
  return { ...pod, apiVersion: 'v1', kind: 'Pod', spec: next };
}

/** Applies the plan's releases; returns how many pods it wrote. */
export async function applyMemberRelease(
  deps: FleetDeps,
  fleet: ResolvedFleet,
  obs: FleetObservation,
  plan: ReleasePlan,
): Promise<number> {
  let written = 0;
  for (const release of plan.releases) {
    const name = memberPodName(fleet.name, release.ordinal);
    const pod = obs.pods.find((p) => p.metadata?.name === name);
    if (pod === undefined) continue;
    try {
      await deps.client.update(
        { ...RESOURCES.pods, namespace: fleet.namespace, name },
        releasedPod(pod, release),
      );
      written++;
    } catch (err) {
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
  }
  return written;
}

/**
 * Plans and applies the releases for a PersistentFleet whose live StatefulSet is ours; returns
 * what the held members wait for.
 */
export async function releaseGatedMembers(
  deps: FleetDeps,
  fleet: ResolvedFleet,
  obs: FleetObservation,
): Promise<ScaleWait | undefined> {
  const set = obs.workload;
  if (fleet.workload !== 'PersistentFleet' || set === undefined || !isOurs(set, fleet.uid)) {
    return undefined;
  }
  if (set.metadata?.deletionTimestamp) return undefined;
  const plan = planMemberRelease(deps, fleet, obs, set);
  await applyMemberRelease(deps, fleet, obs, plan);
  return plan.wait;
}
