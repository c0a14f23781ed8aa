/**
 * The scheduler's incremental view of nodes and the pods on them, with assumed pods (upstream
 * `pkg/scheduler/backend/cache`): each informer event adjusts one node's {@link NodeInfo}
 * (requested resources, pod lists) instead of rebuilding every node from every pod per attempt.
 *
 * **Assume.** Once the loop picks a node, the pod is *assumed* there at once, so the next
 * decisions, made before the binding reaches the API and comes back through the informer,
 * see its requests. Without it a burst of 50 pods would all see the same free capacity and
 * overcommit a node. The informer's bound version then replaces the assumed one; a failed
 * binding forgets it. Upstream lets assumed pods expire after a TTL that defaults to 0
 * (never), so here they never expire either.
 *
 * Pods bound to a node the cache does not know (not yet added, or deleted) are kept and
 * counted once the node appears, as upstream keeps such "ghost" NodeInfos.
 *
 * @module
 */
import type { Node, NodeSpec, Pod } from '../api/model/index.js';
import { hasPodAffinity, hasRequiredAntiAffinity } from './affinity-terms.js';
import { boundNodeOf, isTerminal, labelsOf, nodeSpecOf, podSpecOf } from './pod-view.js';
import { addInto, podRequests, type Resources, toResources } from './resources.js';
import { podKey } from './scheduling-queue.js';
import type { NodeInfo } from './types.js';

interface PodEntry {
  readonly pod: Pod;
  readonly requests: Resources;
  readonly nonZero: Resources;
}

function subtractFrom(target: Resources, sub: ReadonlyMap<string, bigint>): void {
  for (const [k, v] of sub) target.set(k, (target.get(k) ?? 0n) - v);
}

const NO_NODE: Node = Object.freeze({ metadata: {} });

/** One node's mutable state; its pod arrays are rebuilt lazily after a change. */
export class CachedNodeInfo implements NodeInfo {
  readonly name: string;
  node: Node = NO_NODE;
  labels: Readonly<Record<string, string>> = {};
  spec: NodeSpec = {};
  allocatable: ReadonlyMap<string, bigint> = new Map();
  readonly requested: Resources = new Map();
  readonly nonZeroRequested: Resources = new Map();
  readonly #pods = new Map<string, PodEntry>();
  #views: { all: Pod[]; affinity: Pod[]; anti: Pod[] } | undefined;

  constructor(name: string) {
    this.name = name;
  }

  get hasNode(): boolean {
    return this.node !== NO_NODE;
  }

  get podCount(): number {
    return this.#pods.size;
  }

  get pods(): readonly Pod[] {
    return this.#view().all;
  }

  get podsWithAffinity(): readonly Pod[] {
    return this.#view().affinity;
  }

  get podsWithRequiredAntiAffinity(): readonly Pod[] {
    return this.#view().anti;
  }

  setNode(node: Node): void {
    this.node = node;
    this.labels = labelsOf(node);
    this.spec = nodeSpecOf(node);
    this.allocatable = toResources(node.status?.allocatable);
  }

  clearNode(): void {
    this.node = NO_NODE;
  }

  addPod(key: string, pod: Pod): void {
    this.removePod(key);
    const spec = podSpecOf(pod);
    const entry = { pod, requests: podRequests(spec), nonZero: podRequests(spec, true) };
    this.#pods.set(key, entry);
    addInto(this.requested, entry.requests);
    addInto(this.nonZeroRequested, entry.nonZero);
    this.#views = undefined;
  }

  removePod(key: string): void {
    const entry = this.#pods.get(key);
    if (entry === undefined) return;
    this.#pods.delete(key);
    subtractFrom(this.requested, entry.requests);
    subtractFrom(this.nonZeroRequested, entry.nonZero);
    this.#views = undefined;
  }

  #view() {
    if (this.#views === undefined) {
      const all = [...this.#pods.values()].map((e) => e.pod);
      this.#views = {
        all,
        affinity: all.filter(hasPodAffinity),
        anti: all.filter(hasRequiredAntiAffinity),
      };
    }
    return this.#views;
  }
}

interface PodState {
  readonly node: string;
  /** Placed by the scheduler, not yet seen bound through the informer. */
  assumed: boolean;
  bindingFinished: boolean;
}

export class SchedulerCache {
  readonly #nodes = new Map<string, CachedNodeInfo>();
  readonly #pods = new Map<string, PodState>();
  #list: CachedNodeInfo[] | undefined;

  /** Nodes that exist, in the order they were added. Valid until the next node change. */
  nodeInfos(): readonly NodeInfo[] {
    this.#list ??= [...this.#nodes.values()].filter((n) => n.hasNode);
    return this.#list;
  }

  nodeInfo(name: string): CachedNodeInfo | undefined {
    return this.#nodes.get(name);
  }

  setNode(node: Node): void {
    const name = node.metadata?.name ?? '';
    this.#entry(name).setNode(node);
    this.#list = undefined;
  }

  removeNode(name: string): void {
    const entry = this.#nodes.get(name);
    if (entry === undefined) return;
    entry.clearNode();
    if (entry.podCount === 0) this.#nodes.delete(name);
    this.#list = undefined;
  }

  /**
   * The informer's view of a pod bound to a node (add or update). Confirms an assumed pod;
   * a terminal pod holds nothing and is removed (upstream's informer drops terminal pods).
   */
  setPod(pod: Pod): void {
    const key = podKey(pod);
    const node = boundNodeOf(pod);
    if (node === '' || isTerminal(pod)) {
      this.removePod(pod);
      return;
    }
    this.#detach(key);
    this.#entry(node).addPod(key, pod);
    this.#pods.set(key, { node, assumed: false, bindingFinished: true });
  }

  /** The pod is gone (or no longer bound). */
  removePod(pod: Pod): void {
    const key = podKey(pod);
    this.#detach(key);
    this.#pods.delete(key);
  }

  /** Places `pod` on `node` before its binding is confirmed. False if the pod is already known. */
  assumePod(pod: Pod, node: string): boolean {
    const key = podKey(pod);
    if (this.#pods.has(key)) return false;
    const assumed: Pod = { ...pod, spec: { ...podSpecOf(pod), nodeName: node } };
    this.#entry(node).addPod(key, assumed);
    this.#pods.set(key, { node, assumed: true, bindingFinished: false });
    return true;
  }

  /** The binding request succeeded; the pod stays assumed until the informer confirms it. */
  finishBinding(key: string): void {
    const state = this.#pods.get(key);
    if (state?.assumed) state.bindingFinished = true;
  }

  /** The binding failed: the assumed pod frees its node again. */
  forgetPod(key: string): void {
    const state = this.#pods.get(key);
    if (state === undefined || !state.assumed) return;
    this.#detach(key);
    this.#pods.delete(key);
  }

  isAssumed(key: string): boolean {
    return this.#pods.get(key)?.assumed === true;
  }

  /** The node the cache places the pod on (assumed or bound), if any. */
  nodeOf(key: string): string | undefined {
    return this.#pods.get(key)?.node;
  }

  #entry(name: string): CachedNodeInfo {
    let entry = this.#nodes.get(name);
    if (entry === undefined) {
      entry = new CachedNodeInfo(name);
      this.#nodes.set(name, entry);
    }
    return entry;
  }

  #detach(key: string): void {
    const state = this.#pods.get(key);
    if (state === undefined) return;
    const entry = this.#nodes.get(state.node);
    if (entry === undefined) return;
    entry.removePod(key);
    if (!entry.hasNode && entry.podCount === 0) {
      this.#nodes.delete(state.node);
      this.#list = undefined;
    }
  }
}
