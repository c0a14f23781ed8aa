/**
 * A StatefulSet pod's stable identity (upstream `stateful_set_utils.go`: `getPodName`,
 * `getParentNameAndOrdinal`, `isMemberOf`, `getPersistentVolumeClaimName`,
 * `getPersistentVolumeClaims`, `identityMatches`, `storageMatches`, `updateIdentity`,
 * `updateStorage`, `initIdentity`, `newStatefulSetPod`, `setPodRevision`; docs/design/statefulset.md §1–§2).
 * Pure: every function returns new objects and never mutates its arguments.
 *
 * @module
 */
import {
  asKind,
  type PersistentVolumeClaim,
  type Pod,
  type PodSpec,
  type PodTemplateSpec,
  type StatefulSet,
  type Volume,
} from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import { deepCopy } from '../../api/object.js';
import { newControllerRef } from '../../controller/controller-ref.js';
import { podFromTemplate } from '../../controller/pod-template.js';
import { REVISION_LABEL, viewOf } from './plan-spec.js';

/** Label carrying the pod's own name, so a Service can select one member. */
export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
/** Label carrying the ordinal as a decimal string (PodIndexLabel, on by default since 1.28). */
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';

export const STATEFULSET_GVK = { group: 'apps', version: 'v1', kind: 'StatefulSet' } as const;

/** Upstream `statefulPodRegex`: a greedy parent, a dash, decimal digits at the end. */
const POD_NAME_PATTERN = /^(.*)-([0-9]+)$/;
/** Ordinals are int32 upstream; a larger number fails `ParseInt(…, 10, 32)`. */
const MAX_INT32 = 2 ** 31 - 1;

/** `<set>-<ordinal>`. */
export function podName(setName: string, ordinal: number): string {
  return `${setName}-${ordinal}`;
}

/**
 * Upstream `getParentNameAndOrdinal`: `{parent:'', ordinal:-1}` when the name does not match;
 * the parent is kept but the ordinal is −1 when the digits overflow int32.
 */
export function parentAndOrdinal(name: string): { parent: string; ordinal: number } {
  const m = POD_NAME_PATTERN.exec(name);
  if (m === null) return { parent: '', ordinal: -1 };
  const n = Number.parseInt(m[2] ?? '', 10);
  return { parent: m[1] ?? '', ordinal: n <= MAX_INT32 ? n : -1 };
}

/** The ordinal of a pod (−1 when its name does not parse). */
export function ordinalOf(pod: KubeObject): number {
  return parentAndOrdinal(pod.metadata?.name ?? '').ordinal;
}

/** Upstream `isMemberOf`: the name's parent part is the set's name. */
export function isMemberOf(set: KubeObject, pod: KubeObject): boolean {
  return parentAndOrdinal(pod.metadata?.name ?? '').parent === (set.metadata?.name ?? '');
}

/**
 * The set's own pod ordinal: the ordinal of a pod named `<set>-<n>`, or −1 for any other name
 * (including `<other>-<n>` and `<set>-<n>-<m>` whose parent is `<set>-<n>`).
 */
export function ordinalInSet(setName: string, name: string): number {
  const { parent, ordinal } = parentAndOrdinal(name);
  return parent === setName ? ordinal : -1;
}

/** `[start, start+replicas-1]` contains the ordinal (upstream `podInOrdinalRange`). */
export function inOrdinalRange(set: StatefulSet, ordinal: number): boolean {
  const v = viewOf(set);
  return ordinal >= v.start && ordinal < v.start + v.replicas;
}

/** `<template>-<set>-<ordinal>` (upstream `getPersistentVolumeClaimName`). */
export function claimName(templateName: string, setName: string, ordinal: number): string {
  return `${templateName}-${setName}-${ordinal}`;
}

/** DNS hostname and subdomain of a member: `<pod>` under `<serviceName>` (immutable on pods). */
export function hostIdentity(
  set: StatefulSet,
  ordinal: number,
): { hostname: string; subdomain: string } {
  const v = viewOf(set);
  return { hostname: podName(v.name, ordinal), subdomain: v.serviceName };
}

/**
 * Upstream `getPersistentVolumeClaims`: one claim per template, in template order, named for the
 * ordinal, in the set's namespace, labelled with the template labels and the selector's
 * matchLabels over them (selector keys win).
 */
export function claimsFor(set: StatefulSet, ordinal: number): PersistentVolumeClaim[] {
  const v = viewOf(set);
  return v.claimTemplates.map((t) => {
    const claim = deepCopy(t);
    const meta = { ...(claim.metadata ?? {}) };
    const templateName = meta.name ?? '';
    meta.name = claimName(templateName, v.name, ordinal);
    meta.namespace = v.namespace;
    meta.labels = { ...(meta.labels ?? {}), ...v.matchLabels };
    return { apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...claim, metadata: meta };
  });
}

function volumesOf(pod: Pod): Volume[] {
  return pod.spec?.volumes ?? [];
}

