/**
 * The PV protection controller (upstream `pkg/controller/volume/pvprotection`): every live
 * PersistentVolume carries `kubernetes.io/pv-protection` (added when missing: admission may
 * have added it at create, or not), and a deleting one loses it only once it is no longer
 * Bound, so a volume in use outlives its delete until its claim lets go of it.
 *
 * @module
 */
import type { PersistentVolume } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import {
  type ControllerContext,
  type ControllerDefinition,
  RESOURCES,
} from '../../controller/context.js';
import { type ReconcileResult, runController } from '../../controller/controller.js';
import { kindInformer } from '../../controller/kind-informer.js';
import { WorkQueue } from '../../controller/workqueue.js';
import { syncProtection } from './finalizers.js';

export const PV_PROTECTION_CONTROLLER_NAME = 'pv-protection-controller';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

/** Upstream `isBeingUsed`: a Bound volume is in use. */
export function volumeInUse(pv: PersistentVolume): boolean {
  return pv.status?.phase === 'Bound';
}

/** The PV protection controller, for the controller manager. */
export function pvProtectionController(): ControllerDefinition {
  return { name: PV_PROTECTION_CONTROLLER_NAME, start: run };
}

async function run(ctx: ControllerContext): Promise<void> {
  const volumes = kindInformer(
    ctx.informers.informer(RESOURCES.persistentvolumes),
    'PersistentVolume',
  );
  const queue = new WorkQueue<string>({
    clock: ctx.clock,
    name: 'pvprotection',
    metrics: ctx.metrics.queue,
  });
  const enqueue = (pv: KubeObject) => queue.add(pv.metadata?.name ?? '');
  volumes.informer.addEventHandler({ onAdd: enqueue, onUpdate: (_, cur) => enqueue(cur) });
  if (!(await ctx.informers.waitForSync([volumes.informer], ctx.signal))) return;
  const sync = async (name: string): Promise<ReconcileResult> => {
    const pv = volumes.lister.get('', name);
    if (pv === undefined) return {};
    const ref = { ...RESOURCES.persistentvolumes, name };
    await syncProtection(ctx.client, ref, pv, PV_PROTECTION_FINALIZER, () => !volumeInUse(pv));
    return {};
  };
  await runController({
    name: PV_PROTECTION_CONTROLLER_NAME,
    queue,
    reconcile: sync,
    clock: ctx.clock,
    log: ctx.log,
    metrics: ctx.metrics.controller,
    signal: ctx.signal,
  });
}
