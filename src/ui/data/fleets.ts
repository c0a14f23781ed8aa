/**
 * The Fleets view's model, from each CelldFleet's `status` (docs/operator.md "Status"): the
 * member table rows (`status.members[]`), conditions, the reservation name, and the fleet's
 * Events (core Events whose `involvedObject` is the fleet), newest first.
 *
 * @module
 */
import { collator } from './cluster-map.js';
import { arr, bool, isJsonObject, type KubeObject, num, str } from './json.js';
import { type EventRow, eventsFor } from './relations.js';
import type { ObjectStore } from './store.js';

export const FLEET_GROUP = 'celld.fleetyard.dev';
export const FLEET_RESOURCE = 'celldfleets';

export interface MemberRow {
  readonly pod: string;
  readonly ordinal: number | undefined;
  readonly ready: boolean;
  readonly node: string;
  readonly zone: string;
  readonly claim: string;
  readonly claimPhase: string;
  readonly downSince: string;
  /** ms since the epoch (cluster time), when a replacement is counting down. */
  readonly replacementDueMs: number | undefined;
  readonly note: string;
}

export interface ConditionRow {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  readonly message: string;
  readonly lastTransitionTime: string;
}

export interface FleetCard {
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly object: KubeObject;
  readonly state: string;
  readonly replicas: number;
  readonly readyReplicas: number;
  readonly reservation: string;
  readonly paused: boolean;
  readonly members: readonly MemberRow[];
  readonly conditions: readonly ConditionRow[];
  readonly events: readonly EventRow[];
}

export function memberRows(fleet: KubeObject): MemberRow[] {
  const rows: MemberRow[] = [];
  for (const m of arr(fleet, 'status', 'members')) {
    if (!isJsonObject(m)) continue;
    const due = str(m, 'replacementDue');
    const dueMs = due === undefined ? Number.NaN : Date.parse(due);
    rows.push({
      pod: str(m, 'pod') ?? '',
      ordinal: num(m, 'ordinal'),
      ready: bool(m, 'ready') === true,
      node: str(m, 'node') ?? '',
      zone: str(m, 'zone') ?? '',
      claim: str(m, 'claim') ?? '',
      claimPhase: str(m, 'claimPhase') ?? '',
      downSince: str(m, 'downSince') ?? '',
      replacementDueMs: Number.isNaN(dueMs) ? undefined : dueMs,
      note: str(m, 'note') ?? '',
    });
  }
  return rows;
}

export function conditionRows(object: KubeObject): ConditionRow[] {
  return arr(object, 'status', 'conditions')
    .filter(isJsonObject)
    .map((c) => ({
      type: str(c, 'type') ?? '',
      status: str(c, 'status') ?? 'Unknown',
      reason: str(c, 'reason') ?? '',
      message: str(c, 'message') ?? '',
      lastTransitionTime: str(c, 'lastTransitionTime') ?? '',
    }));
}

export function fleetCards(store: ObjectStore): FleetCard[] {
  return store
    .list(FLEET_GROUP, FLEET_RESOURCE)
    .map((object): FleetCard => {
      const namespace = object.metadata.namespace ?? '';
      return {
        key: `${namespace}/${object.metadata.name}`,
        namespace,
        name: object.metadata.name,
        object,
        state: str(object, 'status', 'state') ?? 'Unknown',
        replicas: num(object, 'spec', 'replicas') ?? 0,
        readyReplicas: num(object, 'status', 'readyReplicas') ?? 0,
        reservation: str(object, 'status', 'reservation') ?? '',
        paused: bool(object, 'spec', 'maintenance', 'paused') === true,
        members: memberRows(object),
        conditions: conditionRows(object),
        events: eventsFor(store, object),
      };
    })
    .sort((a, b) => collator.compare(a.key, b.key));
}
