/**
 * The Deployment controller's wiring, after upstream `deployment_controller.go`: informers on
 * Deployments, ReplicaSets and Pods; ReplicaSet events map to the owning Deployment (by
 * controllerRef, orphans by selector); pod deletions wake Recreate deployments; one reconcile
 * per key runs `syncDeployment`.
 *
 * @module
 */
import { type LabelSelector, labelSelectorFromObject } from '../../api/labels/selector.js';
import type { Deployment, Pod, ReplicaSet } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { deletedObject } from '../../client/shared-informer.js';
import { keyOf } from '../../client/store.js';
import type { ControllerContext, ControllerDefinition } from '../../controller/context.js';
import { RESOURCES } from '../../controller/context.js';
import { type ReconcileResult, runController } from '../../controller/controller.js';
import { controllerRefOf } from '../../controller/controller-ref.js';
import { type KindInformer, kindInformer } from '../../controller/kind-informer.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { claimReplicaSets, podsByReplicaSet } from './claim.js';
import { rolloutRecreate } from './recreate.js';
import { rollback } from './rollback.js';
import { getRollbackTo } from './rollback-plan.js';
import { rolloutRolling } from './rolling.js';
import { strategyType } from './rollout-math.js';
import { checkPausedConditions, scalingEvent, syncScaling, syncStatusOnly } from './sync.js';
import { DeploymentSyncer } from './syncer.js';

export const CONTROLLER_NAME = 'deployment-controller';

/** Upstream `maxRetries`: a key that failed this many times in a row is dropped. */
const MAX_RETRIES = 15;

interface Informers {
  deployments: KindInformer<'Deployment'>;
  replicaSets: KindInformer<'ReplicaSet'>;
  pods: KindInformer<'Pod'>;
}

/** The parsed selector, or undefined when it is invalid. */
function selectorOf(d: Deployment): LabelSelector | undefined {
  try {
    return labelSelectorFromObject(d.spec?.selector);
  } catch {
    return undefined;
  }
}

class DeploymentController {
  readonly #ctx: ControllerContext;
  readonly #inf: Informers;
  readonly #queue: WorkQueue<string>;
  readonly #recorder;

