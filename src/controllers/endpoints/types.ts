/**
 * The core/v1 Endpoints shapes the planner builds and compares, and the well-known names the
 * endpoints controller writes (upstream `k8s.io/api/core/v1` constants).
 *
 * @module
 */

/** `v1.ObjectReference` as an address's `targetRef` (always a Pod here). */
export interface TargetRef {
  readonly kind: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly uid?: string;
  /** Upstream no longer sets it; ignored when comparing (a pod's annotation change moves it). */
  readonly resourceVersion?: string;
}

/** `v1.EndpointAddress`. */
export interface EndpointAddress {
  readonly ip: string;
  readonly hostname?: string;
  readonly nodeName?: string;
  readonly targetRef?: TargetRef;
}

/** `v1.EndpointPort`. */
export interface EndpointPort {
  readonly name?: string;
  readonly port: number;
  readonly protocol: string;
  readonly appProtocol?: string;
}

/** `v1.EndpointSubset`: every address (ready or not) serves every port of the subset. */
export interface EndpointSubset {
  readonly addresses?: readonly EndpointAddress[];
  readonly notReadyAddresses?: readonly EndpointAddress[];
  readonly ports?: readonly EndpointPort[];
}

/** `v1.IsHeadlessService`: set (empty value) on the Endpoints of a Service without a cluster IP. */
export const HEADLESS_LABEL = 'service.kubernetes.io/headless';
/** `v1.EndpointsLastChangeTriggerTime`. */
export const TRIGGER_TIME_ANNOTATION = 'endpoints.kubernetes.io/last-change-trigger-time';
/** `v1.EndpointsOverCapacity`, whose only value is {@link TRUNCATED}. */
export const OVER_CAPACITY_ANNOTATION = 'endpoints.kubernetes.io/over-capacity';
export const TRUNCATED = 'truncated';
/** Upstream `maxCapacity`: addresses (ready + not ready) one Endpoints object keeps. */
export const MAX_CAPACITY = 1000;
/**
 * `resourcelock.LeaderElectionRecordAnnotationKey`: Endpoints used as a leader lock have no
 * Service and must not be deleted as leftovers.
 */
export const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';
