/**
 * The scheduler's {@link VolumeBindingHook} over shared informers: PersistentVolumeClaims,
 * PersistentVolumes, StorageClasses, and the pods informer (indexed by claim, for
 * ReadWriteOncePod users). The decisions are `volume-binding-decisions.ts`; this module holds
 * the caches, wakes unschedulable pods on storage events, and runs PreBind's writes and wait.
 *
 * PreBind, as upstream's `BindPodVolumes`: it pre-binds the matching PVs chosen for
 * WaitForFirstConsumer claims (sets the PV's `claimRef`, `pv.kubernetes.io/bound-by-controller`)
 * and annotates the others `volume.kubernetes.io/selected-node: <node>` for the provisioner,
 * then waits — on claim and volume events, bounded by `bindTimeoutSeconds` (600 s) on the
 * injected clock, and by the stop signal — until every claim is fully bound. A provisioner that
 * gives up removes the annotation; the wait then fails (`binding volumes: provisioning failed for
 * PVC "<name>"`), so the pod goes back to the queue and is placed afresh.
 *
 * ```ts
 * createSchedulerController({ volumeBinding: createVolumeBinding })
 * ```
 *
 * @module
 */
import type { PersistentVolume } from '../../api/model/index.js';
import { type ControllerContext, RESOURCES } from '../../controller/context.js';
import { kindInformer } from '../../controller/kind-informer.js';
import { podClaimIndexers, podsUsingClaim } from '../../controller/pod-indexes.js';
import type { VolumeBindingHook } from '../../scheduler/volume-binding-hook.js';
import {
  type CsiDriverTopology,
  filterVolumes,
  findPodVolumes,
  type PodVolumePlan,
  podClaimNames,
  podClaims,
  preFilterVolumes,
  type StorageSnapshot,
} from './volume-binding-decisions.js';
import { checkBindings } from './volume-binding-progress.js';
import {
  ANN_BOUND_BY_CONTROLLER,
  ANN_SELECTED_NODE,
  nameOf,
  referenceTo,
  STORAGE_CLASSES,
} from './volume-util.js';

/** Upstream VolumeBindingArgs `bindTimeoutSeconds` default. */
export const BIND_TIMEOUT_MS = 600_000;

const TERMINAL = new Set(['Succeeded', 'Failed']);

export interface VolumeBindingOptions {
  /** How long PreBind waits for the claims to be bound. @default {@link BIND_TIMEOUT_MS} */
  readonly bindTimeoutMs?: number;
  /** The CSI drivers the cluster has, by provisioner name (none: nothing is provisionable). */
  readonly csiDrivers?: ReadonlyMap<string, CsiDriverTopology>;
}

