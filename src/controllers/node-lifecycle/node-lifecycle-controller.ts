/**
 * The node lifecycle controller (upstream `pkg/controller/nodelifecycle`, `monitorNodeHealth`):
 * every `nodeMonitorPeriod` (5 s) it looks at each Node and its Lease in `kube-node-lease`.
 * A node silent for longer than the grace period (50 s) gets every kubelet condition set to
 * Unknown (`NodeStatusUnknown`, "Kubelet stopped posting node status."), the
 * `node.kubernetes.io/unreachable` NoSchedule and NoExecute taints (not-ready when the kubelet
 * reports Ready=False), and its pods marked Ready=False so workload controllers count them
 * unavailable at once. The taints go when the node reports Ready again. Evicting the pods is the
 * taint eviction controller's job (`taint-eviction-controller.ts`).
 *
 * The decisions are the pure {@link nodeHealth} and {@link podsToMarkNotReady} planners; this
 * file reads the caches, writes only what changes, and records upstream's events:
 * `RegisteredNode`/`RemovingNode` ("Node n event: Registered Node n in Controller"),
 * `NodeNotReady` on the node ("Node n status is now: NodeNotReady") when this controller takes
 * Ready away, and Warning `NodeNotReady` "Node is not ready" on each pod it marks.
 *
 * Deviations: node events and node-status reads also trigger a pass (upstream: 5 s ticks, plus
 * node events for the NoSchedule taints), zones and eviction rate limits are not modelled (see
 * `node-health.ts`), and pods on a node whose Ready is Unknown are marked NotReady on every pass
 * rather than once at the transition plus a retry set (same end state, and a pod bound to the
 * node later is covered as by upstream's `processPod`).
 *
 * @module
 */

import { asKind, type Lease, type Node, type Pod } from '../../api/model/index.js';
import { deepCopy } from '../../api/object.js';
import { isNotFound } from '../../client/api-client.js';
import { deletedObject } from '../../client/shared-informer.js';
import {
  type ControllerContext,
  type ControllerDefinition,
  RESOURCES,
} from '../../controller/context.js';
import { runController } from '../../controller/controller.js';
import type { EventRecorder } from '../../controller/events.js';
import { kindInformer } from '../../controller/kind-informer.js';
import { WorkQueue } from '../../controller/workqueue.js';
import {
  applyNodeHealthPlan,
  type NodeHealthOptions,
  type NodeHealthPlan,
  nodeHealth,
  nodeReadyStatus,
} from './node-health.js';
import { podNodeIndexers, podsOnNode } from './pod-index.js';
import { podsToMarkNotReady } from './pods-not-ready.js';
import { nodeTaints, podNodeName } from './taints.js';

export const NODE_LIFECYCLE_CONTROLLER = 'node-lifecycle-controller';
/** Upstream's event source for node lifecycle events. */
const EVENT_SOURCE = 'node-controller';
const NODE_LEASE_NAMESPACE = 'kube-node-lease';

export interface NodeLifecycleOptions extends NodeHealthOptions {
  /** `--node-monitor-period`: how often every node is checked. @default 5_000 */
  nodeMonitorPeriodMs?: number;
  /** Concurrent node reconciles (upstream `--concurrent-node-syncs` 5). @default 5 */
  workers?: number;
}

export const DEFAULT_NODE_MONITOR_PERIOD_MS = 5_000;

/** The node lifecycle controller, for the controller manager. */
export function nodeLifecycleController(options: NodeLifecycleOptions = {}): ControllerDefinition {
  return { name: NODE_LIFECYCLE_CONTROLLER, start: (ctx) => run(ctx, options) };
}

async function run(ctx: ControllerContext, options: NodeLifecycleOptions): Promise<void> {
  const nodes = kindInformer(ctx.informers.informer(RESOURCES.nodes), 'Node');
  const leases = kindInformer(ctx.informers.informer(RESOURCES.leases), 'Lease');
  const pods = kindInformer(
    ctx.informers.informer(RESOURCES.pods, { indexers: podNodeIndexers }),
    'Pod',
  );
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: NODE_LIFECYCLE_CONTROLLER,
    metrics: ctx.metrics.queue,
  });
  const enqueue = (node: Node) => queue.add(node.metadata?.name ?? '');
  nodes.addEventHandler({
    onAdd: enqueue,
    onUpdate: (_old, node) => enqueue(node),
    onDelete: (node) => enqueue(deletedObject(node)),
  });
  // A pod newly bound to a node that is not Ready is marked at once (upstream `podUpdated`).
  pods.addEventHandler({
    onAdd: (pod) => {
      const node = podNodeName(pod);
      if (node !== '') queue.add(node);
    },
    onUpdate: (old, pod) => {
      const node = podNodeName(pod);
      if (node !== '' && node !== podNodeName(old)) queue.add(node);
    },
  });
  const caches = [nodes.informer, leases.informer, pods.informer];
  if (!(await ctx.informers.waitForSync(caches, ctx.signal))) return;

  const period = options.nodeMonitorPeriodMs ?? DEFAULT_NODE_MONITOR_PERIOD_MS;
  let cancelTick = () => {};
  const tick = () => {
    for (const node of nodes.lister.list()) enqueue(node);
    cancelTick = ctx.clock.setTimer(period, tick);
  };
  tick();
  ctx.signal.addEventListener('abort', () => cancelTick(), { once: true });

  const sync = new NodeSync(ctx, options, {
    node: (name) => nodes.lister.get('', name),
    lease: (name) => leases.lister.get(NODE_LEASE_NAMESPACE, name),
    pods: (name) => podsOnNode(pods.lister, name),
  });
  await runController({
    name: NODE_LIFECYCLE_CONTROLLER,
    queue,
    reconcile: (name) => sync.reconcile(name),
    workers: options.workers ?? 5,
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
  });
}

