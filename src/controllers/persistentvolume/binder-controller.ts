/**
 * The PersistentVolume controller (upstream `pkg/controller/volume/persistentvolume`
 * `pv_controller_base.go`): two queues, claims (`ns/name`) and volumes (`name`), one worker
 * each, that run the pure `planClaim` / `planVolume` and apply their writes through
 * `apply-writes.ts`.
 *
 * - A claim sync binds (both ways, in upstream's write order), waits for a
 *   WaitForFirstConsumer claim's consumer (`WaitForFirstConsumer`), hands a class's claim to
 *   its external provisioner (`ExternalProvisioning`, the two storage-provisioner
 *   annotations), assigns the default class retroactively, and marks a bound claim Lost
 *   (`ClaimLost`) once its volume is gone.
 * - A volume sync marks it Available, Bound or Released (Retain stays Released), unbinds it,
 *   and for a Released Delete volume an external provisioner created deletes the PV object:
 *   its `external-provisioner.volume.kubernetes.io/finalizer` keeps it until that provisioner
 *   has removed the backing volume (upstream leaves even the object delete to the provisioner;
 *   both orders end the same).
 * - Claim deletes enqueue their volume, volume deletes their claim (that is how a lost volume
 *   makes its claim Lost), new StorageClasses every claim.
 * - Every 15 s of the injected clock (upstream's `--pvclaimbinder-sync-period`) every claim and
 *   volume is queued again, which retries waits no event would end.
 *
 * @module
 */
import {
  asKind,
  type PersistentVolume,
  type PersistentVolumeClaim,
} from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { isNotFound } from '../../client/api-client.js';
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
import { OwnWrites } from '../../controller/own-writes.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { applyWrites, type BinderOwnWrites, recordEvents } from './apply-writes.js';
import { planClaim } from './claim-sync.js';
import { planVolume } from './volume-sync.js';
import {
  ANN_DYNAMICALLY_PROVISIONED,
  annotation,
  claimRefOf,
  nameOf,
  phaseOf,
  STORAGE_CLASSES,
  volumeNameOf,
} from './volume-util.js';

export const BINDER_CONTROLLER_NAME = 'persistentvolume-binder';
/** The event source upstream's PV controller records as. */
export const BINDER_EVENT_COMPONENT = 'persistentvolume-controller';
/** Upstream's default `--pvclaimbinder-sync-period`. */
export const BINDER_RESYNC_MS = 15_000;

export interface BinderOptions {
  /** @default BINDER_RESYNC_MS */
  readonly resyncPeriodMs?: number;
}

interface State {
  readonly ctx: ControllerContext;
  readonly claims: KindInformer<'PersistentVolumeClaim'>;
  readonly volumes: KindInformer<'PersistentVolume'>;
  readonly classes: KindInformer<'StorageClass'>;
  readonly pods: KindInformer<'Pod'>;
  readonly recorder: EventRecorder;
  readonly claimQueue: WorkQueue<string>;
  readonly volumeQueue: WorkQueue<string>;
  readonly own: BinderOwnWrites;
}

/** The PV controller, for the controller manager. */
export function persistentVolumeBinderController(
  options: BinderOptions = {},
): ControllerDefinition {
  return { name: BINDER_CONTROLLER_NAME, start: (ctx) => run(ctx, options) };
}

async function run(ctx: ControllerContext, options: BinderOptions): Promise<void> {
  const queue = (name: string) =>
    new WorkQueue<string>({ clock: ctx.clock, name, metrics: ctx.metrics.queue });
  const state: State = {
    ctx,
    claims: kindInformer(
      ctx.informers.informer(RESOURCES.persistentvolumeclaims),
      'PersistentVolumeClaim',
    ),
    volumes: kindInformer(ctx.informers.informer(RESOURCES.persistentvolumes), 'PersistentVolume'),
    classes: kindInformer(ctx.informers.informer(STORAGE_CLASSES), 'StorageClass'),
    pods: kindInformer(ctx.informers.informer(RESOURCES.pods), 'Pod'),
    recorder: ctx.eventRecorder(BINDER_EVENT_COMPONENT),
    claimQueue: queue('claims'),
    volumeQueue: queue('volumes'),
    own: { volumes: new OwnWrites(), claims: new OwnWrites() },
  };
  registerHandlers(state);
  const informers = [state.claims, state.volumes, state.classes, state.pods].map((i) => i.informer);
  if (!(await ctx.informers.waitForSync(informers, ctx.signal))) return;
  const stopResync = scheduleResync(state, options.resyncPeriodMs ?? BINDER_RESYNC_MS);
  const common = {
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
  };
  try {
    await Promise.all([
      runController({
        ...common,
        name: `${BINDER_CONTROLLER_NAME}-claims`,
        queue: state.claimQueue,
        reconcile: (key) => syncClaim(state, key),
      }),
      runController({
        ...common,
        name: `${BINDER_CONTROLLER_NAME}-volumes`,
        queue: state.volumeQueue,
        reconcile: (key) => syncVolume(state, key),
      }),
    ]);
  } finally {
    stopResync();
  }
}

function enqueueAll(state: State): void {
  for (const c of state.claims.lister.list()) state.claimQueue.add(objectKey(c));
  for (const v of state.volumes.lister.list()) state.volumeQueue.add(nameOf(v));
}

function scheduleResync(state: State, periodMs: number): () => void {
  let cancel = (): void => {};
  const tick = (): void => {
    if (state.ctx.signal.aborted) return;
    enqueueAll(state);
    cancel = state.ctx.clock.setTimer(periodMs, tick);
  };
  cancel = state.ctx.clock.setTimer(periodMs, tick);
  return () => cancel();
}