/** Builds the hook; the scheduler calls it once with its context and its `requeue`. */
export function createVolumeBinding(
  ctx: ControllerContext,
  requeue: () => void,
  options: VolumeBindingOptions = {},
): VolumeBindingHook {
  const claims = kindInformer(
    ctx.informers.informer(RESOURCES.persistentvolumeclaims),
    'PersistentVolumeClaim',
  );
  const volumes = kindInformer(
    ctx.informers.informer(RESOURCES.persistentvolumes),
    'PersistentVolume',
  );
  const classes = kindInformer(ctx.informers.informer(STORAGE_CLASSES), 'StorageClass');
  const pods = kindInformer(
    ctx.informers.informer(RESOURCES.pods, { indexers: podClaimIndexers }),
    'Pod',
  );
  const nodes = kindInformer(ctx.informers.informer(RESOURCES.nodes), 'Node');
  const timeoutMs = options.bindTimeoutMs ?? BIND_TIMEOUT_MS;
  const waiters = new Set<() => void>();
  const changed = (): void => {
    for (const wake of [...waiters]) wake();
  };
  // Any claim, volume or class change may make an unschedulable pod fit (upstream registers
  // these events with queueing hints; here every one wakes the unschedulable pods).
  for (const inf of [claims.informer, volumes.informer]) {
    inf.addEventHandler({
      onAdd: (_o, initial) => {
        if (initial) return;
        changed();
        requeue();
      },
      onUpdate: () => {
        changed();
        requeue();
      },
      onDelete: changed,
    });
  }
  classes.informer.addEventHandler({
    onAdd: (_o, initial) => !initial && requeue(),
    onUpdate: requeue,
  });
  // The scheduler waits for these before its first attempt (`informers` below).
  const synced = [claims, volumes, classes, pods, nodes].map((i) => i.informer);

  const snap: StorageSnapshot = {
    claim: (ns, name) => claims.lister.get(ns, name),
    volume: (name) => volumes.lister.get('', name),
    volumes: () => volumes.lister.list(),
    storageClass: (name) => classes.lister.get('', name),
    csiDriver: (provisioner) => options.csiDrivers?.get(provisioner),
    claimUsers: (ns, name) =>
      podsUsingClaim(pods.lister, `${ns}/${name}`).filter(
        (p) => (p.spec?.nodeName ?? '') !== '' && !TERMINAL.has(p.status?.phase ?? ''),
      ),
  };

  /** Resolves on the next claim/volume event, after `ms`, or when `signal` aborts. */
  const nextChange = (ms: number, signal: AbortSignal): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        waiters.delete(done);
        cancel();
        signal.removeEventListener('abort', done);
        resolve();
      };
      waiters.add(done);
      const cancel = ctx.clock.setTimer(ms, done);
      signal.addEventListener('abort', done, { once: true });
    });

  /** Waits for the next storage event; throws past the deadline or once stopped. */
  const waitOrFail = async (deadline: number, signal: AbortSignal): Promise<void> => {
    const left = deadline - ctx.clock.now();
    if (left <= 0) throw new Error('binding volumes: context deadline exceeded');
    if (signal.aborted) throw new Error('binding volumes: context canceled');
    await nextChange(left, signal);
  };

  return {
    informers: synced,
    preFilter(pod) {
      if (podClaimNames(pod).length === 0) return null;
      return preFilterVolumes(pod, snap);
    },
    filter: (pod, node, podsOnNode) => filterVolumes(pod, node, podsOnNode, snap),
    async preBind(pod, nodeName, signal) {
      if (podClaimNames(pod).length === 0) return;
      const node = nodes.lister.get('', nodeName);
      if (node === undefined) throw new Error(`binding volumes: node "${nodeName}" not found`);
      const found = podClaims(pod, snap);
      if ('code' in found) throw new Error(`binding volumes: ${found.reasons.join(', ')}`);
      if (found.delayed.length === 0) return;
      const planned = findPodVolumes(found, node, snap);
      if ('reasons' in planned) throw new Error(`binding volumes: ${planned.reasons.join(', ')}`);
      const written = await writePlan(ctx, planned.plan, nodeName, signal);
      const deadline = ctx.clock.now() + timeoutMs;
      for (;;) {
        const progress = checkBindings(planned.plan, node, snap, written);
        if ('error' in progress) throw new Error(`binding volumes: ${progress.error}`);
        if (progress.done) return;
        await waitOrFail(deadline, signal);
      }
    },
  };
}

/**
 * Upstream `bindAPIUpdate`: PVs first (claimRef), then the claims to provision (selected-node).
 * Returns the written resourceVersions by `pv/<name>` and `pvc/<ns>/<name>`.
 */
async function writePlan(
  ctx: ControllerContext,
  plan: PodVolumePlan,
  nodeName: string,
  signal: AbortSignal,
): Promise<Map<string, string>> {
  const written = new Map<string, string>();
  for (const { claim, pv } of plan.bindings) {
    const next: PersistentVolume = {
      ...pv,
      metadata: {
        ...pv.metadata,
        annotations: { ...(pv.metadata?.annotations ?? {}), [ANN_BOUND_BY_CONTROLLER]: 'yes' },
      },
      spec: { ...pv.spec, claimRef: referenceTo(claim) },
    };
    const ref = { ...RESOURCES.persistentvolumes, name: nameOf(pv) };
    const out = await ctx.client.update(ref, next, { signal });
    written.set(`pv/${nameOf(pv)}`, out.metadata?.resourceVersion ?? '');
  }
  for (const claim of plan.provisions) {
    const ns = claim.metadata?.namespace ?? '';
    if (claim.metadata?.annotations?.[ANN_SELECTED_NODE] === nodeName) continue;
    const ref = { ...RESOURCES.persistentvolumeclaims, namespace: ns, name: nameOf(claim) };
    const patch = { metadata: { annotations: { [ANN_SELECTED_NODE]: nodeName } } };
    const out = await ctx.client.patch(ref, patch, 'merge', { signal });
    written.set(`pvc/${ns}/${nameOf(claim)}`, out.metadata?.resourceVersion ?? '');
  }
  return written;
}
