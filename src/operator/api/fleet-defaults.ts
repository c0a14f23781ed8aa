/**
 * The fleet defaults, read from the `CelldFleet` schema (`fleet-schema.ts`): the schema's
 * `default:` values are the one place a fleet default is written. The API server applies them
 * on every write, so a fleet read from the server or a cache carries them already; code that
 * still needs one (a spec built by hand, a field the server may not have defaulted yet when
 * talking to an older CRD) reads it here, never from a literal of its own.
 *
 * Read once at load; a default the schema lost is an error at start, not a silent `undefined`.
 *
 * @module
 */
import type { CelldFleetSpec } from '../../api/model/index.js';
import { isJsonObject } from '../../api/object.js';
import { celldFleetSchema } from './fleet-schema.js';
import type { PlacementMode } from './types.js';

/** The `default` of the schema node at `path` (property names from the object's root). */
export function schemaDefault(path: readonly string[]): unknown {
  let node: unknown = celldFleetSchema();
  for (const name of path) {
    const properties = isJsonObject(node) ? node.properties : undefined;
    node = isJsonObject(properties) ? properties[name] : undefined;
  }
  return isJsonObject(node) ? node.default : undefined;
}

function numberAt(path: readonly string[]): number {
  const value = schemaDefault(path);
  if (typeof value !== 'number')
    throw new Error(`the fleet schema has no number default at ${path.join('.')}`);
  return value;
}

function stringAt(path: readonly string[]): string {
  const value = schemaDefault(path);
  if (typeof value !== 'string')
    throw new Error(`the fleet schema has no string default at ${path.join('.')}`);
  return value;
}

function modeAt(path: readonly string[]): PlacementMode {
  const value = schemaDefault(path);
  if (value !== 'Strict' && value !== 'Relaxed') {
    throw new Error(`the fleet schema has no placement mode default at ${path.join('.')}`);
  }
  return value;
}

/** Every default of `spec`, by field, as the schema gives it. */
export const FLEET_DEFAULTS = {
  replicas: numberAt(['spec', 'replicas']),
  sizeGiB: numberAt(['spec', 'storage', 'sizeGiB']),
  placementMode: modeAt(['spec', 'placement', 'mode']),
  cpuRequest: stringAt(['spec', 'execution', 'cpuRequest']),
  memoryRequest: stringAt(['spec', 'execution', 'memoryRequest']),
  memoryLimit: stringAt(['spec', 'execution', 'memoryLimit']),
  shutdownSeconds: numberAt(['spec', 'lifecycle', 'shutdownSeconds']),
  terminationGraceSeconds: numberAt(['spec', 'lifecycle', 'terminationGraceSeconds']),
} as const;

/** `spec.replicas`, defaulted: what the fleet asks for. */
export function fleetReplicas(spec: Pick<CelldFleetSpec, 'replicas'> | undefined): number {
  return spec?.replicas ?? FLEET_DEFAULTS.replicas;
}
