/**
 * Converting an object between two served versions of one resource, for a webhook that matched
 * through `matchPolicy: Equivalent` (upstream `ConvertVersionedAttributes`): through the storage
 * version, with the definitions' {@link SharedStorage} functions (HPAs autoscaling/v1 ⇄ v2,
 * events.k8s.io/v1 ⇄ v1 Events). Only the main resource and `/status` carry the resource's own
 * kind; other subresources' objects (a Scale) are sent as they are.
 *
 * @module
 */
import type { KubeObject } from '../../../api/object.js';
import type { ResourceDefinition } from '../../../api/resource.js';
import { definitionOf } from './matching.js';
import type { GroupVersionResource } from './types.js';

function sameResource(a: GroupVersionResource, b: GroupVersionResource): boolean {
  return a.group === b.group && a.version === b.version && a.resource === b.resource;
}

/** `obj` (served as `from`) as `to` serves it; `obj` itself when no conversion applies. */
export function convertObject(
  resources: readonly ResourceDefinition[],
  from: GroupVersionResource,
  to: GroupVersionResource,
  subresource: string,
  obj: KubeObject,
): KubeObject {
  if (sameResource(from, to) || (subresource !== '' && subresource !== 'status')) return obj;
  const fromDef = definitionOf(resources, from);
  const toDef = definitionOf(resources, to);
  if (fromDef === undefined || toDef === undefined) return obj;
  const stored = fromDef.storage ? fromDef.storage.toStorage(obj) : obj;
  return toDef.storage ? toDef.storage.fromStorage(stored) : stored;
}

/** Upstream applies the kind's defaults to a patched object (`GetObjectDefaulter().Default`). */
export function applyDefaults(
  resources: readonly ResourceDefinition[],
  r: GroupVersionResource,
  subresource: string,
  obj: KubeObject,
): void {
  if (subresource !== '' && subresource !== 'status') return;
  definitionOf(resources, r)?.strategy.defaults?.(obj);
}
