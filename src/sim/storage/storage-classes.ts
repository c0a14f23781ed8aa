/**
 * The StorageClasses `fleetyard up` offers, and the bootstrap that creates them:
 *
 * | Class      | Provisioner           | Binding mode         | Reclaim | Expansion |
 * |------------|-----------------------|----------------------|---------|-----------|
 * | `standard` | `hostpath.csi.k8s.io` | WaitForFirstConsumer | Delete  | no        |
 * | `ebs`      | `ebs.csi.aws.com`     | WaitForFirstConsumer | Delete  | yes       |
 *
 * The chosen default carries `storageclass.kubernetes.io/is-default-class: "true"`. A class
 * that exists already is left exactly as it is (a user's class of the same name wins), so the
 * bootstrap only ever creates.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import { isAlreadyExists } from '../../client/api-client.js';
import type { ControllerContext, ControllerDefinition } from '../../controller/context.js';
import {
  ANN_DEFAULT_CLASS,
  STORAGE_CLASSES,
} from '../../controllers/persistentvolume/volume-util.js';
import { EBS_DRIVER, HOSTPATH_DRIVER } from './provisioning.js';

export type DefaultStorageClass = 'standard' | 'ebs' | 'none';

/** The two classes, `defaultClass` annotated as the default. */
export function simulatedStorageClasses(defaultClass: DefaultStorageClass): KubeObject[] {
  const make = (name: string, provisioner: string, expansion: boolean): KubeObject => ({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: {
      name,
      ...(defaultClass === name ? { annotations: { [ANN_DEFAULT_CLASS]: 'true' } } : {}),
    },
    provisioner,
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'WaitForFirstConsumer',
    ...(expansion ? { allowVolumeExpansion: true } : {}),
  });
  return [make('standard', HOSTPATH_DRIVER.name, false), make('ebs', EBS_DRIVER.name, true)];
}

/** Retry pause of a failed create (the API server may still be starting). */
const RETRY_MS = 1_000;

async function createAbsent(ctx: ControllerContext, sc: KubeObject): Promise<void> {
  for (;;) {
    try {
      await ctx.client.create(STORAGE_CLASSES, sc, { signal: ctx.signal });
      ctx.log.info({ storageClass: sc.metadata?.name }, 'Created StorageClass');
      return;
    } catch (err) {
      if (isAlreadyExists(err)) return;
      if (ctx.signal.aborted) return;
      ctx.log.warn({ err, storageClass: sc.metadata?.name }, 'Creating StorageClass failed');
      await ctx.clock.sleep(RETRY_MS, ctx.signal).catch(() => undefined);
      if (ctx.signal.aborted) return;
    }
  }
}

/** Creates the classes that do not exist yet, then returns. */
export function storageClassBootstrap(defaultClass: DefaultStorageClass): ControllerDefinition {
  return {
    name: 'storageclass-bootstrap',
    start: async (ctx) => {
      for (const sc of simulatedStorageClasses(defaultClass)) await createAbsent(ctx, sc);
    },
  };
}
