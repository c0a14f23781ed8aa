/**
 * One storage, several served versions (upstream: a resource has one storage version and
 * every served version converts to and from it). A built-in definition with
 * `storage` (src/api/resource.ts) keeps its objects under the storage version's keys and in
 * its form; this module is the boundary: what is written is converted to the storage
 * version, what is read (get, list, watch events, write responses, field selectors) is
 * converted to the version the request came through.
 *
 * Custom resources with several versions and `conversion.strategy: None` are the other case:
 * objects are stored in whichever version wrote them and each served version answers with
 * its own `apiVersion` (upstream's "None" converter changes nothing else).
 *
 * Definitions without either are served as stored, without a parse.
 *
 * @module
 */
import { stringifyJson } from '../../api/int64-json.js';
import type { KubeObject } from '../../api/object.js';
import { apiVersionOf, type ResourceDefinition } from '../../api/resource.js';
import type { KeyValue } from '../../storage/backend.js';
import { metaOf, specChanged } from './metadata.js';
import { decodeObjectJson, parseStoredObject } from './object-json.js';

/** Stored JSON starts `{"kind":…,"apiVersion":…`: a custom resource's version is within the first bytes. */
const HEAD_BYTES = 320;

/** JSON with `kind`, `apiVersion` and `metadata` first, as upstream (and the store) serialise. */
export function encodeObject(obj: KubeObject): string {
  const { kind, apiVersion, metadata, ...rest } = obj;
  return stringifyJson({ kind, apiVersion, metadata, ...rest });
}

/** Whether `def`'s stored JSON needs more than passing through to be served. */
export function convertsStored(def: ResourceDefinition): boolean {
  return def.storage !== undefined || def.customResource !== undefined;
}

/** The storage version's `apiVersion` of `def`'s objects. */
export function storageApiVersion(def: ResourceDefinition): string {
  return def.storage === undefined ? apiVersionOf(def) : apiVersionOf(def.storage);
}

/** A served object (already `def`'s kind and version) in the storage version's form. */
export function toStorage(def: ResourceDefinition, obj: KubeObject): KubeObject {
  if (def.storage === undefined) return obj;
  const stored = def.storage.toStorage(obj);
  stored.kind = def.kind;
  stored.apiVersion = storageApiVersion(def);
  return stored;
}

/** A stored object in `def`'s served form. */
export function fromStorage(def: ResourceDefinition, stored: KubeObject): KubeObject {
  if (def.storage === undefined) return stored;
  const served = def.storage.fromStorage(stored);
  served.kind = def.kind;
  served.apiVersion = apiVersionOf(def);
  return served;
}

/**
 * Stored JSON as `def` serves it. Idempotent: JSON already in the served version (it starts
 * with the served kind and apiVersion, as the store writes them) passes through.
 */
export function servedJson(def: ResourceDefinition, json: string): string {
  const apiVersion = apiVersionOf(def);
  if (def.customResource !== undefined) {
    if (json.slice(0, HEAD_BYTES).includes(`"apiVersion":${JSON.stringify(apiVersion)}`)) {
      return json;
    }
    const { kind, apiVersion: _stored, metadata, ...rest } = parseStoredObject(json);
    return JSON.stringify({ kind, apiVersion, metadata, ...rest });
  }
  if (def.storage === undefined) return json;
  if (
    json.startsWith(
      `{"kind":${JSON.stringify(def.kind)},"apiVersion":${JSON.stringify(apiVersion)}`,
    )
  ) {
    return json;
  }
  return encodeObject(fromStorage(def, decodeObjectJson(def, json)));
}

/** The served JSON of one stored version, per served apiVersion, computed once. */
const servedCache = new WeakMap<KeyValue, Map<string, KeyValue>>();

/**
 * A stored key-value as `def` serves it (the same object when nothing converts). Cached:
 * a watch event is converted once for all the watchers of one served version.
 */
export function servedKeyValue(def: ResourceDefinition, kv: KeyValue): KeyValue {
  if (!convertsStored(def)) return kv;
  let byVersion = servedCache.get(kv);
  if (byVersion === undefined) {
    byVersion = new Map();
    servedCache.set(kv, byVersion);
  }
  const apiVersion = apiVersionOf(def);
  let served = byVersion.get(apiVersion);
  if (served === undefined) {
    const value = servedJson(def, kv.value);
    served = value === kv.value ? kv : { ...kv, value };
    byVersion.set(apiVersion, served);
  }
  return served;
}

/**
 * Stored JSON decoded in `def`'s served form (a private copy the caller may change). A custom
 * resource keeps the version it was stored in: an update through another version stores it
 * anew in that one, as upstream's "None" conversion does.
 */
export function decodeServed(def: ResourceDefinition, json: string): KubeObject {
  return fromStorage(def, decodeObjectJson(def, json));
}

/**
 * The encoder of a write through `def`: stamps the write's revision into the served object
 * (the caller answers with it), then encodes it in the storage version.
 */
export function storedEncoder(
  def: ResourceDefinition,
  obj: KubeObject,
): (revision: number) => string {
  return (revision) => {
    metaOf(obj).resourceVersion = String(revision);
    return encodeObject(toStorage(def, obj));
  };
}

/**
 * Generation counts changes of the stored spec: a spec the served version carries in
 * annotations (autoscaling/v1's other metrics and behavior) changes through them.
 */
export function bumpForStoredSpec(
  def: ResourceDefinition,
  next: KubeObject,
  current: KubeObject,
): void {
  if (def.storage === undefined || def.generation !== 'spec') return;
  const generation = current.metadata?.generation ?? 1;
  if (metaOf(next).generation !== generation) return;
  if (specChanged(toStorage(def, next), toStorage(def, current))) {
    metaOf(next).generation = generation + 1;
  }
}
