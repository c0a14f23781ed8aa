/**
 * Round-trip properties of strategic merge patch over any schema, shared by the fixture and
 * built-in property tests: `apply(original, diff(original, modified))` is `modified`, inputs
 * are never mutated, the empty patch is the identity.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { SchemaNavigator } from '../../../schema/navigator.js';
import { arbitraryFromSchema } from '../../../schema/testing/arbitrary-object.js';
import type { Schema } from '../../../schema/types.js';
import { applyStrategicMergePatch } from '../apply.js';
import { createTwoWayMergePatch } from '../diff.js';

/** Freezes a JSON value all the way down, so any mutation throws in strict mode. */
function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

/** Every list reversed, at every depth: the same content in another order. */
function reverseLists(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reverseLists).reverse();
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, reverseLists(x)]));
}

/**
 * An object sharing structure with both `a` and `b`: per key, `a`'s value, `b`'s value, or
 * (both maps) a mix of the two; `coin` decides. Lists are taken whole, so keyed lists keep
 * unique keys.
 */
function mix(a: unknown, b: unknown, coin: () => boolean): unknown {
  const isMap = (x: unknown): x is Record<string, unknown> =>
    typeof x === 'object' && x !== null && !Array.isArray(x);
  if (!isMap(a) || !isMap(b)) return coin() ? a : b;
  const out: Record<string, unknown> = {};
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const pick = k in a && k in b ? mix(a[k], b[k], coin) : coin() ? a[k] : b[k];
    if (pick !== undefined) out[k] = pick;
  }
  return out;
}

export interface Subject {
  readonly name: string;
  readonly schema: Schema;
  readonly nav: SchemaNavigator;
}

/** The properties every schema must satisfy; reused for the generated built-in schemas. */
export function roundTripProperties({ name, schema, nav }: Subject, numRuns = 300): void {
  const objects = arbitraryFromSchema(schema, nav, { maxDepth: 8, minProperties: 2 });
  const apply = (o: unknown, p: unknown): unknown => applyStrategicMergePatch(o, p, schema, nav);
  const diff = (a: unknown, b: unknown) => createTwoWayMergePatch(a, b, schema, nav);

  describe(`strategic merge patch properties: ${name}`, () => {
    it('apply(original, diff(original, modified)) equals modified', () => {
      fc.assert(
        fc.property(objects, objects, (original, modified) => {
          assert.deepEqual(apply(original, diff(original, modified)), modified);
        }),
        { numRuns },
      );
    });

    it('round-trips when the modified object shares most of its structure', () => {
      const coins = fc.array(fc.boolean(), { minLength: 1, maxLength: 32 });
      fc.assert(
        fc.property(objects, objects, coins, (original, other, bits) => {
          let n = 0;
          const modified = mix(original, other, () => bits[n++ % bits.length] === true);
          assert.deepEqual(apply(original, diff(original, modified)), modified);
        }),
        { numRuns },
      );
    });

    it('round-trips a pure reordering of every list', () => {
      fc.assert(
        fc.property(objects, (original) => {
          const modified = reverseLists(original);
          assert.deepEqual(apply(original, diff(original, modified)), modified);
        }),
        { numRuns },
      );
    });

    it('never mutates its inputs', () => {
      fc.assert(
        fc.property(objects, objects, (original, modified) => {
          const patch = deepFreeze(diff(original, modified));
          apply(deepFreeze(original), patch);
        }),
        { numRuns },
      );
    });

    // The diff of an object with itself is not always `{}`: upstream always sends a map whose
    // field has strategy `replace`.
    it('the empty patch, and the diff of an object with itself, are the identity', () => {
      fc.assert(
        fc.property(objects, (o) => {
          assert.deepEqual(apply(o, {}), o);
          assert.deepEqual(apply(o, diff(o, o)), o);
        }),
        { numRuns },
      );
    });

    it('applying the diff twice changes nothing more', () => {
      fc.assert(
        fc.property(objects, objects, (original, modified) => {
          const patch = diff(original, modified);
          assert.deepEqual(apply(apply(original, patch), patch), modified);
        }),
        { numRuns },
      );
    });
  });
}
