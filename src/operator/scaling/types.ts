/**
 * The inputs and the result of the PersistentFleet scale planner (`plan.ts`). The inputs are
 * plain facts a reconcile derives from its caches (`facts.ts` derives the per-pod and per-claim
 * ones from Kubernetes objects), so the planner never reads an API and is table-testable.
 *
 * Defined here rather than imported from the fleet API module on purpose: the planner needs a
 * dozen fields, and keeping its contract local lets the API types change without touching it.
 *
 * @module
 */

/**
 * Where the scheduler stands on one member pod (upstream `PodScheduled` condition):
 * - `absent`: no pod at that ordinal (the StatefulSet has not created it yet);
 * - `awaiting`: the pod exists, has no node and no `PodScheduled=False/Unschedulable` verdict;
 * - `scheduled`: the pod has a node (`spec.nodeName`);
 * - `unschedulable`: `PodScheduled=False` with reason `Unschedulable`: the scheduler looked and
 *   found no node. That is a decision, so it does not hold growth back (§2.5).
 */
export type PodPlacement = 'absent' | 'awaiting' | 'scheduled' | 'unschedulable';

/** One claim named `data-<set>-<ordinal>` that exists. */
export interface ClaimFacts {
  ordinal: number;
  /** The claim carries this fleet's UID label and no foreign owner: the operator may reuse it. */
  ours: boolean;
  /** `metadata.deletionTimestamp` is set: the disk is going, so the member gets a fresh one. */
  terminating: boolean;
}

/** The StatefulSet as the planner reads it. */
export interface StatefulSetFacts {
  /** `spec.replicas` (the caller applies the API default of 1 when absent). */
  specReplicas: number;
  /** `metadata.generation`. */
  generation: number;
  /** `status.observedGeneration`; absent when the controller has never synced the set. */
  observedGeneration?: number;
  /** `status.replicas`: pods that exist, including ones being removed by a contraction. */
  replicas: number;
  readyReplicas: number;
  updatedReplicas: number;
  currentRevision?: string;
  updateRevision?: string;
}

/** Everything `planScale` decides from. */
export interface ScaleInput {
  /** The StatefulSet's name (`<fleet>`); claims are `data-<set>-<n>`, pods `<set>-<n>`. */
  setName: string;
  /** The fleet's target (`spec.replicas`, or a capacity policy's target). */
  desired: number;
  set: StatefulSetFacts;
  /**
   * The live StatefulSet already carries the template the operator renders. A contraction waits
   * for it (§2.2 step 13.7), so a removal never overlaps the roll a template change starts.
   */
  templateConverged: boolean;
  /** Every claim `data-<set>-<n>` that exists, any ordinal, ours or not. */
  claims: readonly ClaimFacts[];
  /** Placement of the pods at ordinals below `set.specReplicas`; a missing entry is `absent`. */
  placements: ReadonlyMap<number, PodPlacement>;
}

/** What the plan waits for before it can take its next step. */
export interface ScaleWait {
  reason: 'RolloutPending' | 'SpecNotObserved' | 'SchedulerPending';
  message: string;
}

/** Why growth cannot proceed at all until a person acts. */
export interface ScaleBlock {
  reason: 'StorageIdentityConflict';
  message: string;
  /** Ordinals whose claim name is taken by a claim that is not this fleet's. */
  ordinals: number[];
}

/** A run of consecutive ordinals added in one write (§2.5). */
export interface GrowthRun {
  /** First ordinal of the run (the current replica count). */
  from: number;
  /** Last ordinal of the run, inclusive. */
  to: number;
  /** `kept`: every ordinal has a live claim of ours to reattach; `fresh`: none has. */
  disks: 'kept' | 'fresh';
}

/**
 * The planner's answer. `replicas` is the next StatefulSet `spec.replicas` to write, absent when
 * nothing is to be written; at most one of `wait` and `block` is set.
 */
export interface ScalePlan {
  action: 'none' | 'contract' | 'grow';
  replicas?: number;
  /** The run being added (when growing) or the run that waits (when `wait` is set on growth). */
  run?: GrowthRun;
  wait?: ScaleWait;
  block?: ScaleBlock;
}
