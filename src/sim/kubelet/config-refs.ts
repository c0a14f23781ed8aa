/**
 * Which referenced ConfigMaps and Secrets block a container from starting. Env (`valueFrom`,
 * `envFrom`) problems are upstream `CreateContainerConfigError`s with the kubelet's messages
 * (`kubelet_pods.go: makeEnvironmentVariables`); a missing volume source is not — upstream the
 * pod stays `ContainerCreating` with a `FailedMount` event — so it is reported separately.
 * References marked `optional: true` never block.
 *
 * @module
 */

import type { Container, KubeletPod } from './kubelet-pod.js';

/** What exists: object name → its data keys (`data` ∪ `binaryData` for ConfigMaps). */
export interface ConfigObjects {
  configMaps?: Readonly<Record<string, readonly string[]>>;
  secrets?: Readonly<Record<string, readonly string[]>>;
}

type RefKind = 'ConfigMap' | 'Secret';

function lookup(
  objects: ConfigObjects,
  kind: RefKind,
  name: string,
): readonly string[] | undefined {
  return (kind === 'ConfigMap' ? objects.configMaps : objects.secrets)?.[name];
}

function missingObjectMessage(kind: RefKind, name: string): string {
  return `${kind === 'ConfigMap' ? 'configmap' : 'secret'} "${name}" not found`;
}

/**
 * The kubelet's message for the first env reference of `c` that cannot be resolved, or
 * undefined. Upstream checks `envFrom` before `env`, in order.
 */
export function containerConfigError(
  pod: KubeletPod,
  c: Container,
  objects: ConfigObjects,
): string | undefined {
  return envFromError(c, objects) ?? envError(pod, c, objects);
}

function envFromError(c: Container, objects: ConfigObjects): string | undefined {
  for (const from of c.envFrom ?? []) {
    const ref = from.configMapRef ?? from.secretRef;
    const kind: RefKind = from.configMapRef ? 'ConfigMap' : 'Secret';
    if (!ref?.name || ref.optional) continue;
    if (!lookup(objects, kind, ref.name)) return missingObjectMessage(kind, ref.name);
  }
  return undefined;
}

function envError(pod: KubeletPod, c: Container, objects: ConfigObjects): string | undefined {
  for (const env of c.env ?? []) {
    const src = env.valueFrom;
    const ref = src?.configMapKeyRef ?? src?.secretKeyRef;
    const kind: RefKind = src?.configMapKeyRef ? 'ConfigMap' : 'Secret';
    if (!ref?.name || ref.optional) continue;
    const keys = lookup(objects, kind, ref.name);
    if (!keys) return missingObjectMessage(kind, ref.name);
    if (ref.key !== undefined && !keys.includes(ref.key)) {
      return `couldn't find key ${ref.key} in ${kind} ${pod.metadata.namespace ?? ''}/${ref.name}`;
    }
  }
  return undefined;
}

/** The upstream FailedMount text for the first volume whose ConfigMap/Secret is missing, or undefined. */
export function missingVolumeSource(pod: KubeletPod, objects: ConfigObjects): string | undefined {
  for (const v of pod.spec.volumes ?? []) {
    const cm = v.configMap;
    if (cm?.name && !cm.optional && !lookup(objects, 'ConfigMap', cm.name)) {
      return `MountVolume.SetUp failed for volume "${v.name}" : configmap "${cm.name}" not found`;
    }
    const s = v.secret;
    if (s?.secretName && !s.optional && !lookup(objects, 'Secret', s.secretName)) {
      return `MountVolume.SetUp failed for volume "${v.name}" : secret "${s.secretName}" not found`;
    }
  }
  return undefined;
}
