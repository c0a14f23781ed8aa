/**
 * The reverse lookup from a ConfigMap or Secret to the pods that may still read it, so a
 * ConfigMap/Secret event costs the pods that reference it rather than every pod in its
 * namespace (with 1,000 pods in `default`, the namespace scan cut ConfigMap creates there
 * from ~2,850/s to ~1,000/s).
 *
 * The pods informer gets an index from a pod to the objects it references
 * (`configmap/<ns>/<name>`, `secret/<ns>/<name>`, from {@link configRefs}). Of those pods only
 * the ones whose next plan can depend on the object are queued: the lifecycle reads config
 * objects only for containers that never started (`stages.ts`: the CreateContainerConfigError
 * and mounting-volumes stages come after running/exited), never while terminating or terminal.
 *
 * @module
 */

import type { KubeObject } from '../../api/object.js';
import type { Lister } from '../../client/shared-informer.js';
import type { IndexFunc } from '../../client/store.js';
import { configRefs } from './config-objects.js';
import { isKubeletPod, type KubeletPod } from './kubelet-pod.js';
import { lastExit } from './pod-status.js';

/** The pods informer index: pods by the ConfigMaps and Secrets they reference. */
export const POD_CONFIG_INDEX = 'kubelet/config-refs';

export type ConfigKind = 'configmap' | 'secret';

/** The index value of one referenced object. */
export function configIndexKey(kind: ConfigKind, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

/** Every ConfigMap and Secret a pod references, optional or not, as index values. */
export const podConfigIndexFunc: IndexFunc<KubeObject> = (obj) => {
  if (!isKubeletPod(obj)) return [];
  const ns = obj.metadata.namespace ?? '';
  const refs = configRefs(obj);
  return [
    ...[...refs.configMaps].map((n) => configIndexKey('configmap', ns, n)),
    ...[...refs.secrets].map((n) => configIndexKey('secret', ns, n)),
  ];
};

const TERMINAL = new Set(['Succeeded', 'Failed']);

/**
 * Whether the next plan of `pod` can depend on its ConfigMaps and Secrets: it is live, not
 * being deleted, and some container (init or regular) has never started (no status yet, or
 * waiting without a previous exit). Once every container has run, config is never read again,
 * as upstream, where env and volumes are resolved when a container is created.
 */
export function readsConfig(pod: KubeletPod): boolean {
  if (pod.metadata.deletionTimestamp || TERMINAL.has(pod.status?.phase ?? '')) return false;
  const statuses = [
    ...(pod.status?.initContainerStatuses ?? []),
    ...(pod.status?.containerStatuses ?? []),
  ];
  return [...(pod.spec.initContainers ?? []), ...pod.spec.containers].some((c) => {
    const cs = statuses.find((s) => s.name === c.name);
    return cs === undefined || (cs.state?.running === undefined && lastExit(cs) === undefined);
  });
}

/**
 * The pods to look at again after `obj` (a ConfigMap or Secret) was added or changed: those
 * referencing it, bound to one of our nodes (`owns`), and still reading config.
 */
export function podsReadingConfig(
  pods: Lister<KubeObject>,
  kind: ConfigKind,
  obj: KubeObject,
  owns: (pod: KubeObject) => boolean,
): KubeObject[] {
  const key = configIndexKey(kind, obj.metadata?.namespace ?? '', obj.metadata?.name ?? '');
  return pods
    .byIndex(POD_CONFIG_INDEX, key)
    .filter((p) => owns(p) && isKubeletPod(p) && readsConfig(p));
}
