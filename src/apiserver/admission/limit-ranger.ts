/**
 * The LimitRanger admission plugin (upstream `plugin/pkg/admission/limitranger`), second in
 * upstream's chain after NamespaceLifecycle: on pod create it fills the namespace's
 * LimitRange defaults into containers and init containers that lack them, then checks every
 * LimitRange's `Container` and `Pod` items; on claim create and update it checks the
 * `PersistentVolumeClaim` items. A violation is a 403 naming the object, e.g.
 * `pods "web" is forbidden: maximum cpu usage per Container is 1, but limit is 2`.
 *
 * The object store runs admission after the kind's defaults and validation, where upstream
 * mutates before them; so a pod the defaults changed is validated again here (a default
 * request above the container's own limit is upstream's 422) and its QoS class, computed at
 * creation, is computed again. Pod updates are not looked at (containers are immutable), nor
 * objects being deleted, as upstream.
 *
 * @module
 */
import { forbidden, invalid } from '../../api/errors.js';
import { podQOSClass } from '../../api/kinds/qos.js';
import { isJsonObject, type KubeObject } from '../../api/object.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { Backend } from '../../storage/backend.js';
import { listPrefix } from '../store/keys.js';
import { parseStoredObject } from '../store/object-json.js';
import type { Admission } from '../store/object-store.js';
import {
  applyContainerDefaults,
  type LimitRangeItem,
  limitRangeItems,
  validateClaimLimits,
  validatePodLimits,
} from './limit-range-rules.js';

const LIMIT_RANGES = { group: '', plural: 'limitranges', namespaced: true } as const;

/** The namespace's LimitRanges by name, newest writes included (items with their defaults). */
export function namespaceLimitRanges(backend: Backend, namespace: string): LimitRangeItem[][] {
  const out: Array<{ name: string; items: LimitRangeItem[] }> = [];
  for (const kv of backend.list(listPrefix(LIMIT_RANGES, namespace)).items) {
    const latest = backend.getLatest(kv.key);
    if (latest === undefined) continue;
    const lr = parseStoredObject(latest.value);
    out.push({ name: lr.metadata?.name ?? '', items: limitRangeItems(lr) });
  }
  out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out.map((lr) => lr.items);
}

function isKind(def: ResourceDefinition, plural: string): boolean {
  return def.group === '' && def.plural === plural;
}

/** Upstream `admission.NewForbidden`: named by the object's name, else its generateName. */
export function admissionSubject(obj: KubeObject, fallback?: KubeObject): string {
  const meta = obj.metadata ?? {};
  return meta.name || fallback?.metadata?.name || meta.generateName || 'Unknown';
}

function refuse(def: ResourceDefinition, name: string, message: string): never {
  throw forbidden({ group: def.group, resource: def.plural }, name, message);
}

/** Defaults, then the checks, against each LimitRange in turn; the first refusal wins. */
function admitPod(def: ResourceDefinition, pod: KubeObject, ranges: readonly LimitRangeItem[][]) {
  let changed = false;
  for (const items of ranges) changed = applyContainerDefaults(pod, items) || changed;
  if (changed) revalidate(def, pod);
  for (const items of ranges) {
    const why = validatePodLimits(pod, items);
    if (why !== undefined) refuse(def, admissionSubject(pod), why);
  }
}

/** What the kind's validation says of the defaulted pod, and its QoS class recomputed. */
function revalidate(def: ResourceDefinition, pod: KubeObject): void {
  const errors = def.strategy.validate?.(pod) ?? [];
  if (errors.length > 0)
    throw invalid({ group: def.group, kind: def.kind }, pod.metadata?.name ?? '', errors);
  // The pod passed validation: its spec and status (where present) are objects.
  const { spec, status } = pod;
  if (isJsonObject(status) && isJsonObject(spec)) status.qosClass = podQOSClass(spec);
}

function admitClaim(
  def: ResourceDefinition,
  pvc: KubeObject,
  ranges: readonly LimitRangeItem[][],
  stored?: KubeObject,
) {
  for (const items of ranges) {
    const why = validateClaimLimits(pvc, items);
    if (why !== undefined) refuse(def, admissionSubject(pvc, stored), why);
  }
}

/** The plugin as object-store hooks: creates of pods and claims, updates of claims. */
export function limitRangerAdmission(backend: Backend): Admission {
  return {
    admitCreate(def, namespace, obj) {
      if (isKind(def, 'pods')) admitPod(def, obj, namespaceLimitRanges(backend, namespace));
      else if (isKind(def, 'persistentvolumeclaims')) {
        admitClaim(def, obj, namespaceLimitRanges(backend, namespace));
      }
    },
    preserve(def, next, current) {
      if (!isKind(def, 'persistentvolumeclaims')) return;
      if (current.metadata?.deletionTimestamp) return;
      const namespace = current.metadata?.namespace ?? '';
      admitClaim(def, next, namespaceLimitRanges(backend, namespace), current);
    },
  };
}
