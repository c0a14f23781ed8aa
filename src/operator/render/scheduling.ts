/**
 * Where members may run (docs/design/operator.md §3): a required node affinity to the fleet's zones
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

import type { Affinity, PodAntiAffinity, TopologySpreadConstraint } from '../../api/model/index.js';
import { isJsonObject, type JsonObject } from '../../api/object.js';
import type { ResolvedFleet } from './fleet-view.js';
import { selectorLabels } from './metadata.js';

export const ZONE_KEY = 'topology.kubernetes.io/zone';
export const HOSTNAME_KEY = 'kubernetes.io/hostname';
export const OS_KEY = 'kubernetes.io/os';

/** The Pod spec's `affinity`. */
export function renderAffinity(fleet: ResolvedFleet): Affinity {
  const term = {
    labelSelector: { matchLabels: selectorLabels(fleet) },
    topologyKey: HOSTNAME_KEY,
  };
  const podAntiAffinity: PodAntiAffinity =
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
export function renderTopologySpread(fleet: ResolvedFleet): TopologySpreadConstraint[] | undefined {
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

/** `v` when it is a JSON object, else an empty one (an absent `affinity`, say). */
function objectAt(v: unknown): JsonObject {
  return isJsonObject(v) ? v : {};
}

/** Whether a field requirement already excludes `node`. */
function excludes(requirement: unknown, node: string): boolean {
  return (
    isJsonObject(requirement) &&
    requirement.operator === 'NotIn' &&
    Array.isArray(requirement.values) &&
    requirement.values[0] === node
  );
}

/**
 * A gated Pod's spec with `nodes` excluded: one `metadata.name NotIn [node]` field requirement
 * per node added to every required node-affinity term (terms are ORed, requirements ANDed).
 * A gated Pod may only narrow its required node affinity this way (upstream's mutable
 * scheduling directives, KEP-3838, GA in 1.30); a field requirement takes exactly one value,
 * and names the node itself, whatever its hostname label says.
 */
export function excludeNodes(spec: JsonObject, nodes: readonly string[]): JsonObject {
  if (nodes.length === 0) return spec;
  const affinity = objectAt(spec.affinity);
  const nodeAffinity = objectAt(affinity.nodeAffinity);
  const required = objectAt(nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution);
  const fields = (matchFields?: unknown): unknown[] => {
    const have: unknown[] = Array.isArray(matchFields) ? matchFields : [];
    return [
      ...have,
      ...nodes
        .filter((n) => !have.some((f) => excludes(f, n)))
        .map((n) => ({ key: 'metadata.name', operator: 'NotIn', values: [n] })),
    ];
  };
  const terms = Array.isArray(required.nodeSelectorTerms)
    ? required.nodeSelectorTerms.filter(isJsonObject)
    : [];
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
