/**
 * Shared shapes of the scheduler's pure decision: a node with its bound pods, filter statuses,
 * and the plugin contracts. Pods and nodes are the API's types (`src/api/model/`); objects
 * arrive validated, and the plugins read them defensively (every list may be absent).
 *
 * @module
 */
import type { Node, NodeSpec, Pod, PodSpec } from '../api/model/index.js';

/** Resource quantities as the API writes them (`"500m"`, `"1Gi"`) or as numbers. */
export type ResourceMap = Readonly<Record<string, string | number>>;

/** A node with everything the filters need precomputed (upstream `framework.NodeInfo`). */
export interface NodeInfo {
  readonly name: string;
  readonly node: Node;
  readonly labels: Readonly<Record<string, string>>;
  readonly spec: NodeSpec;
  /** Non-terminal pods bound to this node. */
  readonly pods: readonly Pod[];
  /**
   * The subset of `pods` with any pod affinity or anti-affinity (upstream `PodsWithAffinity`),
   * so the InterPodAffinity plugins skip plain pods; absent means "look at `pods`".
   */
  readonly podsWithAffinity?: readonly Pod[];
  /** The subset of `pods` with required anti-affinity (upstream `PodsWithRequiredAntiAffinity`). */
  readonly podsWithRequiredAntiAffinity?: readonly Pod[];
  /** Allocatable resources in scheduler units (cpu in milli, everything else in units). */
  readonly allocatable: ReadonlyMap<string, bigint>;
  /** Sum of the bound pods' effective requests. */
  readonly requested: ReadonlyMap<string, bigint>;
  /** Same, with missing cpu/memory requests counted as 100m/200Mi (upstream NonZeroRequested). */
  readonly nonZeroRequested: ReadonlyMap<string, bigint>;
}

/**
 * Upstream status codes: `Unschedulable` may be fixed by preempting pods on the node,
 * `UnschedulableAndUnresolvable` may not (it is reported as "Preemption is not helpful").
 */
export type FilterCode = 'Unschedulable' | 'UnschedulableAndUnresolvable';

export interface FilterStatus {
  readonly code: FilterCode;
  /** Upstream reason strings; one node may fail for several (e.g. `Insufficient cpu`, `… memory`). */
  readonly reasons: readonly string[];
}

/** Everything one scheduling attempt sees; built once by `schedule`. */
export interface SchedulingContext {
  readonly pod: Pod;
  readonly podSpec: PodSpec;
  readonly namespace: string;
  readonly podLabels: Readonly<Record<string, string>>;
  readonly nodes: readonly NodeInfo[];
  /** Labels of a namespace (empty when unknown), for affinity `namespaceSelector`s. */
  readonly namespaceLabels: (namespace: string) => Readonly<Record<string, string>>;
}

/** A filter plugin: `prepare` is upstream PreFilter (state over all nodes), the result is Filter. */
export interface FilterPlugin {
  readonly name: string;
  prepare(ctx: SchedulingContext): (node: NodeInfo) => FilterStatus | null;
}

/**
 * A score plugin: returns each feasible node's normalised score in [0, 100] (upstream Score then
 * NormalizeScore), or null when it has nothing to say (upstream PreScore `Skip`).
 */
export interface ScorePlugin {
  readonly name: string;
  /** Upstream default-profile weight. */
  readonly weight: number;
  score(ctx: SchedulingContext, feasible: readonly NodeInfo[]): ReadonlyMap<string, number> | null;
}

/** Upstream `framework.MaxNodeScore`. */
export const MAX_NODE_SCORE = 100;
