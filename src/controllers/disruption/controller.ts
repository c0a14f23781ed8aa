/**
 * The disruption controller (upstream `pkg/controller/disruption`): keeps every
 * PodDisruptionBudget's status (expectedPods, currentHealthy, desiredHealthy,
 * disruptionsAllowed, observedGeneration, disruptedPods and the `DisruptionAllowed` condition)
 * in line with its pods and their controllers' scale, and resets stale `DisruptionTarget`
 * conditions of pods an eviction marked but did not delete.
 *
 * Two queues as upstream: PDB keys (from PDB events and from the events of the pods they
 * select; a PDB is synced again when a `disruptedPods` entry expires, 2 min after the eviction)
 * and pod keys for the stale-condition cleanup. The status is the pure `pdbStatus` planner's;
 * it is written only when it changed, with the cached resourceVersion (a Conflict requeues
 * without the fail-safe, as upstream).
 *
 * @module
 */

import type { Pod, PodDisruptionBudget } from '../../api/model/index.js';
import { deepEqual, type KubeObject } from '../../api/object.js';
import { pdbsForPod } from '../../api/policy/eviction-decision.js';
import { readPdbStatus } from '../../api/policy/pdb-status.js';
import { isConflict, isNotFound } from '../../client/api-client.js';
import { deletedObject } from '../../client/shared-informer.js';
import { objectKey, splitKey } from '../../client/store.js';
import {
  type ControllerContext,
  type ControllerDefinition,
  RESOURCES,
} from '../../controller/context.js';
import { type ReconcileResult, runController } from '../../controller/controller.js';
import type { EventRecorder } from '../../controller/events.js';
import { type KindInformer, kindInformer } from '../../controller/kind-informer.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { controllerScaleFromObjects } from './controller-scale.js';
import { type PdbEvent, pdbStatus } from './pdb-status.js';
import { resetDisruptionTarget, staleDisruption } from './stale-disruption.js';

export const DISRUPTION_CONTROLLER_NAME = 'disruption-controller';

/** The disruption controller, for the controller manager. */
export const disruptionController: ControllerDefinition = {
  name: DISRUPTION_CONTROLLER_NAME,
  start: run,
};

interface Informers {
  readonly pdbs: KindInformer<'PodDisruptionBudget'>;
  readonly pods: KindInformer<'Pod'>;
  readonly replicaSets: KindInformer<'ReplicaSet'>;
  readonly deployments: KindInformer<'Deployment'>;
  readonly statefulSets: KindInformer<'StatefulSet'>;
}

async function run(ctx: ControllerContext): Promise<void> {
  const inf: Informers = {
    pdbs: kindInformer(
      ctx.informers.informer(RESOURCES.poddisruptionbudgets),
      'PodDisruptionBudget',
    ),
    pods: kindInformer(ctx.informers.informer(RESOURCES.pods), 'Pod'),
    replicaSets: kindInformer(ctx.informers.informer(RESOURCES.replicasets), 'ReplicaSet'),
    deployments: kindInformer(ctx.informers.informer(RESOURCES.deployments), 'Deployment'),
    statefulSets: kindInformer(ctx.informers.informer(RESOURCES.statefulsets), 'StatefulSet'),
  };
  const recorder = ctx.eventRecorder(DISRUPTION_CONTROLLER_NAME);
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: DISRUPTION_CONTROLLER_NAME,
    metrics: ctx.metrics.queue,
  });
  const staleQueue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'disruption_stale_pod_disruption',
    metrics: ctx.metrics.queue,
  });
  registerHandlers(ctx, inf, recorder, queue, staleQueue);
  const caches = Object.values(inf).map((i) => i.informer);
  if (!(await ctx.informers.waitForSync(caches, ctx.signal))) return;
  const common = {
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
  };
  await Promise.all([
    runController({
      ...common,
      name: DISRUPTION_CONTROLLER_NAME,
      queue,
      reconcile: (key) => syncPdb(ctx, inf, recorder, key),
    }),
    runController({
      ...common,
      name: `${DISRUPTION_CONTROLLER_NAME}-stale-pod-disruption`,
      queue: staleQueue,
      reconcile: (key) => syncStalePod(ctx, inf, key),
    }),
  ]);
}

function registerHandlers(
  ctx: ControllerContext,
  inf: Informers,
  recorder: EventRecorder,
  queue: WorkQueue<string>,
  staleQueue: WorkQueue<string>,
): void {
  const enqueuePdb = (pdb: KubeObject) => queue.add(objectKey(pdb));
  inf.pdbs.addEventHandler({
    onAdd: enqueuePdb,
    onUpdate: (_, pdb) => enqueuePdb(pdb),
    onDelete: (d) => enqueuePdb(deletedObject(d)),
  });
  const forPod = (pod: Pod) => {
    const pdb = pdbForPod(inf, recorder, pod);
    if (pdb !== undefined) enqueuePdb(pdb);
  };
  const stale = (pod: Pod) => {
    const s = staleDisruption(pod, ctx.clock.now());
    if (s.stale) staleQueue.addAfter(objectKey(pod), s.waitMs);
  };
  inf.pods.addEventHandler({
    onAdd: (pod) => {
      forPod(pod);
      stale(pod);
    },
    onUpdate: (old, pod) => {
      if (old.metadata?.resourceVersion === pod.metadata?.resourceVersion) return;
      forPod(pod);
      // A label change can move the pod out of a PDB: that PDB must count it no more.
      if (!deepEqual(old.metadata?.labels ?? {}, pod.metadata?.labels ?? {})) forPod(old);
      stale(pod);
    },
    onDelete: (d) => forPod(deletedObject(d)),
  });
}