interface NodeCaches {
  node(name: string): Node | undefined;
  lease(name: string): Lease | undefined;
  pods(nodeName: string): Pod[];
}

const nodeRef = (name: string) => ({ ...RESOURCES.nodes, name });

/** One node's pass: health plan, status write, taint write, pods NotReady, events. */
class NodeSync {
  readonly #ctx: ControllerContext;
  readonly #options: NodeLifecycleOptions;
  readonly #caches: NodeCaches;
  readonly #events: EventRecorder;
  /** Nodes seen so far, for the RegisteredNode / RemovingNode events (`knownNodeSet`). */
  readonly #known = new Map<string, Node>();

  constructor(ctx: ControllerContext, options: NodeLifecycleOptions, caches: NodeCaches) {
    this.#ctx = ctx;
    this.#options = options;
    this.#caches = caches;
    this.#events = ctx.eventRecorder(EVENT_SOURCE);
  }

  async reconcile(name: string): Promise<Record<string, never>> {
    const node = this.#caches.node(name);
    if (node === undefined) {
      const last = this.#known.get(name);
      if (last !== undefined) {
        this.#known.delete(name);
        this.#nodeEvent(last, 'RemovingNode', `Removing Node ${name} from Controller`);
      }
      return {};
    }
    if (!this.#known.has(name)) {
      this.#nodeEvent(node, 'RegisteredNode', `Registered Node ${name} in Controller`);
    }
    this.#known.set(name, node);
    const now = this.#ctx.clock.now();
    const plan = nodeHealth(node, this.#caches.lease(name), now, this.#options);
    const observed = nodeReadyStatus(node);
    const current = plan === undefined ? node : await this.#write(node, plan);
    const ready = nodeReadyStatus(current);
    const tookReadyAway = observed === 'True' && ready !== undefined && ready !== 'True';
    if (tookReadyAway) {
      this.#events.event(
        current,
        'Normal',
        'NodeNotReady',
        `Node ${name} status is now: NodeNotReady`,
      );
    }
    if (tookReadyAway || ready === 'Unknown') await this.#markPodsNotReady(name, now);
    return {};
  }

  /** Writes the plan: status first (it decides the taints), then the taints. */
  async #write(node: Node, plan: NodeHealthPlan): Promise<Node> {
    const name = node.metadata?.name ?? '';
    const fieldManager = NODE_LIFECYCLE_CONTROLLER;
    let current = node;
    if (plan.conditions !== undefined) {
      const next = deepCopy(node);
      next.status = { ...next.status, conditions: deepCopy(plan.conditions) };
      const written = await this.#ctx.client.updateStatus(nodeRef(name), next, { fieldManager });
      current = asKind(written, 'Node');
    }
    if (plan.taintsToAdd.length > 0 || plan.taintsToRemove.length > 0) {
      const tainted = applyNodeHealthPlan(current, {
        taintsToAdd: plan.taintsToAdd,
        taintsToRemove: plan.taintsToRemove,
      });
      const taints = nodeTaints(tainted);
      // A merge patch replaces the list whole; the resourceVersion makes a concurrent taint
      // edit (kubectl taint) a 409 and a retry instead of a lost update (upstream PatchNodeTaints).
      const patched = await this.#ctx.client.patch(
        nodeRef(name),
        {
          metadata: { resourceVersion: current.metadata?.resourceVersion },
          spec: { taints: taints.length > 0 ? taints : null },
        },
        'merge',
        { fieldManager },
      );
      current = asKind(patched, 'Node');
    }
    return current;
  }

  /** `MarkPodsNotReady`: Ready=False on the node's pods; the first error is thrown after all tried. */
  async #markPodsNotReady(nodeName: string, now: number): Promise<void> {
    let failure: unknown;
    for (const update of podsToMarkNotReady(nodeName, this.#caches.pods(nodeName), now)) {
      const pod = deepCopy(update.pod);
      pod.status = { ...pod.status, conditions: update.conditions };
      const ref = {
        ...RESOURCES.pods,
        namespace: pod.metadata?.namespace ?? '',
        name: pod.metadata?.name ?? '',
      };
      try {
        const written = await this.#ctx.client.updateStatus(ref, pod, {
          fieldManager: NODE_LIFECYCLE_CONTROLLER,
        });
        // After the write, so the event names a pod that still exists (as upstream).
        this.#events.event(written, 'Warning', 'NodeNotReady', 'Node is not ready');
      } catch (err) {
        if (!isNotFound(err)) failure ??= err;
      }
    }
    if (failure !== undefined) throw failure;
  }

  #nodeEvent(node: Node, reason: string, what: string): void {
    const name = node.metadata?.name ?? '';
    this.#events.event(node, 'Normal', reason, `Node ${name} event: ${what}`);
  }
}
