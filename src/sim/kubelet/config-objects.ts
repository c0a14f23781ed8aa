/**
 * Looks up the ConfigMaps and Secrets a pod references (env, envFrom, volumes; init containers
 * too) in the informer caches, in the shape the planner's `ConfigObjects` wants: name → keys.
 * Also answers the reverse question for the event handlers: does a pod reference this object?
 *
 * @module
 */

import type { KubeObject } from '../../api/object.js';
import type { Lister } from '../../client/shared-informer.js';
import type { ConfigObjects } from './config-refs.js';
import type { Container, KubeletPod } from './kubelet-pod.js';

export interface ConfigRefs {
  configMaps: Set<string>;
  secrets: Set<string>;
}

function addContainerRefs(c: Container, refs: ConfigRefs): void {
  for (const from of c.envFrom ?? []) {
    if (from.configMapRef?.name) refs.configMaps.add(from.configMapRef.name);
    if (from.secretRef?.name) refs.secrets.add(from.secretRef.name);
  }
  for (const env of c.env ?? []) {
    const cm = env.valueFrom?.configMapKeyRef?.name;
    const secret = env.valueFrom?.secretKeyRef?.name;
    if (cm) refs.configMaps.add(cm);
    if (secret) refs.secrets.add(secret);
  }
}

/** Every ConfigMap and Secret name `pod` references, optional or not. */
export function configRefs(pod: KubeletPod): ConfigRefs {
  const refs: ConfigRefs = { configMaps: new Set(), secrets: new Set() };
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
    addContainerRefs(c, refs);
  }
  for (const v of pod.spec.volumes ?? []) {
    if (v.configMap?.name) refs.configMaps.add(v.configMap.name);
    if (v.secret?.secretName) refs.secrets.add(v.secret.secretName);
  }
  return refs;
}

function dataKeys(obj: KubeObject): string[] {
  const keys = (field: string): string[] => {
    const v = obj[field];
    return v && typeof v === 'object' ? Object.keys(v) : [];
  };
  return [...keys('data'), ...keys('binaryData'), ...keys('stringData')];
}

function present(
  names: Set<string>,
  namespace: string,
  lister: Lister<KubeObject>,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const name of names) {
    const obj = lister.get(namespace, name);
    if (obj) out[name] = dataKeys(obj);
  }
  return out;
}

/** The referenced objects that exist in the pod's namespace, with their keys. */
export function configObjectsFor(
  pod: KubeletPod,
  configMaps: Lister<KubeObject>,
  secrets: Lister<KubeObject>,
): ConfigObjects {
  const refs = configRefs(pod);
  const ns = pod.metadata.namespace ?? '';
  return {
    configMaps: present(refs.configMaps, ns, configMaps),
    secrets: present(refs.secrets, ns, secrets),
  };
}
