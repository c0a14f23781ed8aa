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

interface NodeSelectorTerm {
  matchExpressions?: unknown[];
  matchFields?: { key: string; operator: string; values: string[] }[];
}

/**
 * A gated Pod's spec with `nodes` excluded: one `metadata.name NotIn [node]` field requirement
 * per node added to every required node-affinity term (terms are ORed, requirements ANDed).
 * A gated Pod may only narrow its required node affinity this way (upstream's mutable
 * scheduling directives, KEP-3838, GA in 1.30); a field requirement takes exactly one value,
 * and names the node itself, whatever its hostname label says.
 */
export function excludeNodes(
  spec: Record<string, unknown>,
  nodes: readonly string[],
): Record<string, unknown> {
  if (nodes.length === 0) return spec;
  const affinity = (spec.affinity ?? {}) as Record<string, unknown>;
  const nodeAffinity = (affinity.nodeAffinity ?? {}) as Record<string, unknown>;
  const required = nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution as
    | { nodeSelectorTerms?: NodeSelectorTerm[] }
    | undefined;
  const fields = (have: NodeSelectorTerm['matchFields'] = []) => [
    ...have,
    ...nodes
      .filter((n) => !have.some((f) => f.operator === 'NotIn' && f.values?.[0] === n))
      .map((n) => ({ key: 'metadata.name', operator: 'NotIn', values: [n] })),
  ];
  const terms = required?.nodeSelectorTerms ?? [];
  const narrowed =
    terms.length === 0
      ? [{ matchFields: fields() }]
      : terms.map((t) => ({ ...t, matchFields: fields(t.matchFields) }));
  return {
    ...spec,
    affinity: {
      ...affinity,
      nodeAffinity: {
        ...nodeAffinity,
        requiredDuringSchedulingIgnoredDuringExecution: {
          ...required,
          nodeSelectorTerms: narrowed,
        },
      },
    },
  };
}