/**
 * Upstream `getPdbForPod`: the PDB whose (non-empty) selector matches the pod; with several,
 * a `MultiplePodDisruptionBudgets` warning on the pod and the first (by name) is synced.
 */
function pdbForPod(inf: Informers, recorder: EventRecorder, pod: Pod): KubeObject | undefined {
  const namespace = pod.metadata?.namespace ?? '';
  const matching = pdbsForPod(pod, inf.pdbs.lister.listInNamespace(namespace)).sort((a, b) =>
    (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
  );
  const [first] = matching;
  if (matching.length > 1 && first !== undefined) {
    const msg = `Pod ${JSON.stringify(namespace)}/${JSON.stringify(pod.metadata?.name ?? '')} matches multiple PodDisruptionBudgets.  Chose ${JSON.stringify(first.metadata?.name ?? '')} arbitrarily.`;
    recorder.event(pod, 'Warning', 'MultiplePodDisruptionBudgets', msg);
  }
  return first;
}

/** Upstream `sync` + `trySync` + `failSafe` for one PDB key. */
async function syncPdb(
  ctx: ControllerContext,
  inf: Informers,
  recorder: EventRecorder,
  key: string,
): Promise<ReconcileResult> {
  const [namespace, name] = splitKey(key);
  const pdb = inf.pdbs.lister.get(namespace, name);
  if (pdb === undefined) return {};
  const now = ctx.clock.now();
  const lookup = controllerScaleFromObjects({
    replicaSets: inf.replicaSets.lister.listInNamespace(namespace),
    deployments: inf.deployments.lister.listInNamespace(namespace),
    statefulSets: inf.statefulSets.lister.listInNamespace(namespace),
  });
  const result = pdbStatus(pdb, inf.pods.lister.listInNamespace(namespace), lookup, now);
  recordEvents(inf, recorder, pdb, result.events);
  const changed = result.changed && !deepEqual(result.status, readPdbStatus(pdb));
  if (changed) await writeStatus(ctx, pdb, result.status);
  // The sync error is returned after the fail-safe write so the key is retried with backoff.
  if (!result.ok) throw new Error(result.error);
  return result.recheckAt === undefined
    ? {}
    : { requeueAfter: Math.max(1, result.recheckAt - now) };
}

function recordEvents(
  inf: Informers,
  recorder: EventRecorder,
  pdb: PodDisruptionBudget,
  events: readonly PdbEvent[],
): void {
  for (const e of events) {
    const pod =
      e.pod === undefined ? undefined : inf.pods.lister.get(pdb.metadata?.namespace ?? '', e.pod);
    recorder.event(pod ?? pdb, e.type, e.reason, e.message);
  }
}

/** `UpdateStatus` with the cached resourceVersion; a Conflict surfaces and requeues the key. */
async function writeStatus(
  ctx: ControllerContext,
  pdb: PodDisruptionBudget,
  status: unknown,
): Promise<void> {
  const ref = {
    ...RESOURCES.poddisruptionbudgets,
    namespace: pdb.metadata?.namespace ?? '',
    name: pdb.metadata?.name ?? '',
  };
  try {
    await ctx.client.updateStatus(ref, { ...pdb, status });
  } catch (err) {
    if (isNotFound(err)) return;
    if (isConflict(err))
      ctx.log.debug({ pdb: `${ref.namespace}/${ref.name}` }, 'PDB status conflict, requeued');
    throw err;
  }
}

/** Upstream `syncStalePodDisruption`. */
async function syncStalePod(
  ctx: ControllerContext,
  inf: Informers,
  key: string,
): Promise<ReconcileResult> {
  const [namespace, name] = splitKey(key);
  const pod = inf.pods.lister.get(namespace, name);
  if (pod === undefined) return {};
  const now = ctx.clock.now();
  const s = staleDisruption(pod, now);
  if (!s.stale) return {};
  if (s.waitMs > 0) return { requeueAfter: s.waitMs };
  const conditions = resetDisruptionTarget(pod, now);
  if (conditions === undefined) return {};
  const status = { ...pod.status, conditions };
  try {
    await ctx.client.updateStatus({ ...RESOURCES.pods, namespace, name }, { ...pod, status });
    ctx.log.info({ pod: key }, 'Reset stale DisruptionTarget condition to False');
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  return {};
}
