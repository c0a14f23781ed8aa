/**
 * PersistentFleet scaling: the pure planner for the StatefulSet's replica count (contraction one
 * member at a time, growth in kept/fresh runs) and the facts it decides from.
 *
 * @module
 */
export type { FleetOwnership } from './facts.js';
export { claimFacts, memberPlacements, ordinalOf, podPlacement } from './facts.js';
export { memberClaimName, memberPodName, nextRun, planScale, rolledOut } from './plan.js';
export type {
  ClaimFacts,
  GrowthRun,
  PodPlacement,
  ScaleBlock,
  ScaleInput,
  ScalePlan,
  ScaleWait,
  StatefulSetFacts,
} from './types.js';
