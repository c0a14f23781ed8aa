/**
 * Shared shapes of the scheduler's pure decision: the typed views of the pod and node fields
 * the plugins read, a node with its bound pods, filter statuses, and the plugin contracts.
 *
 * Objects arrive as validated API objects, so the views are casts of `spec`/`status`, read
 * defensively (every list may be absent).
 *
 * @module
 */
import type { LabelSelectorObject } from '../api/labels/selector.js';
import type { KubeObject } from '../api/object.js';

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: string;
}

export interface Toleration {
  readonly key?: string;
  readonly operator?: string;
  readonly value?: string;
  readonly effect?: string;
  readonly tolerationSeconds?: number;
}

export interface NodeSelectorRequirement {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[] | null;
}

export interface NodeSelectorTerm {
  readonly matchExpressions?: readonly NodeSelectorRequirement[] | null;
  readonly matchFields?: readonly NodeSelectorRequirement[] | null;
}

export interface PodAffinityTerm {
  readonly labelSelector?: LabelSelectorObject | null;
  readonly namespaces?: readonly string[] | null;
  readonly namespaceSelector?: LabelSelectorObject | null;
  readonly topologyKey: string;
}

export interface WeightedPodAffinityTerm {
  readonly weight: number;
  readonly podAffinityTerm: PodAffinityTerm;
}

export interface PodAffinityRules {
  readonly requiredDuringSchedulingIgnoredDuringExecution?: readonly PodAffinityTerm[] | null;
  readonly preferredDuringSchedulingIgnoredDuringExecution?:
    | readonly WeightedPodAffinityTerm[]
    | null;
}

export interface Affinity {
  readonly nodeAffinity?: {
    readonly requiredDuringSchedulingIgnoredDuringExecution?: {
      readonly nodeSelectorTerms?: readonly NodeSelectorTerm[] | null;
    } | null;
    readonly preferredDuringSchedulingIgnoredDuringExecution?:
      | readonly { readonly weight: number; readonly preference: NodeSelectorTerm }[]
      | null;
  } | null;
  readonly podAffinity?: PodAffinityRules | null;
  readonly podAntiAffinity?: PodAffinityRules | null;
}

export interface TopologySpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly whenUnsatisfiable: string;
  readonly labelSelector?: LabelSelectorObject | null;
  readonly minDomains?: number | null;
  readonly nodeAffinityPolicy?: string | null;
  readonly nodeTaintsPolicy?: string | null;
  readonly matchLabelKeys?: readonly string[] | null;
}

export type ResourceMap = Readonly<Record<string, string | number>>;

export interface ContainerView {
  readonly name?: string;
  readonly restartPolicy?: string;
  readonly resources?: { readonly requests?: ResourceMap; readonly limits?: ResourceMap } | null;
  readonly ports?:
    | readonly {
        readonly hostPort?: number;
        readonly hostIP?: string;
        readonly protocol?: string;
      }[]
    | null;
}

/** The pod-spec fields the scheduler reads. */
export interface PodSpecView {
  readonly nodeName?: string;
  readonly nodeSelector?: Readonly<Record<string, string>> | null;
  readonly affinity?: Affinity | null;
  readonly tolerations?: readonly Toleration[] | null;
  readonly topologySpreadConstraints?: readonly TopologySpreadConstraint[] | null;
  readonly containers?: readonly ContainerView[] | null;
  readonly initContainers?: readonly ContainerView[] | null;
  readonly overhead?: ResourceMap | null;
  readonly schedulingGates?: readonly { readonly name: string }[] | null;
  readonly preemptionPolicy?: string | null;
}

/** The node fields the scheduler reads. */
export interface NodeSpecView {
  readonly unschedulable?: boolean;
  readonly taints?: readonly Taint[] | null;
}

/** A node with everything the filters need precomputed (upstream `framework.NodeInfo`). */
export interface NodeInfo {
  readonly name: string;
  readonly node: KubeObject;
  readonly labels: Readonly<Record<string, string>>;
  readonly spec: NodeSpecView;
  /** Non-terminal pods bound to this node. */
  readonly pods: readonly KubeObject[];
  /**
   * The subset of `pods` with any pod affinity or anti-affinity (upstream `PodsWithAffinity`),
   * so the InterPodAffinity plugins skip plain pods; absent means "look at `pods`".
   */
  readonly podsWithAffinity?: readonly KubeObject[];
  /** The subset of `pods` with required anti-affinity (upstream `PodsWithRequiredAntiAffinity`). */
  readonly podsWithRequiredAntiAffinity?: readonly KubeObject[];
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
  readonly pod: KubeObject;
  readonly podSpec: PodSpecView;
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
