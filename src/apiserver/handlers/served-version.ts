/**
 * Custom resources with several versions and `conversion.strategy: None`: objects are stored
 * once, in whichever version wrote them, and each served version answers with its own
 * `apiVersion` (upstream's "None" converter changes nothing else). Built-in kinds have one
 * version per resource here, so their stored JSON is served as it is.
 *
 * @module
 */
import { apiVersionOf, type ResourceDefinition } from '../../api/resource.js';
import { parseStoredObject } from '../store/object-json.js';

/** Stored JSON starts `{"kind":…,"apiVersion":…`: the version is within the first bytes. */
const HEAD_BYTES = 320;

export function asServedVersion(def: ResourceDefinition, json: string): string {
  if (def.customResource === undefined) return json;
  const apiVersion = apiVersionOf(def);
  if (json.slice(0, HEAD_BYTES).includes(`"apiVersion":${JSON.stringify(apiVersion)}`)) return json;
  const { kind, apiVersion: _stored, metadata, ...rest } = parseStoredObject(json);
  return JSON.stringify({ kind, apiVersion, metadata, ...rest });
}