function claimKeyOfVolume(pv: PersistentVolume): string | undefined {
  const ref = claimRefOf(pv);
  if (ref === undefined || (ref.name ?? '') === '') return undefined;
  return `${ref.namespace ?? ''}/${ref.name}`;
}

function registerHandlers(state: State): void {
  const { claimQueue, volumeQueue } = state;
  const onClaim = (c: KubeObject) => claimQueue.add(objectKey(c));
  state.claims.addEventHandler({
    onAdd: onClaim,
    onUpdate: (_, cur) => onClaim(cur),
    // Upstream `deleteClaim`: the volume it was bound to is released by the volume's sync.
    onDelete: (d) => {
      const volumeName = volumeNameOf(deletedObject(d));
      if (volumeName !== '') volumeQueue.add(volumeName);
    },
  });
  const onVolume = (v: KubeObject) => volumeQueue.add(nameOf(v));
  state.volumes.addEventHandler({
    onAdd: onVolume,
    onUpdate: (_, cur) => onVolume(cur),
    // Upstream `deleteVolume`: the claim's sync notices the loss (Lost) or rebinds.
    onDelete: (d) => {
      const key = claimKeyOfVolume(deletedObject(d));
      if (key !== undefined) claimQueue.add(key);
    },
  });
  // A class created after its claims: they can provision now, not at the next resync.
  state.classes.informer.addEventHandler({
    onAdd: () => {
      for (const c of state.claims.lister.list()) {
        if (phaseOf(c) !== 'Bound') claimQueue.add(objectKey(c));
      }
    },
  });
}

/** Upstream `syncClaim` for one claim key. */
async function syncClaim(state: State, key: string): Promise<ReconcileResult> {
  const { ctx } = state;
  const [namespace, name] = splitKey(key);
  const claim = state.own.claims.newest(key, state.claims.lister.get(namespace, name));
  if (claim === undefined) return {};
  const plan = planClaim(
    claim,
    state.volumes.lister.list(),
    state.classes.lister.list(),
    ctx.clock.now(),
    { pods: state.pods.lister.listInNamespace(namespace) },
  );
  const volumeName = plan.volumeName ?? '';
  const volume =
    volumeName === ''
      ? undefined
      : state.own.volumes.newest(volumeName, state.volumes.lister.get('', volumeName));
  const written = await applyWrites(ctx.client, plan, volume, claim, state.own);
  recordEvents(state.recorder, plan.events, {
    claim: written.claim ?? claim,
    volume: written.volume ?? volume,
  });
  if (plan.error !== undefined) throw new Error(plan.error);
  ctx.log.debug({ claim: key, outcome: plan.outcome }, 'Synchronized claim');
  return {};
}

/**
 * The claims `planVolume` may need: the cached ones of the ref's namespace, plus the
 * referenced claim read from the API server when the cache misses it and the volume is not
 * Released or Failed yet (upstream: a just-created claim must not release its volume).
 */
async function claimsFor(state: State, pv: PersistentVolume): Promise<PersistentVolumeClaim[]> {
  const ref = claimRefOf(pv);
  if (ref === undefined || (ref.name ?? '') === '') return [];
  const namespace = ref.namespace ?? '';
  const cached = state.claims.lister
    .listInNamespace(namespace)
    .map((c) => state.own.claims.newest(objectKey(c), c) ?? c);
  if (cached.some((c) => nameOf(c) === ref.name)) return cached;
  if (phaseOf(pv) === 'Released' || phaseOf(pv) === 'Failed') return cached;
  try {
    const live = await state.ctx.client.get({
      ...RESOURCES.persistentvolumeclaims,
      namespace,
      name: ref.name ?? '',
    });
    return [...cached, asKind(live, 'PersistentVolumeClaim')];
  } catch (err) {
    if (isNotFound(err)) return cached;
    throw err;
  }
}

function isDeleting(obj: KubeObject): boolean {
  return obj.metadata?.deletionTimestamp !== undefined && obj.metadata.deletionTimestamp !== null;
}

/** Upstream `syncVolume` for one volume name. */
async function syncVolume(state: State, name: string): Promise<ReconcileResult> {
  const { ctx } = state;
  const pv = state.own.volumes.newest(name, state.volumes.lister.get('', name));
  if (pv === undefined) return {};
  const claims = await claimsFor(state, pv);
  // No provisioners are named: reclaiming an external provisioner's volume is its job.
  const plan = planVolume(pv, claims, ctx.clock.now());
  const written = await applyWrites(
    ctx.client,
    {
      ...(plan.volume === undefined ? {} : { volume: plan.volume }),
      ...(plan.volumeStatus === undefined ? {} : { volumeStatus: plan.volumeStatus }),
    },
    pv,
    undefined,
    state.own,
  );
  const ref = claimRefOf(pv);
  const claim = claims.find((c) => nameOf(c) === ref?.name);
  recordEvents(state.recorder, plan.events, { volume: written.volume ?? pv, claim });
  if (plan.syncClaim !== undefined) state.claimQueue.add(plan.syncClaim);
  if (plan.outcome === 'Released') await deleteReleased(state, written.volume ?? pv);
  return {};
}

/** Reclaim policy Delete of a provisioned volume: delete the object, the finalizer waits. */
async function deleteReleased(state: State, pv: PersistentVolume): Promise<void> {
  if (pv.spec?.persistentVolumeReclaimPolicy !== 'Delete') return;
  if ((annotation(pv, ANN_DYNAMICALLY_PROVISIONED) ?? '') === '') return;
  if (isDeleting(pv)) return;
  try {
    const uid = pv.metadata?.uid;
    await state.ctx.client.delete(
      { ...RESOURCES.persistentvolumes, name: nameOf(pv) },
      uid === undefined ? {} : { preconditions: { uid } },
    );
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}