  constructor(ctx: ControllerContext, informers: Informers) {
    this.#ctx = ctx;
    this.#inf = informers;
    this.#queue = new WorkQueue<string>({
      clock: ctx.clock,
      name: CONTROLLER_NAME,
      metrics: ctx.metrics.queue,
    });
    this.#recorder = ctx.eventRecorder(CONTROLLER_NAME);
  }

  get queue(): WorkQueue<string> {
    return this.#queue;
  }

  enqueue(obj: KubeObject): void {
    this.#queue.add(keyOf(obj.metadata?.namespace, obj.metadata?.name ?? ''));
  }

  /** Registers the event handlers (upstream `NewDeploymentController`). */
  watch(): void {
    const enqueue = (obj: Deployment) => this.enqueue(obj);
    this.#inf.deployments.addEventHandler({
      onAdd: enqueue,
      onUpdate: (_old, d) => enqueue(d),
      onDelete: (obj) => enqueue(deletedObject(obj)),
    });
    this.#inf.replicaSets.addEventHandler({
      onAdd: (rs) => this.#addReplicaSet(rs),
      onUpdate: (old, rs) => this.#updateReplicaSet(old, rs),
      onDelete: (obj) => this.#ownerOf(deletedObject(obj)),
    });
    this.#inf.pods.addEventHandler({ onDelete: (obj) => this.#deletePod(deletedObject(obj)) });
  }

  /** The Deployment a controllerRef names, if it exists with that UID. */
  #resolve(namespace: string, obj: KubeObject): Deployment | undefined {
    const ref = controllerRefOf(obj);
    if (ref?.kind !== 'Deployment') return undefined;
    const d = this.#inf.deployments.lister.get(namespace, ref.name);
    return d?.metadata?.uid === ref.uid ? d : undefined;
  }

  #ownerOf(rs: ReplicaSet): boolean {
    if (controllerRefOf(rs) === undefined) return false;
    const d = this.#resolve(rs.metadata?.namespace ?? '', rs);
    if (d) this.enqueue(d);
    return true;
  }

  /** `getDeploymentsForReplicaSet`: Deployments whose (non-empty) selector matches an orphan. */
  #enqueueMatching(rs: ReplicaSet): void {
    for (const d of this.#inf.deployments.lister.listInNamespace(rs.metadata?.namespace ?? '')) {
      const sel = selectorOf(d);
      if (sel && !sel.isEmpty() && sel.matches(rs.metadata?.labels)) this.enqueue(d);
    }
  }

  #addReplicaSet(rs: ReplicaSet): void {
    if (!this.#ownerOf(rs)) this.#enqueueMatching(rs);
  }

  #updateReplicaSet(old: ReplicaSet, rs: ReplicaSet): void {
    if (old.metadata?.resourceVersion === rs.metadata?.resourceVersion) return;
    const oldRef = controllerRefOf(old);
    const ref = controllerRefOf(rs);
    const refChanged = oldRef?.uid !== ref?.uid;
    if (refChanged && oldRef) this.#ownerOf(old);
    if (ref) {
      this.#ownerOf(rs);
      return;
    }
    const labelsChanged =
      JSON.stringify(old.metadata?.labels ?? {}) !== JSON.stringify(rs.metadata?.labels ?? {});
    if (labelsChanged || refChanged) this.#enqueueMatching(rs);
  }

  /** Recreate waits for old pods to go: a pod deletion may unblock its Deployment. */
  #deletePod(pod: Pod): void {
    const ns = pod.metadata?.namespace ?? '';
    const ref = controllerRefOf(pod);
    if (ref?.kind !== 'ReplicaSet') return;
    const rs = this.#inf.replicaSets.lister.get(ns, ref.name);
    if (rs === undefined || rs.metadata?.uid !== ref.uid) return;
    const d = this.#resolve(ns, rs);
    if (d && strategyType(d) === 'Recreate') this.enqueue(d);
  }

  /** One reconcile; failures past {@link MAX_RETRIES} are dropped, as upstream `handleErr`. */
  async reconcile(key: string, signal: AbortSignal): Promise<ReconcileResult> {
    try {
      return await this.#sync(key, signal);
    } catch (err) {
      if (this.#queue.numRequeues(key) >= MAX_RETRIES) {
        this.#ctx.log.info({ key, err }, 'Dropping deployment out of the queue');
        return {};
      }
      throw err;
    }
  }

  /** `syncDeployment`. */
  async #sync(key: string, signal: AbortSignal): Promise<ReconcileResult> {
    const [namespace = '', name = ''] = key.includes('/') ? key.split('/', 2) : ['', key];
    const cached = this.#inf.deployments.lister.get(namespace, name);
    if (cached === undefined) return {};
    const d = structuredClone(cached);
    const s = new DeploymentSyncer(d, {
      client: this.#ctx.client,
      recorder: this.#recorder,
      clock: this.#ctx.clock,
      signal,
    });
    const selector = selectorOf(d);
    if (selector === undefined || selector.isEmpty()) {
      s.event(
        'Warning',
        'SelectingAll',
        'This deployment is selecting all pods. A non-empty selector is required.',
      );
      if ((d.status?.observedGeneration ?? 0) < (d.metadata?.generation ?? 0)) {
        d.status = { ...d.status, observedGeneration: d.metadata?.generation ?? 0 };
        await s.saveStatus();
      }
      return {};
    }
    const candidates = this.#inf.replicaSets.lister.listInNamespace(namespace);
    const rsList = await claimReplicaSets(this.#ctx.client, d, selector, candidates, signal);
    await this.#dispatch(s, rsList, selector);
    if (s.requeueAfter === undefined) return {};
    return s.requeueAfter > 0 ? { requeueAfter: s.requeueAfter } : { requeue: true };
  }

  async #dispatch(
    s: DeploymentSyncer,
    rsList: ReplicaSet[],
    selector: LabelSelector,
  ): Promise<void> {
    const d = s.d;
    if (d.metadata?.deletionTimestamp) return syncStatusOnly(s, rsList);
    await checkPausedConditions(s);
    if (d.spec?.paused) return syncScaling(s, rsList);
    // Not re-entrant (upstream): nothing else runs until the annotation is gone.
    const rollbackTo = getRollbackTo(d);
    if (rollbackTo !== undefined) return rollback(s, rsList, rollbackTo);
    if (await scalingEvent(s, rsList)) return syncScaling(s, rsList);
    const type = strategyType(d);
    if (type === 'Recreate') {
      const pods = this.#inf.pods.lister.listInNamespace(d.metadata?.namespace ?? '', selector);
      return rolloutRecreate(s, rsList, podsByReplicaSet(pods, rsList));
    }
    if (type === 'RollingUpdate') return rolloutRolling(s, rsList);
    throw new Error(`unexpected deployment strategy type: ${type}`);
  }
}

/** Runs the Deployment controller until `ctx.signal` aborts. */
export async function startDeploymentController(
  ctx: ControllerContext,
  workers = 2,
): Promise<void> {
  const informers: Informers = {
    deployments: kindInformer(ctx.informers.informer(RESOURCES.deployments), 'Deployment'),
    replicaSets: kindInformer(ctx.informers.informer(RESOURCES.replicasets), 'ReplicaSet'),
    pods: kindInformer(ctx.informers.informer(RESOURCES.pods), 'Pod'),
  };
  const dc = new DeploymentController(ctx, informers);
  dc.watch();
  const synced = await ctx.informers.waitForSync(
    [informers.deployments.informer, informers.replicaSets.informer, informers.pods.informer],
    ctx.signal,
  );
  if (!synced) return;
  await runController({
    name: CONTROLLER_NAME,
    queue: dc.queue,
    reconcile: (key, signal) => dc.reconcile(key, signal),
    workers,
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
  });
}

/** The Deployment controller as the manager runs it. */
export const deploymentController: ControllerDefinition = {
  name: CONTROLLER_NAME,
  start: (ctx) => startDeploymentController(ctx),
};
