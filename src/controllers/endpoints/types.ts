/**
 * The well-known names the endpoints controller writes (upstream `k8s.io/api/core/v1`
 * constants). The Endpoints it builds are the API's `EndpointSubset`, `EndpointAddress` and
 * `EndpointPort` (`src/api/model/`); an address's `targetRef.resourceVersion`, which upstream no
 * longer sets, is ignored when comparing (a pod's annotation change moves it).
 *
 * @module
 */

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
