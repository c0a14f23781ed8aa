import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SchemaNavigator } from '../navigator.js';
import type { Schema } from '../types.js';
import { arbitraryFromSchema } from './arbitrary-object.js';

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

const nav = new SchemaNavigator({
  Root: {
    type: 'object',
    required: ['id'],
    properties: {
      id: { type: 'string' },
      mode: { type: 'string', enum: ['On', 'Off'] },
      size: { 'x-kubernetes-int-or-string': true },
      count: { type: 'integer', minimum: 3, maximum: 5 },
      ratio: { type: 'number' },
      when: { type: 'string', format: 'date-time' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
      ports: {
        type: 'array',
        items: { allOf: [ref('Port')] },
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['port', 'protocol'],
        'x-kubernetes-patch-merge-key': 'port',
        'x-kubernetes-patch-strategy': 'merge',
      },
      child: ref('Root'),
    },
  },
  Port: {
    type: 'object',
    properties: {
      port: { type: 'integer' },
      protocol: { type: 'string', enum: ['TCP', 'UDP'] },
      name: { type: 'string' },
    },
  },
});

type Obj = Record<string, unknown>;

/** Asserts that `v` has the shape of a `Root` (recursively through `child`). */
function checkRoot(v: unknown): void {
  assert.equal(typeof v, 'object');
  const o = v as Obj;
  assert.equal(typeof o.id, 'string', 'required id');
  for (const x of Object.values(o)) assert.notEqual(x, null);
  if ('mode' in o) assert.ok(o.mode === 'On' || o.mode === 'Off');
  if ('size' in o) assert.ok(typeof o.size === 'string' || Number.isInteger(o.size));
  if ('count' in o)
    assert.ok(Number.isInteger(o.count) && (o.count as number) >= 3 && (o.count as number) <= 5);
  if ('ratio' in o) assert.equal(typeof o.ratio, 'number');
  if ('when' in o) assert.match(o.when as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  if ('labels' in o)
    for (const x of Object.values(o.labels as Obj)) assert.equal(typeof x, 'string');
  if ('tags' in o) {
    const tags = o.tags as string[];
    assert.equal(new Set(tags).size, tags.length, 'set elements are distinct');
  }
  if ('ports' in o) {
    const ports = o.ports as Obj[];
    for (const p of ports) {
      assert.ok(Number.isInteger(p.port), 'merge key present');
      assert.ok(p.protocol === 'TCP' || p.protocol === 'UDP', 'map key present');
    }
    assert.equal(new Set(ports.map((p) => p.port)).size, ports.length, 'merge keys unique');
  }
  if ('child' in o && Object.keys(o.child as Obj).length > 0) checkRoot(o.child);
}

describe('arbitraryFromSchema', () => {
  it('generates values of the schema’s shape', () => {
    const arb = arbitraryFromSchema(ref('Root'), nav, { maxDepth: 4, minProperties: 3 });
    fc.assert(fc.property(arb, checkRoot), { numRuns: 300 });
  });

  it('stops at the depth limit with empty objects', () => {
    const arb = arbitraryFromSchema(ref('Root'), nav, { maxDepth: 0 });
    fc.assert(
      fc.property(arb, (v) => assert.deepEqual(v, {})),
      { numRuns: 20 },
    );
  });

  it('honours maxItems and maxProperties', () => {
    const arb = arbitraryFromSchema(ref('Root'), nav, {
      maxDepth: 3,
      maxItems: 1,
      maxProperties: 2,
    });
    fc.assert(
      fc.property(arb, (v) => {
        const o = v as Obj;
        assert.ok(Object.keys(o).length <= 3, 'id plus at most two optional fields');
        for (const x of Object.values(o)) if (Array.isArray(x)) assert.ok(x.length <= 1);
      }),
      { numRuns: 200 },
    );
  });

  it('wide values when smallValues is off', () => {
    const arb = arbitraryFromSchema({ type: 'integer' }, nav, { smallValues: false });
    const seen = new Set(fc.sample(arb, { numRuns: 200, seed: 7 }));
    assert.ok(seen.size > 10);
  });
});
