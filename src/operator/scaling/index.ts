/**
 * PersistentFleet scaling: the pure planner for the StatefulSet's replica count (contraction one
 * member at a time, growth in one write), the planner that releases scheduling-gated members so
 * that a fresh disk never takes the place a kept disk needs, and the facts both decide from.
 *
 * @module
 */
export type { FleetOwnership } from './facts.js';
export {
  ANNOTATION_SELECTED_NODE,
  claimFacts,
  memberPodFacts,
  nodeFacts,
  ordinalOf,
  podPlacement,
} from './facts.js';
export { memberClaimName, memberPodName, planScale, rolledOut } from './plan.js';
export { planRelease } from './release.js';
export type {
  ClaimFacts,
  MemberPodFacts,
  NodeFacts,
  PodPlacement,
  Release,
  ReleaseInput,
  ReleasePlan,
  ScaleBlock,
  ScaleInput,
  ScalePlan,
  ScaleWait,
  StatefulSetFacts,
} from './types.js';
export { placementFeasible, type ZoneLoad, zonesForFresh } from './zone-capacity.js';
