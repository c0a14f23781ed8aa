/**
 * Converging a live child to its rendered form, touching only what the operator owns.
 *
 * "Owned" is per kind ({@link operatorOwnedFields}) plus the operator's labels, annotations
 * and controller ownerReference. A field counts as converged when every value the operator
 * renders is present in the live object ({@link coversDesired}): the API server adds
 * defaults (`restartPolicy`, `dnsPolicy`, probe schemes…) and other tools add labels and
 * annotations, and none of that is drift. Arrays must match element for element, so an extra
 * container, env entry, port or policy rule is drift and is removed.
 *
 * When something differs, the update is the live object with each differing owned field
 * merged from the rendered one: objects key by key (foreign keys kept), arrays and scalars
 * replaced. The live `resourceVersion` stays in the update, so the write is a compare-and-swap.
 *
 * Immutable fields (a workload's selector, serviceName, claim templates…) are never written;
 * {@link immutableFieldDrift} reports them so the reconciler can refuse instead.
 *
 * @module
 */

import type { KubeObject, OwnerReference } from '../../api/object.js';
import { deepCopy, deepEqual, isJsonObject } from '../../api/object.js';

export type FieldPath = readonly string[];

/**
 * Label selectors are compared exactly: an extra key would silently narrow what they select,
 * and the API server adds nothing to them.
 */
const EXACT_FIELDS: ReadonlySet<string> = new Set(['spec.selector']);

/** Per kind, the spec fields the operator converges. Metadata is handled for every kind. */
export const operatorOwnedFields: Readonly<Record<string, readonly FieldPath[]>> = {
  StatefulSet: [
    ['spec', 'replicas'],
    ['spec', 'template'],
    ['spec', 'updateStrategy'],
    ['spec', 'persistentVolumeClaimRetentionPolicy'],
  ],
  Deployment: [
    ['spec', 'replicas'],
    ['spec', 'template'],
    ['spec', 'strategy'],
  ],
  // clusterIP and type are left alone: the first is immutable, the second never drifts usefully.
  Service: [
    ['spec', 'selector'],
    ['spec', 'ports'],
    ['spec', 'publishNotReadyAddresses'],
  ],
  NetworkPolicy: [['spec']],
  PodDisruptionBudget: [
    ['spec', 'maxUnavailable'],
    ['spec', 'selector'],
  ],
  ServiceAccount: [['automountServiceAccountToken']],
};

/** Per kind, fields the API server refuses to change; drift there needs a human or a recreate. */
export const immutableFields: Readonly<Record<string, readonly FieldPath[]>> = {
  StatefulSet: [
    ['spec', 'selector'],
    ['spec', 'serviceName'],
    ['spec', 'podManagementPolicy'],
    ['spec', 'volumeClaimTemplates'],
  ],
  Deployment: [['spec', 'selector']],
  Service: [['spec', 'clusterIP']],
};

export interface ConvergeOptions {
  /**
   * Leave `spec.replicas` as it is live: the scaling planner moves it one step at a time and
   * writes it itself, so converging the template must never undo a step.
   */
  readonly keepReplicas?: boolean;
}

/** Whether every value set in `desired` is present and equal in `live`. */
export function coversDesired(live: unknown, desired: unknown): boolean {
  if (desired === undefined) return true;
  if (Array.isArray(desired)) {
    return (
      Array.isArray(live) &&
      live.length === desired.length &&
      desired.every((d, i) => coversDesired(live[i], d))
    );
  }
  if (isJsonObject(desired)) {
    if (!isJsonObject(live)) return false;
    return Object.entries(desired).every(([k, d]) => coversDesired(live[k], d));
  }
  return live === desired;
}

/** `desired` merged onto `live`: objects key by key, everything else replaced. */
function mergeOnto(live: unknown, desired: unknown): unknown {
  if (!isJsonObject(desired) || !isJsonObject(live)) return deepCopy(desired);
  const out: Record<string, unknown> = { ...live };
  for (const [k, d] of Object.entries(desired)) {
    if (d !== undefined) out[k] = mergeOnto(live[k], d);
  }
  return out;
}

function getPath(obj: unknown, path: FieldPath): unknown {
  let cur = obj;
  for (const key of path) {
    if (!isJsonObject(cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}

function setPath(obj: Record<string, unknown>, path: FieldPath, value: unknown): void {
  let cur = obj;
  for (const key of path.slice(0, -1)) {
    const next = cur[key];
    if (isJsonObject(next)) {
      cur = next;
    } else {
      const created: Record<string, unknown> = {};
      cur[key] = created;
      cur = created;
    }
  }
  const last = path[path.length - 1];
  if (last !== undefined) cur[last] = value;
}

/** Live ownerReferences with the desired controller reference in place of any to the same UID. */
function convergedOwnerRefs(
  live: readonly OwnerReference[],
  desired: readonly OwnerReference[],
): OwnerReference[] | undefined {
  let changed = false;
  const out = [...live];
  for (const ref of desired) {
    const i = out.findIndex((r) => r.uid === ref.uid);
    if (i >= 0 && coversDesired(out[i], ref)) continue;
    changed = true;
    if (i >= 0) out[i] = { ...ref };
    else out.push({ ...ref });
  }
  return changed ? out : undefined;
}

function ownedPaths(kind: string | undefined, options: ConvergeOptions): FieldPath[] {
  const paths = operatorOwnedFields[kind ?? ''] ?? [];
  return paths.filter((p) => !(options.keepReplicas && p.join('.') === 'spec.replicas'));
}

/**
 * The update that makes `current` carry `desired`'s operator-owned fields, or undefined when
 * it already does. The caller has checked that `current` belongs to the fleet (its labels).
 */
export function convergeObject(
  current: KubeObject,
  desired: KubeObject,
  options: ConvergeOptions = {},
): KubeObject | undefined {
  const next = deepCopy(current);
  let changed = false;
  next.metadata ??= {};
  const meta = next.metadata;
  for (const key of ['labels', 'annotations'] as const) {
    const want = desired.metadata?.[key];
    if (want && !coversDesired(meta[key], want)) {
      meta[key] = { ...(meta[key] ?? {}), ...want };
      changed = true;
    }
  }
  const refs = convergedOwnerRefs(
    meta.ownerReferences ?? [],
    desired.metadata?.ownerReferences ?? [],
  );
  if (refs) {
    meta.ownerReferences = refs;
    changed = true;
  }
  for (const path of ownedPaths(desired.kind, options)) {
    const want = getPath(desired, path);
    const have = getPath(current, path);
    const exact = EXACT_FIELDS.has(path.join('.'));
    if (want === undefined || (exact ? deepEqual(have, want) : coversDesired(have, want))) continue;
    setPath(next, path, exact ? deepCopy(want) : mergeOnto(have, want));
    changed = true;
  }
  return changed ? next : undefined;
}

/** Immutable fields whose live value does not carry the rendered one, as dotted paths. */
export function immutableFieldDrift(current: KubeObject, desired: KubeObject): string[] {
  const paths = immutableFields[desired.kind ?? ''] ?? [];
  return paths
    .filter((p) => !coversDesired(getPath(current, p), getPath(desired, p)))
    .map((p) => p.join('.'));
}