/** Upstream `identityMatches`: parseable, the set's, the right name, namespace and name label. */
export function identityMatches(set: KubeObject, pod: KubeObject): boolean {
  const name = pod.metadata?.name ?? '';
  const { parent, ordinal } = parentAndOrdinal(name);
  const setName = set.metadata?.name ?? '';
  return (
    ordinal >= 0 &&
    parent === setName &&
    name === podName(setName, ordinal) &&
    (pod.metadata?.namespace ?? '') === (set.metadata?.namespace ?? '') &&
    pod.metadata?.labels?.[POD_NAME_LABEL] === name
  );
}

/** Upstream `storageMatches`: every claim template has a same-named volume on its claim. */
export function storageMatches(set: StatefulSet, pod: Pod): boolean {
  const ordinal = ordinalOf(pod);
  if (ordinal < 0) return false;
  const v = viewOf(set);
  const byName = new Map(volumesOf(pod).map((vol) => [vol.name, vol]));
  return v.claimTemplates.every((t) => {
    const templateName = t.metadata?.name ?? '';
    const pvc = byName.get(templateName)?.persistentVolumeClaim;
    return pvc !== undefined && pvc.claimName === claimName(templateName, v.name, ordinal);
  });
}

/** Upstream `updateIdentity` on a copy: name, namespace, pod-name and pod-index labels. */
export function withIdentity(set: StatefulSet, pod: Pod): Pod {
  const ordinal = ordinalOf(pod);
  const v = viewOf(set);
  const name = podName(v.name, ordinal);
  const labels = { ...(pod.metadata?.labels ?? {}) };
  labels[POD_NAME_LABEL] = name;
  labels[POD_INDEX_LABEL] = String(ordinal);
  return { ...pod, metadata: { ...pod.metadata, name, namespace: v.namespace, labels } };
}

/**
 * Upstream `updateStorage` on a copy: a volume per claim template (template order; upstream's
 * order is Go map order, i.e. unspecified) pointing at the ordinal's claim, then the pod's other
 * volumes unchanged.
 */
export function withStorage(set: StatefulSet, pod: Pod): Pod {
  const v = viewOf(set);
  const ordinal = ordinalOf(pod);
  const names = new Set(v.claimTemplates.map((t) => t.metadata?.name ?? ''));
  const claimVolumes = v.claimTemplates.map((t): Volume => {
    const templateName = t.metadata?.name ?? '';
    return {
      name: templateName,
      persistentVolumeClaim: {
        claimName: claimName(templateName, v.name, ordinal),
        readOnly: false,
      },
    };
  });
  const others = volumesOf(pod).filter((vol) => !names.has(vol.name));
  const volumes = [...claimVolumes, ...others];
  return { ...pod, spec: withSpec(pod, volumes.length > 0 ? { volumes } : {}) };
}

/**
 * `pod`'s spec with `fields` set. A pod built from a template without a spec (which the server
 * never stores for a set) gets the fields and no containers.
 */
function withSpec(pod: Pod, fields: Partial<PodSpec>): PodSpec {
  return pod.spec === undefined ? { containers: [], ...fields } : { ...pod.spec, ...fields };
}

/**
 * Upstream `newStatefulSetPod` + `setPodRevision`: the pod for `ordinal` built from `set`'s
 * template (pass the set with the revision's template applied), with the controllerRef, the
 * identity labels, `controller-revision-hash = revision` (the revision NAME), hostname = pod name,
 * subdomain = serviceName and the claim volumes.
 */
export function newStatefulSetPod(set: StatefulSet, revision: string, ordinal: number): Pod {
  const v = viewOf(set);
  const base = templatePod(set);
  const named: Pod = {
    ...base,
    metadata: { ...base.metadata, name: podName(v.name, ordinal) },
  };
  const identified = withStorage(set, withIdentity(set, named));
  const host = hostIdentity(set, ordinal);
  // Upstream assigns `Subdomain = serviceName` unconditionally; "" is Go's omitted zero value.
  const subdomain = host.subdomain !== '' ? { subdomain: host.subdomain } : {};
  const spec = withSpec(identified, { hostname: host.hostname, ...subdomain });
  const labels = { ...(identified.metadata?.labels ?? {}), [REVISION_LABEL]: revision };
  return { ...identified, metadata: { ...identified.metadata, labels }, spec };
}

/**
 * The template's pod per set object, built (a deep copy of the template) once and frozen: a
 * sync plans a pod for every missing ordinal, and copying the template for each was the
 * controller thread's largest cost at 100 members. Pods built from it share its frozen parts.
 */
const templatePods = new WeakMap<StatefulSet, Pod>();

function templatePod(set: StatefulSet): Pod {
  let pod = templatePods.get(set);
  if (pod === undefined) {
    const built = podFromTemplate(
      viewOf(set).template,
      set,
      newControllerRef(set, STATEFULSET_GVK),
    );
    pod = deepFreeze(asKind(built, 'Pod'));
    templatePods.set(set, pod);
  }
  return pod;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** The set with `spec.template` replaced by a revision's template (upstream `ApplyRevision`). */
export function withTemplate(set: StatefulSet, template: PodTemplateSpec | undefined): StatefulSet {
  if (template === undefined) return set;
  const spec = set.spec === undefined ? { selector: {}, template } : { ...set.spec, template };
  return { ...set, spec };
}
