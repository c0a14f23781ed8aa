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
 *   found no node. That is a decision, so it does not hold growth back
 *   (docs/design/operator.md §5.2).
 */
export type PodPlacement = 'absent' | 'awaiting' | 'scheduled' | 'unschedulable';

/** One claim named `data-<set>-<ordinal>` that exists. */
export interface ClaimFacts {
  ordinal: number;
  /** The claim carries this fleet's UID label and no foreign owner: the operator may reuse it. */
  ours: boolean;
  /** `metadata.deletionTimestamp` is set: the disk is going, so the member gets a fresh one. */
  terminating: boolean;
  /**
   * `spec.volumeName` is set and the claim is not `Lost`: a disk exists, and it pins the
   * member's pod to where the disk is. A claim without one (WaitForFirstConsumer, Pending) gets
   * its disk wherever its pod lands.
   */
  bound?: boolean;
  /**
   * The node the scheduler chose when the disk was made (`volume.kubernetes.io/selected-node`,
   * which stays on the claim): for a node-local disk, the one node its member can run on.
   */
  node?: string;
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
   * for it (docs/design/operator.md §5.1), so a removal never overlaps the roll a template change
   * starts.
   */
  templateConverged: boolean;
  /** Every claim `data-<set>-<n>` that exists, any ordinal, ours or not. */
  claims: readonly ClaimFacts[];
}

/** What a plan waits for before it can take its next step. */
export interface ScaleWait {
  reason: 'RolloutPending' | 'SchedulerPending' | 'PlacementHeld';
  message: string;
}

/** Why growth cannot proceed at all until a person acts. */
export interface ScaleBlock {
  reason: 'StorageIdentityConflict';
  message: string;
  /** Ordinals whose claim name is taken by a claim that is not this fleet's. */
  ordinals: number[];
}

/**
 * The planner's answer. `replicas` is the next StatefulSet `spec.replicas` to write, absent when
 * nothing is to be written; at most one of `wait` and `block` is set.
 */
export interface ScalePlan {
  action: 'none' | 'contract' | 'grow';
  replicas?: number;
  wait?: ScaleWait;
  block?: ScaleBlock;
}

/** A member pod (controlled by the fleet's StatefulSet) as the release planner reads it. */
export interface MemberPodFacts {
  ordinal: number;
  /** The pod still carries the operator's placement gate: the scheduler does not see it yet. */
  gated: boolean;
  /** `metadata.deletionTimestamp` is set. */
  terminating: boolean;
  placement: PodPlacement;
  /** `spec.nodeName`, when bound. */
  node?: string;
}

/** A node as the release planner reads it. */
export interface NodeFacts {
  name: string;
  /** `topology.kubernetes.io/zone`. */
  zone?: string;
  /**
   * A member could be scheduled there now: Ready, not cordoned, no NoSchedule/NoExecute taint,
   * Linux, in one of the fleet's zones.
   */
  eligible: boolean;
}

/** Everything `planRelease` decides from. */
export interface ReleaseInput {
  setName: string;
  /** The StatefulSet's `spec.replicas`: the members wanted now. */
  replicas: number;
  /**
   * `Strict` makes the zone spread and one-member-per-node hard rules, so a place can be taken;
   * under `Relaxed` both are preferences and nothing is reserved.
   */
  mode: 'Strict' | 'Relaxed';
  /** `node` for node-local disks (a disk pins its member to one node), `zone` for zonal ones. */
  diskScope: 'node' | 'zone';
  /** The fleet's `placement.zones`. */
  zones: readonly string[];
  members: readonly MemberPodFacts[];
  /** Every claim `data-<set>-<n>` that exists. */
  claims: readonly ClaimFacts[];
  nodes: readonly NodeFacts[];
}

/** One gated member pod to release: remove the gate after adding the exclusions. */
export interface Release {
  ordinal: number;
  /** Nodes the member may not be scheduled to (required node affinity, narrowed while gated). */
  excludeNodes: string[];
}

/** The release planner's answer: the pods to release now, and why others wait. */
export interface ReleasePlan {
  releases: Release[];
  wait?: ScaleWait;
}
