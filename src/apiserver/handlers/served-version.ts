/**
 * What a handler serves from stored JSON: the object in the version the request came
 * through. Built-in resources served from another version's storage are converted
 * (`../store/conversion.ts`); custom resources stored in another served version get this
 * version's `apiVersion`; everything else is served as stored.
 *
 * @module
 */
import type { ResourceDefinition } from '../../api/resource.js';
import type { KeyValue } from '../../storage/backend.js';
import { servedJson, servedKeyValue } from '../store/conversion.js';

export function asServedVersion(def: ResourceDefinition, json: string): string {
  return servedJson(def, json);
}

/** A stored key-value as `def` serves it, converted once per stored version and served version. */
export function servedValue(def: ResourceDefinition, kv: KeyValue): string {
  return servedKeyValue(def, kv).value;
}
