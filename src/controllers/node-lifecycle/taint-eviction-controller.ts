/**
 * The taint eviction controller (upstream `pkg/controller/tainteviction`, since v1.29 a
 * controller of its own, `taint-eviction-controller`): a pod on a node with a NoExecute taint it
 * does not tolerate is deleted at once; one that tolerates it for `tolerationSeconds` is deleted
 * when the shortest such toleration runs out; one that tolerates it forever stays.
 *
 * Each node is one key. A reconcile plans with the pure {@link taintEvictions}; pods due now get
 * the event `TaintManagerEviction` "Marking for deletion Pod ns/name", the `DisruptionTarget`
 * condition (reason `DeletionByTaintManager`) and an ordinary graceful delete, as upstream's
 * `addConditionAndDeletePod`; the node is requeued on `ctx.clock` at the earliest future
 * eviction. That requeue is the timer: when the taint or the pod goes first, the requeued pass
 * finds nothing to do, and a pod that was waiting and no longer is gets upstream's
 * "Cancelling deletion of Pod ns/name" event. The deleted pod stays Terminating while its
 * kubelet is gone, as upstream: only the kubelet, a force delete or PodGC removes it.
 *
 * @module
 */

import type { Node, Pod } from '../../api/model/index.js';
import { isNotFound } from '../../client/api-client.js';
import { deletedObject } from '../../client/shared-informer.js';
import {
  type ControllerContext,
  type ControllerDefinition,
  RESOURCES,
} from '../../controller/context.js';
import { type ReconcileResult, runController } from '../../controller/controller.js';
import type { EventRecorder } from '../../controller/events.js';
import { kindInformer } from '../../controller/kind-informer.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { podNodeIndexers, podsOnNode } from './pod-index.js';
import { taintEvictionCondition, taintEvictions } from './taint-eviction.js';
import { nodeTaints, podNodeName, podTolerations } from './taints.js';

export const TAINT_EVICTION_CONTROLLER = 'taint-eviction-controller';
const FIELD_MANAGER = 'TaintManager';

export interface TaintEvictionOptions {
  /** Concurrent node reconciles. @default 4 */
  workers?: number;
}

/** The taint eviction controller, for the controller manager. */
export function taintEvictionController(options: TaintEvictionOptions = {}): ControllerDefinition {
  return { name: TAINT_EVICTION_CONTROLLER, start: (ctx) => run(ctx, options) };
}

const noExecute = (node: Node) =>
  JSON.stringify(nodeTaints(node).filter((t) => t.effect === 'NoExecute'));

async function run(ctx: ControllerContext, options: TaintEvictionOptions): Promise<void> {
  const nodes = kindInformer(ctx.informers.informer(RESOURCES.nodes), 'Node');
  const pods = kindInformer(
    ctx.informers.informer(RESOURCES.pods, { indexers: podNodeIndexers }),
    'Pod',
  );
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: TAINT_EVICTION_CONTROLLER,
    metrics: ctx.metrics.queue,
  });
  const enqueueNode = (node: Node) => queue.add(node.metadata?.name ?? '');
  const enqueuePod = (pod: Pod) => {
    const node = podNodeName(pod);
    if (node !== '') queue.add(node);
  };
  nodes.addEventHandler({
    onAdd: enqueueNode,
    // Only NoExecute taint changes matter (upstream `handleNodeUpdate` compares them).
    onUpdate: (old, node) => {
      if (noExecute(old) !== noExecute(node)) enqueueNode(node);
    },
    onDelete: (node) => enqueueNode(deletedObject(node)),
  });
  pods.addEventHandler({
    onAdd: enqueuePod,
    onUpdate: (old, pod) => {
      const moved = podNodeName(old) !== podNodeName(pod);
      const retolerated =
        JSON.stringify(podTolerations(old)) !== JSON.stringify(podTolerations(pod));
      if (moved || retolerated) enqueuePod(pod);
    },
    onDelete: (pod) => enqueuePod(deletedObject(pod)),
  });
  if (!(await ctx.informers.waitForSync([nodes.informer, pods.informer], ctx.signal))) return;
  const evictor = new Evictor(ctx, {
    node: (name) => nodes.lister.get('', name),
    pods: (name) => podsOnNode(pods.lister, name),
  });
  await runController({
    name: TAINT_EVICTION_CONTROLLER,
    queue,
    reconcile: (name) => evictor.reconcile(name),
    workers: options.workers ?? 4,
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
  });
}

interface EvictionCaches {
  node(name: string): Node | undefined;
  pods(nodeName: string): Pod[];
}

const podKey = (pod: Pod) => `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;

class Evictor {
  readonly #ctx: ControllerContext;
  readonly #caches: EvictionCaches;
  readonly #events: EventRecorder;
  /** Pods waiting for their toleration to run out, per node: for the cancel event. */
  readonly #waiting = new Map<string, Set<string>>();

  constructor(ctx: ControllerContext, caches: EvictionCaches) {
    this.#ctx = ctx;
    this.#caches = caches;
    this.#events = ctx.eventRecorder(TAINT_EVICTION_CONTROLLER);
  }

  async reconcile(nodeName: string): Promise<ReconcileResult> {
    const node = this.#caches.node(nodeName);
    const pods = this.#caches.pods(nodeName);
    if (node === undefined) {
      // Pods of a deleted node are PodGC's; nothing is scheduled any more.
      this.#waiting.delete(nodeName);
      return {};
    }
    const now = this.#ctx.clock.now();
    const plan = taintEvictions(node, pods, now);
    this.#cancelled(nodeName, pods, new Set(plan.evictAt.map((e) => podKey(e.pod))));
    let failure: unknown;
    for (const pod of plan.evictNow) {
      try {
        await this.#evict(pod, now);
      } catch (err) {
        failure ??= err;
      }
    }
    if (failure !== undefined) throw failure;
    if (plan.evictAt.length === 0) return {};
    const next = Math.min(...plan.evictAt.map((e) => e.at));
    return { requeueAfter: Math.max(1, next - now) };
  }

  /** Emits "Cancelling deletion" for pods that were waiting and now are not (still present). */
  #cancelled(nodeName: string, pods: readonly Pod[], waiting: Set<string>): void {
    const before = this.#waiting.get(nodeName) ?? new Set<string>();
    for (const pod of pods) {
      const key = podKey(pod);
      if (before.has(key) && !waiting.has(key) && !pod.metadata?.deletionTimestamp) {
        this.#events.event(
          pod,
          'Normal',
          'TaintManagerEviction',
          `Cancelling deletion of Pod ${key}`,
        );
      }
    }
    if (waiting.size > 0) this.#waiting.set(nodeName, waiting);
    else this.#waiting.delete(nodeName);
  }

  /** `addConditionAndDeletePod`: DisruptionTarget first, then an ordinary graceful delete. */
  async #evict(pod: Pod, now: number): Promise<void> {
    const ref = {
      ...RESOURCES.pods,
      namespace: pod.metadata?.namespace ?? '',
      name: pod.metadata?.name ?? '',
    };
    this.#events.event(
      pod,
      'Normal',
      'TaintManagerEviction',
      `Marking for deletion Pod ${podKey(pod)}`,
    );
    try {
      await this.#ctx.client.patch(
        ref,
        { status: { conditions: [taintEvictionCondition(now)] } },
        'strategic',
        { subresource: 'status', fieldManager: FIELD_MANAGER },
      );
      const uid = pod.metadata?.uid;
      await this.#ctx.client.delete(ref, uid ? { preconditions: { uid } } : {});
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
