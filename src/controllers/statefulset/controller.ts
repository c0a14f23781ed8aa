/**
 * The StatefulSet controller's wiring (upstream `stateful_set.go: NewStatefulSetController`,
 * `Run` and the handlers): informers on StatefulSets, pods, claims and ControllerRevisions;
 * child events enqueue the owning set (controllerRef) or, for orphans, every set whose
 * selector matches, so it adopts them; workers run {@link syncStatefulSet}, one at a time per key.
 *
 * Upstream has no claim handler (claims are read through a lister only); we enqueue on claim
 * events too, so a claim the garbage collector finally removed unblocks the waiting pod at once
 * instead of at the next pod or set event.
 *
 * @module
 */
import type { StatefulSet } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { deletedObject } from '../../client/shared-informer.js';
import type { ControllerContext, ControllerDefinition } from '../../controller/context.js';
import { RESOURCES } from '../../controller/context.js';
import { runController } from '../../controller/controller.js';
import { kindInformer } from '../../controller/kind-informer.js';
import { OwnWrites } from '../../controller/own-writes.js';
import { WorkQueue } from '../../controller/workqueue.js';
import {
  availabilityRecheckMs,
  keysForChild,
  keysForChildUpdate,
  type SetLookup,
  setKeyOf,
} from './lookup.js';
import { syncStatefulSet } from './sync.js';

/** The controller's name in `--controllers`, logs and metrics. */
export const STATEFUL_SET_CONTROLLER = 'statefulset';
/** The Events' source component (upstream's recorder name). */
export const STATEFUL_SET_EVENT_COMPONENT = 'statefulset-controller';

export interface StatefulSetControllerOptions {
  readonly gates?: {
    /** `MaxUnavailableStatefulSet` (alpha, default off: `maxUnavailable` is ignored). */
    readonly maxUnavailableStatefulSet?: boolean;
    /** `StatefulSetRecreateStrategy` (alpha, default off: `Recreate` acts as RollingUpdate). */
    readonly statefulSetRecreateStrategy?: boolean;
  };
  /** Concurrent syncs (`--concurrent-statefulset-syncs`). @default 5 */
  readonly workers?: number;
}

/** A StatefulSet controller definition with the given feature gates. */
export function statefulSetController(
  options: StatefulSetControllerOptions = {},
): ControllerDefinition {
  return { name: STATEFUL_SET_CONTROLLER, start: (ctx) => run(ctx, options) };
}

function childHandlers(lookup: SetLookup, enqueue: (key: string) => void) {
  return {
    onAdd: (obj: KubeObject) => {
      for (const key of keysForChild(lookup, obj)) enqueue(key);
    },
    onUpdate: (old: KubeObject, cur: KubeObject) => {
      if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
      for (const key of keysForChildUpdate(lookup, old, cur)) enqueue(key);
    },
    onDelete: (deleted: KubeObject | Parameters<typeof deletedObject>[0]) => {
      const obj = deletedObject(deleted);
      // A deleted child matters to its owner only (an orphan's deletion changes no set).
      for (const key of keysForChild(lookup, obj)) enqueue(key);
    },
  };
}

async function run(ctx: ControllerContext, options: StatefulSetControllerOptions): Promise<void> {
  const setInformer = kindInformer(ctx.informers.informer(RESOURCES.statefulsets), 'StatefulSet');
  const podInformer = kindInformer(ctx.informers.informer(RESOURCES.pods), 'Pod');
  const claimInformer = kindInformer(
    ctx.informers.informer(RESOURCES.persistentvolumeclaims),
    'PersistentVolumeClaim',
  );
  const revisionInformer = kindInformer(
    ctx.informers.informer(RESOURCES.controllerrevisions),
    'ControllerRevision',
  );
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'statefulset',
    metrics: ctx.metrics.queue,
  });
  const lookup = setInformer.lister;
  const enqueue = (key: string): void => queue.add(key);
  const ownSets = new OwnWrites<StatefulSet>();
  const registrations = [
    setInformer.addEventHandler({
      onAdd: (set) => enqueue(setKeyOf(set)),
      onUpdate: (_old, cur) => enqueue(setKeyOf(cur)),
      onDelete: (deleted) => {
        const set = deletedObject(deleted);
        ownSets.forget(setKeyOf(set), set.metadata?.uid);
        enqueue(setKeyOf(set));
      },
    }),
    podInformer.addEventHandler({
      ...childHandlers(lookup, enqueue),
      onUpdate: (old, cur) => {
        if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return;
        for (const key of keysForChildUpdate(lookup, old, cur)) enqueue(key);
        const recheck = availabilityRecheckMs(lookup, old, cur);
        if (recheck !== undefined) queue.addAfter(recheck.key, recheck.ms);
      },
    }),
    claimInformer.addEventHandler(childHandlers(lookup, enqueue)),
    revisionInformer.addEventHandler(childHandlers(lookup, enqueue)),
  ];

  try {
    const informers = [setInformer, podInformer, claimInformer, revisionInformer].map(
      (i) => i.informer,
    );
    if (!(await ctx.informers.waitForSync(informers, ctx.signal))) return;
    const recorder = ctx.eventRecorder(STATEFUL_SET_EVENT_COMPONENT);
    const deps = {
      client: ctx.client,
      sets: setInformer.lister,
      pods: podInformer.lister,
      claims: claimInformer.lister,
      revisions: revisionInformer.lister,
      ownSets,
      recorder,
      clock: ctx.clock,
      gates: {
        maxUnavailableStatefulSet: options.gates?.maxUnavailableStatefulSet === true,
        statefulSetRecreateStrategy: options.gates?.statefulSetRecreateStrategy === true,
      },
      warn: (fields: Record<string, unknown>, msg: string) => ctx.log.warn(fields, msg),
    };
    await runController({
      name: STATEFUL_SET_CONTROLLER,
      queue,
      reconcile: (key) => syncStatefulSet(deps, key),
      workers: options.workers ?? 5,
      clock: ctx.clock,
      log: ctx.log,
      metrics: ctx.metrics.controller,
      signal: ctx.signal,
    });
  } finally {
    for (const r of registrations) r.remove();
    queue.shutdown();
  }
}
