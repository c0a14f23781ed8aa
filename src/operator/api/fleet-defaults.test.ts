/**
 * `FLEET_DEFAULTS` against the schema it is read from: every scalar `default` under `spec` has
 * its entry with the same value (so a default added to the schema is not silently missing
 * here), and `fleetReplicas` prefers the fleet's own value.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isJsonObject } from '../../api/object.js';
import { FLEET_DEFAULTS, fleetReplicas, schemaDefault } from './fleet-defaults.js';
import { celldFleetSchema } from './fleet-schema.js';

/** Where each entry is read from. */
const PATHS: Record<keyof typeof FLEET_DEFAULTS, string> = {
  replicas: 'spec.replicas',
  sizeGiB: 'spec.storage.sizeGiB',
  placementMode: 'spec.placement.mode',
  cpuRequest: 'spec.execution.cpuRequest',
  memoryRequest: 'spec.execution.memoryRequest',
  memoryLimit: 'spec.execution.memoryLimit',
  shutdownSeconds: 'spec.lifecycle.shutdownSeconds',
  terminationGraceSeconds: 'spec.lifecycle.terminationGraceSeconds',
};

/** Every scalar default in the schema, by dotted path (object defaults such as `{}` left out). */
function scalarDefaults(node: unknown, path: string[] = []): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!isJsonObject(node)) return out;
  if (node.default !== undefined && !isJsonObject(node.default)) {
    out.set(path.join('.'), node.default);
  }
  const properties = isJsonObject(node.properties) ? node.properties : {};
  for (const [name, child] of Object.entries(properties)) {
    for (const [p, v] of scalarDefaults(child, [...path, name])) out.set(p, v);
  }
  return out;
}

describe('FLEET_DEFAULTS', () => {
  const inSchema = scalarDefaults(celldFleetSchema());

  it('covers every scalar default of the schema', () => {
    assert.deepEqual([...inSchema.keys()].sort(), Object.values(PATHS).sort());
  });

  for (const [key, path] of Object.entries(PATHS)) {
    it(`${key} is the schema's ${path}`, () => {
      assert.equal(FLEET_DEFAULTS[key as keyof typeof FLEET_DEFAULTS], inSchema.get(path));
      assert.equal(schemaDefault(path.split('.')), inSchema.get(path));
    });
  }

  it('schemaDefault answers undefined for a field without a default', () => {
    assert.equal(schemaDefault(['spec', 'runtimeImage']), undefined);
    assert.equal(schemaDefault(['spec', 'no-such-field']), undefined);
  });
});

describe('fleetReplicas', () => {
  const cases: { name: string; spec: { replicas?: number } | undefined; want: number }[] = [
    { name: 'the fleet’s own value', spec: { replicas: 5 }, want: 5 },
    { name: 'unset: the schema default', spec: {}, want: FLEET_DEFAULTS.replicas },
    { name: 'no spec: the schema default', spec: undefined, want: FLEET_DEFAULTS.replicas },
  ];
  for (const c of cases) it(c.name, () => assert.equal(fleetReplicas(c.spec), c.want));
});
