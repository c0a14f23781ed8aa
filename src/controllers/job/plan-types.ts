/**
 * The Job planner's input and output: what one sync saw (the Job, its claimed pods, the clock,
 * finalizer removals in flight) and what it decided (pods to create and delete, the status to
 * write, finalizers to remove after that write, events, when to look again).
 *
 * @module
 */
import type { Job, JobStatus } from '../../api/model/batch.generated.js';
import type { Pod } from '../../api/model/index.js';
import type { EventType } from '../../controller/events.js';

export interface JobSnapshot {
  readonly job: Job;
  /** The pods the Job owns (claimed), terminal ones included. */
  readonly pods: readonly Pod[];
  /** Now, in epoch ms (the injected clock). */
  readonly now: number;
  /**
   * UIDs of pods whose tracking finalizer this controller asked to remove and whose update
   * the cache has not shown yet (upstream `finalizerExpectations`): never recorded twice.
   */
  readonly pendingFinalizerRemovals?: ReadonlySet<string>;
  /** Pod creates and deletes of earlier syncs were all observed. @default true */
  readonly expectationsSatisfied?: boolean;
}

/** One pod to create; `index` for Indexed Jobs, with the index's failure counts. */
export interface PodToCreate {
  readonly index?: number;
  readonly failureCount?: number;
  readonly ignoredFailureCount?: number;
}

export interface PlannedEvent {
  readonly type: EventType;
  readonly reason: string;
  readonly message: string;
}

export interface JobPlan {
  readonly create: readonly PodToCreate[];
  readonly delete: readonly Pod[];
  /** The status after this sync, assuming every create and delete succeeds. */
  readonly status: JobStatus;
  /** Pods whose tracking finalizer may go once `status` is stored. */
  readonly removeFinalizers: readonly Pod[];
  /** Events to record once `status` is stored. */
  readonly events: readonly PlannedEvent[];
  /** Look again after this many ms (backoff, active deadline). */
  readonly requeueAfterMs?: number;
}
