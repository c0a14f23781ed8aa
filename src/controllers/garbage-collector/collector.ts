/**
 * The garbage collector (upstream `garbagecollector.go`): the owner graph fed by the monitors,
 * two work queues of UIDs, and one reconcile for both:
 * - `attemptToDelete`: dependents whose owners may be gone, owners deleting in foreground;
 * - `attemptToOrphan`: owners being deleted with the `orphan` finalizer.
 *
 * A reconcile re-reads the item live (gone, or its name now another UID: a virtual delete event
 * removes it from the graph, which queues its dependents), records that read in the graph,
 * reads the item's owners live, asks the pure planner (`plan.ts`) what to do, and runs the
 * writes in order, stopping at the first failure (a throw: rate-limited retry). Plan steps that
 * concern another object (a foreground owner's blocking dependents) queue that object instead,
 * so every object is acted on only from its own fresh read, as upstream's
 * `processDeletingDependentsItem` does.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import type { ControllerContext } from '../../controller/context.js';
import type { ReconcileResult } from '../../controller/controller.js';
import type { EventRecorder } from '../../controller/events.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { type GraphChanges, isDeletingDependents, isOrphaning, OwnerGraph } from './graph.js';
import { describeIdentity } from './identity.js';
import {
  eventTarget,
  invalidNamespaceMessage,
  invalidNamespaceRefs,
  OWNER_REF_INVALID_NAMESPACE,
} from './invalid-namespace.js';
import type { GcOperations } from './operations.js';
import { type GcAction, planForObject } from './plan.js';

export class GarbageCollector {
  readonly graph = new OwnerGraph();
  readonly attemptToDelete: WorkQueue<string>;
  readonly attemptToOrphan: WorkQueue<string>;
  readonly #ops: GcOperations;
  readonly #events: EventRecorder;
  readonly #log: ControllerContext['log'];

  constructor(ctx: ControllerContext, ops: GcOperations, events: EventRecorder) {
    const { clock } = ctx;
    const metrics = ctx.metrics.queue;
    this.attemptToDelete = new WorkQueue({
      clock,
      name: 'garbage_collector_attempt_to_delete',
      metrics,
    });
    this.attemptToOrphan = new WorkQueue({
      clock,
      name: 'garbage_collector_attempt_to_orphan',
      metrics,
    });
    this.#ops = ops;
    this.#events = events;
    this.#log = ctx.log;
  }

  /** An add or update from a monitor (upstream `processGraphChanges`). */
  upsert(obj: KubeObject): void {
    const uid = obj.metadata?.uid;
    if (typeof uid !== 'string' || uid === '') return;
    const before = this.graph.get(uid);
    const ownersBefore = new Set((before?.observed ? before.owners : []).map((r) => r.uid));
    const wasVirtual = before !== undefined && !before.observed;
    this.#enqueue(this.graph.upsert(obj));
    for (const { dependent, ref } of invalidNamespaceRefs(
      this.graph,
      uid,
      ownersBefore,
      wasVirtual,
    )) {
      const message = invalidNamespaceMessage(ref, dependent.identity.namespace);
      this.#events.event(eventTarget(dependent), 'Warning', OWNER_REF_INVALID_NAMESPACE, message);
    }
  }

  /** A delete from a monitor, or a virtual delete after a live read found nothing. */
  remove(obj: KubeObject): void {
    const uid = obj.metadata?.uid;
    if (typeof uid === 'string' && uid !== '') this.#enqueue(this.graph.remove(uid));
  }

  #enqueue(changes: GraphChanges, except?: string): void {
    for (const uid of changes.attemptToDelete) if (uid !== except) this.attemptToDelete.add(uid);
    for (const uid of changes.attemptToOrphan) if (uid !== except) this.attemptToOrphan.add(uid);
  }

  /** One item of either queue. */
  async reconcile(uid: string, queue: 'delete' | 'orphan'): Promise<ReconcileResult> {
    const node = this.graph.get(uid);
    // Virtual nodes need no work: their dependents were queued and read the owner live.
    if (node === undefined || !node.observed) return {};
    // Orphaning is the other queue's job; an object being deleted leaves through its own
    // finalizers, so only the GC's two finalizers make it an item (upstream's first check).
    if (queue === 'orphan' ? !isOrphaning(node) : isOrphaning(node)) return {};
    if (node.beingDeleted && !isOrphaning(node) && !isDeletingDependents(node)) return {};
    const latest = await this.#ops.latest(node.identity);
    if (latest === undefined) {
      this.#log.debug({ item: describeIdentity(node.identity) }, 'item is gone, virtual delete');
      this.#enqueue(this.graph.remove(uid));
      return {};
    }
    this.#enqueue(this.graph.upsert(latest), uid);
    const fresh = this.graph.get(uid);
    if (fresh === undefined || (queue === 'orphan' && !isOrphaning(fresh))) return {};
    const lookup = await this.#ops.lookupFor(
      fresh.beingDeleted ? [] : fresh.owners,
      fresh.identity.namespace,
    );
    const actions = planForObject(uid, this.graph, lookup);
    return this.#run(uid, actions, fresh.owners);
  }

  async #run(uid: string, actions: GcAction[], owners: GcActionOwners): Promise<ReconcileResult> {
    for (const action of actions) {
      if (action.kind === 'wait') {
        if (action.target.uid !== uid) this.attemptToDelete.add(action.target.uid);
        else if (action.retry)
          throw new Error(`${describeIdentity(action.target)}: ${action.reason}`);
        continue;
      }
      if (action.kind !== 'orphanDependents' && action.target.uid !== uid) {
        // A blocking dependent of a foreground owner: it acts from its own fresh read.
        this.attemptToDelete.add(action.target.uid);
        continue;
      }
      this.#log.debug({ item: uid, action: action.kind }, 'garbage collector action');
      await this.#ops.apply(action, owners);
    }
    return {};
  }
}

type GcActionOwners = Parameters<GcOperations['apply']>[1];
