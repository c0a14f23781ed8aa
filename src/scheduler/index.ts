/**
 * The default scheduler as a controller (`default-scheduler`): informers on pods, nodes and
 * namespaces (for affinity `namespaceSelector`s) feed the {@link SchedulingQueue} and the
 * {@link SchedulerCache}; once they have synced, the {@link SchedulingLoop} places pods one at a
 * time and binds them concurrently through `pods/binding`.
 *
 * Volumes take part only through a {@link VolumeBindingHook}, which the storage module
 * provides via {@link SchedulerOptions.volumeBinding}; without one, volumes never restrict
 * placement ({@link permissiveVolumeBinding}).
 *
 * @module
 */
import {
  type ControllerContext,
  type ControllerDefinition,
  RESOURCES,
} from '../controller/context.js';
import { kindInformer } from '../controller/kind-informer.js';
import { DEFAULT_SCHEDULER_NAME, nodeEventHandler, podEventHandler } from './event-handlers.js';
import { Preemptor } from './preemption/preemptor.js';
import { SchedulerCache } from './scheduler-cache.js';
import { SchedulingLoop } from './scheduling-loop.js';
import { SchedulingQueue } from './scheduling-queue.js';
import { permissiveVolumeBinding, type VolumeBindingHook } from './volume-binding-hook.js';

export { DEFAULT_SCHEDULER_NAME } from './event-handlers.js';

export interface SchedulerOptions {
  /** Handles pods whose `spec.schedulerName` is this (or unset). @default 'default-scheduler' */
  readonly schedulerName?: string;
  /**
   * Builds the storage module's volume checks from the controller context. `requeue` wakes
   * unschedulable pods, for claim and volume events that may make them fit.
   */
  readonly volumeBinding?: (ctx: ControllerContext, requeue: () => void) => VolumeBindingHook;
  /** Binding requests in flight at once. @default 32 */
  readonly maxConcurrentBinds?: number;
}

export function createSchedulerController(options: SchedulerOptions = {}): ControllerDefinition {
  const schedulerName = options.schedulerName ?? DEFAULT_SCHEDULER_NAME;
  return {
    name: schedulerName,
    agent: 'kube-scheduler',
    start: (ctx) => runScheduler(ctx, options, schedulerName),
  };
}

/** The default scheduler, as `fleetyard up` runs it. */
export const schedulerController: ControllerDefinition = createSchedulerController();

async function runScheduler(
  ctx: ControllerContext,
  options: SchedulerOptions,
  schedulerName: string,
): Promise<void> {
  const pods = kindInformer(ctx.informers.informer(RESOURCES.pods), 'Pod');
  const nodes = kindInformer(ctx.informers.informer(RESOURCES.nodes), 'Node');
  const namespaces = kindInformer(ctx.informers.informer(RESOURCES.namespaces), 'Namespace');
  // DefaultPreemption prefers victims whose eviction breaks no PodDisruptionBudget.
  const pdbs = kindInformer(
    ctx.informers.informer(RESOURCES.poddisruptionbudgets),
    'PodDisruptionBudget',
  );
  const queue = new SchedulingQueue({ clock: ctx.clock });
  const cache = new SchedulerCache();
  const requeue = (): void => queue.moveAllToActiveOrBackoff();
  const volumeBinding = options.volumeBinding?.(ctx, requeue) ?? permissiveVolumeBinding;
  const registrations = [
    nodes.addEventHandler(nodeEventHandler(queue, cache)),
    pods.addEventHandler(podEventHandler(queue, cache, schedulerName)),
  ];
  /** Victims' writes in flight, waited for on stop as the loop waits for its bindings. */
  const preemptions = new Set<Promise<void>>();
  const stop = (): void => queue.close();
  ctx.signal.addEventListener('abort', stop, { once: true });
  try {
    const caches = [
      pods.informer,
      nodes.informer,
      namespaces.informer,
      pdbs.informer,
      ...(volumeBinding.informers ?? []),
    ];
    if (!(await ctx.informers.waitForSync(caches, ctx.signal))) return;
    const schedule = {
      random: ctx.random,
      namespaceLabels: (ns: string) => namespaces.lister.get('', ns)?.metadata?.labels ?? undefined,
      volumeBinding,
    };
    const preemptor = new Preemptor({
      client: ctx.client,
      recorder: ctx.eventRecorder(schedulerName),
      pdbs: () => pdbs.lister.list(),
      stillPending: (key) => {
        const [ns = '', name = ''] = key.split('/');
        const pod = pods.lister.get(ns, name);
        return pod !== undefined && !pod.spec?.nodeName;
      },
      now: () => ctx.clock.now(),
      track: (p) => {
        preemptions.add(p);
        void p.finally(() => preemptions.delete(p));
      },
      onError: (err, what) => ctx.log.info({ err }, `Error ${what}`),
      schedule,
    });
    const loop = new SchedulingLoop({
      client: ctx.client,
      queue,
      cache,
      pods: pods.lister,
      recorder: ctx.eventRecorder(schedulerName),
      clock: ctx.clock,
      log: ctx.log,
      schedule,
      preemptor,
      volumeBinding,
      metrics: { name: schedulerName, controller: ctx.metrics.controller },
      ...(options.maxConcurrentBinds !== undefined
        ? { maxConcurrentBinds: options.maxConcurrentBinds }
        : {}),
      signal: ctx.signal,
    });
    if (ctx.signal.aborted) return;
    await loop.run();
    await Promise.allSettled([...preemptions]);
  } finally {
    queue.close();
    ctx.signal.removeEventListener('abort', stop);
    for (const r of registrations) r.remove();
  }
}
