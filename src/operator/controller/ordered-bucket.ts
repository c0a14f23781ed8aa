/**
 * Ordered Bucket members start scheduling-gated; the operator pins member `n` to zone
 * `zones[n % len(zones)]` with a nodeSelector and removes the gate in one update (the API
 * server allows adding nodeSelector entries only while a pod is gated). One update per gated
 * pod, fenced by its resourceVersion.
 *
 * @module
 */
import { asKind } from '../../api/model/index.js';
import type { JsonObject, KubeObject } from '../../api/object.js';
import { isConflict, isNotFound } from '../../client/api-client.js';
import { RESOURCES } from '../../controller/context.js';
import type { ResolvedFleet } from '../render/fleet-view.js';
import { SCHEDULING_GATE_BUCKET_ZONE } from '../render/metadata.js';
import { orderedZoneFor, ZONE_KEY } from '../render/scheduling.js';
import { ordinalOf } from '../scaling/index.js';
import type { FleetDeps } from './deps.js';
import type { FleetObservation } from './observe.js';

/**
 * The pod (`obj`, a cached pod) with its zone pinned and the gate removed, or undefined when it
 * needs nothing.
 */
export function ungatedPod(fleet: ResolvedFleet, obj: KubeObject): KubeObject | undefined {
  const pod = asKind(obj, 'Pod');
  const spec = pod.spec;
  const gates = spec?.schedulingGates ?? [];
  if (pod.metadata?.deletionTimestamp || !gates.some((g) => g.name === SCHEDULING_GATE_BUCKET_ZONE))
    return undefined;
  const ordinal = ordinalOf(pod.metadata?.name ?? '', `${fleet.name}-`);
  const zone = ordinal === undefined ? undefined : orderedZoneFor(fleet, ordinal);
  if (zone === undefined) return undefined;
  const rest = gates.filter((g) => g.name !== SCHEDULING_GATE_BUCKET_ZONE);
  const next: JsonObject = {
    ...spec,
    nodeSelector: { ...spec?.nodeSelector, [ZONE_KEY]: zone },
  };
  if (rest.length > 0) next.schedulingGates = rest;
  else delete next.schedulingGates;
  return { ...pod, apiVersion: 'v1', kind: 'Pod', spec: next };
}

/** Pins and ungates every gated member the StatefulSet controls; returns how many it wrote. */
export async function scheduleOrderedMembers(
  deps: FleetDeps,
  fleet: ResolvedFleet,
  obs: FleetObservation,
): Promise<number> {
  const setUid = obs.workload?.metadata?.uid;
  if (setUid === undefined) return 0;
  let written = 0;
  for (const pod of obs.pods) {
    const controller = (pod.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
    if (controller?.uid !== setUid) continue;
    const next = ungatedPod(fleet, pod);
    if (next === undefined) continue;
    try {
      await deps.client.update(
        { ...RESOURCES.pods, namespace: fleet.namespace, name: pod.metadata?.name ?? '' },
        next,
      );
      written++;
    } catch (err) {
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
  }
  return written;
}
