/**
 * What selectors look at: an object's labels and its selectable fields, computed once per
 * stored version and cached against it (the KeyValue objects are immutable and shared by the
 * state map, lists and every watcher, so one parse serves all of them). A version served
 * from another's storage selects on its own form of the object (events.k8s.io's
 * `regarding.name` is core's `involvedObject.name`), cached per served definition.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { KeyValue } from '../../storage/backend.js';
import { decodeServed } from './conversion.js';
import { parseStoredObject } from './object-json.js';

export interface Attributes {
  readonly labels: Readonly<Record<string, string>>;
  readonly fields: Readonly<Record<string, string>>;
}

const cache = new WeakMap<KeyValue, Attributes>();
const convertedCache = new WeakMap<ResourceDefinition, WeakMap<KeyValue, Attributes>>();

export function attributesOf(def: ResourceDefinition, kv: KeyValue): Attributes {
  if (def.storage !== undefined) return convertedAttributesOf(def, kv);
  let a = cache.get(kv);
  if (a === undefined) {
    a = objectAttributes(def, parseStoredObject(kv.value));
    cache.set(kv, a);
  }
  return a;
}

function convertedAttributesOf(def: ResourceDefinition, kv: KeyValue): Attributes {
  let byKv = convertedCache.get(def);
  if (byKv === undefined) {
    byKv = new WeakMap();
    convertedCache.set(def, byKv);
  }
  let a = byKv.get(kv);
  if (a === undefined) {
    a = objectAttributes(def, decodeServed(def, kv.value));
    byKv.set(kv, a);
  }
  return a;
}

export function objectAttributes(def: ResourceDefinition, obj: KubeObject): Attributes {
  const meta = obj.metadata ?? {};
  const fields: Record<string, string> = {
    'metadata.name': meta.name ?? '',
    ...(def.namespaced ? { 'metadata.namespace': meta.namespace ?? '' } : {}),
    ...(def.strategy.selectableFields?.(obj) ?? {}),
  };
  return { labels: meta.labels ?? {}, fields };
}

/** Field names a field selector may use for this kind. */
export function selectableFieldNames(def: ResourceDefinition): string[] {
  const names = ['metadata.name', 'metadata.namespace'];
  for (const k of Object.keys(def.strategy.selectableFields?.({}) ?? {})) {
    if (!names.includes(k)) names.push(k);
  }
  return names;
}
