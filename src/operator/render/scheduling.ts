/**
 * Where members may run (§2.3 "Scheduling"): a required node affinity to the fleet's zones
 * and Linux, a zone topology spread, and host anti-affinity. Strict placement makes the
 * spread and the anti-affinity hard rules; Relaxed turns both into preferences so a fleet
 * still starts when zones or hosts are short.
 *
 * Ordered Bucket fleets place each ordinal in `zones[ordinal % zones]` themselves (the
 * operator sets a nodeSelector, then lifts a scheduling gate), so in Strict mode a hard
 * spread would only fight that assignment and is left out.
 *
 * @module
 */

import type { ResolvedFleet } from './fleet-view.js';
import { selectorLabels } from './metadata.js';

export const ZONE_KEY = 'topology.kubernetes.io/zone';
export const HOSTNAME_KEY = 'kubernetes.io/hostname';
export const OS_KEY = 'kubernetes.io/os';

/** The Pod spec's `affinity`. */
export function renderAffinity(fleet: ResolvedFleet): Record<string, unknown> {
  const term = {
    labelSelector: { matchLabels: selectorLabels(fleet) },
    topologyKey: HOSTNAME_KEY,
  };
  const podAntiAffinity =
    fleet.mode === 'Strict'
      ? { requiredDuringSchedulingIgnoredDuringExecution: [term] }
      : {
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: term }],
        };
  return {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          {
            matchExpressions: [
              { key: ZONE_KEY, operator: 'In', values: [...fleet.spec.placement.zones] },
              { key: OS_KEY, operator: 'In', values: ['linux'] },
            ],
          },
        ],
      },
    },
    podAntiAffinity,
  };
}

/** The Pod spec's `topologySpreadConstraints`, or undefined when none apply. */
export function renderTopologySpread(fleet: ResolvedFleet): Record<string, unknown>[] | undefined {
  if (fleet.workload === 'Ordered' && fleet.mode === 'Strict') return undefined;
  const base = {
    maxSkew: 1,
    topologyKey: ZONE_KEY,
    labelSelector: { matchLabels: selectorLabels(fleet) },
    nodeAffinityPolicy: 'Honor',
    nodeTaintsPolicy: 'Honor',
  };
  if (fleet.mode === 'Relaxed') return [{ ...base, whenUnsatisfiable: 'ScheduleAnyway' }];
  // minDomains makes the scheduler count an empty zone as skew 0, so members do not pile into
  // the zones that happen to have nodes up when the fleet starts.
  return [
    { ...base, whenUnsatisfiable: 'DoNotSchedule', minDomains: fleet.spec.placement.zones.length },
  ];
}

/** The zone an Ordered Bucket member is pinned to. */
export function orderedZoneFor(fleet: ResolvedFleet, ordinal: number): string | undefined {
  const zones = fleet.spec.placement.zones;
  if (zones.length === 0 || ordinal < 0) return undefined;
  return zones[ordinal % zones.length];
}
