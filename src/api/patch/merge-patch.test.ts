import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  applyMergePatch,
  checkMergePatchDocument,
  INVALID_MERGE_PATCH_MESSAGE,
  MergePatchDecodeError,
} from './merge-patch.js';

/** Freezes a JSON value all the way down, so any mutation throws in strict mode. */
function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

describe('applyMergePatch: RFC 7386', () => {
  // Appendix A, in order.
  const appendix: { target: unknown; patch: unknown; result: unknown }[] = [
    { target: { a: 'b' }, patch: { a: 'c' }, result: { a: 'c' } },
    { target: { a: 'b' }, patch: { b: 'c' }, result: { a: 'b', b: 'c' } },
    { target: { a: 'b' }, patch: { a: null }, result: {} },
    { target: { a: 'b', b: 'c' }, patch: { a: null }, result: { b: 'c' } },
    { target: { a: ['b'] }, patch: { a: 'c' }, result: { a: 'c' } },
    { target: { a: 'c' }, patch: { a: ['b'] }, result: { a: ['b'] } },
    { target: { a: { b: 'c' } }, patch: { a: { b: 'd', c: null } }, result: { a: { b: 'd' } } },
    { target: { a: [{ b: 'c' }] }, patch: { a: [1] }, result: { a: [1] } },
    { target: ['a', 'b'], patch: ['c', 'd'], result: ['c', 'd'] },
    { target: { a: 'b' }, patch: ['c'], result: ['c'] },
    { target: { a: 'foo' }, patch: null, result: null },
    { target: { a: 'foo' }, patch: 'bar', result: 'bar' },
    { target: { e: null }, patch: { a: 1 }, result: { e: null, a: 1 } },
    { target: [1, 2], patch: { a: 'b', c: null }, result: { a: 'b' } },
    { target: {}, patch: { a: { bb: { ccc: null } } }, result: { a: { bb: {} } } },
  ];
  for (const [i, { target, patch, result }] of appendix.entries()) {
    it(`appendix A example ${i + 1}`, () => {
      assert.deepEqual(applyMergePatch(deepFreeze(target), deepFreeze(patch)), result);
    });
  }

  it('section 3 example', () => {
    const target = {
      title: 'Goodbye!',
      author: { givenName: 'John', familyName: 'Doe' },
      tags: ['example', 'sample'],
      content: 'This will be unchanged',
    };
    const patch = {
      title: 'Hello!',
      phoneNumber: '+01-123-456-7890',
      author: { familyName: null },
      tags: ['example'],
    };
    assert.deepEqual(applyMergePatch(deepFreeze(target), deepFreeze(patch)), {
      title: 'Hello!',
      author: { givenName: 'John' },
      tags: ['example'],
      content: 'This will be unchanged',
      phoneNumber: '+01-123-456-7890',
    });
  });

  const kubectl: { name: string; target: unknown; patch: unknown; result: unknown }[] = [
    {
      name: 'kubectl label adds a label',
      target: { metadata: { name: 'web', labels: { app: 'web' } } },
      patch: { metadata: { labels: { tier: 'front' } } },
      result: { metadata: { name: 'web', labels: { app: 'web', tier: 'front' } } },
    },
    {
      name: 'kubectl label x- removes it',
      target: { metadata: { labels: { app: 'web', x: 'y' } } },
      patch: { metadata: { labels: { x: null } } },
      result: { metadata: { labels: { app: 'web' } } },
    },
    {
      name: 'kubectl scale sets replicas',
      target: { spec: { replicas: 1, selector: { matchLabels: { app: 'web' } } } },
      patch: { spec: { replicas: 5 } },
      result: { spec: { replicas: 5, selector: { matchLabels: { app: 'web' } } } },
    },
    {
      name: 'null inside an array is kept (arrays replace wholesale)',
      target: {},
      patch: { a: [1, null, { b: null }] },
      result: { a: [1, null, { b: null }] },
    },
    {
      name: 'a __proto__ member is an ordinary key',
      target: JSON.parse('{"a":1}'),
      patch: JSON.parse('{"__proto__":{"x":1}}'),
      result: JSON.parse('{"a":1,"__proto__":{"x":1}}'),
    },
  ];
  for (const { name, target, patch, result } of kubectl) {
    it(name, () => {
      const out = applyMergePatch(deepFreeze(target), deepFreeze(patch));
      assert.deepEqual(out, result);
      assert.equal(Object.getPrototypeOf(out), Object.getPrototypeOf(result));
    });
  }
});

describe('checkMergePatchDocument', () => {
  for (const bad of [null, 1, 'x', true]) {
    it(`rejects ${JSON.stringify(bad)} with 400 ${INVALID_MERGE_PATCH_MESSAGE}`, () => {
      assert.throws(
        () => checkMergePatchDocument(bad),
        (e: unknown) => {
          assert.ok(e instanceof MergePatchDecodeError);
          assert.equal(e.code, 400);
          assert.equal(e.status.reason, 'BadRequest');
          assert.equal(e.message, 'Invalid JSON Patch');
          return true;
        },
      );
    });
  }
  for (const ok of [{}, { a: null }, []]) {
    it(`accepts ${JSON.stringify(ok)}`, () => checkMergePatchDocument(ok));
  }
});

// A JSON value without nulls (a merge patch cannot set a member to null).
const { json: jsonNoNull } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small' },
    fc.string({ maxLength: 3 }),
    fc.integer(),
    fc.boolean(),
    fc.array(tie('json'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('json'), {
      maxKeys: 4,
      noNullPrototype: true,
    }),
  ),
}));
const objectNoNull = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), jsonNoNull, {
  maxKeys: 4,
  noNullPrototype: true,
});

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The RFC 7386 patch that turns object `a` into object `b`. */
function diff(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(a)) if (!Object.hasOwn(b, k)) out[k] = null;
  for (const [k, bv] of Object.entries(b)) {
    const av = a[k];
    if (isObject(av) && isObject(bv)) {
      const d = diff(av, bv);
      if (Object.keys(d).length > 0) out[k] = d;
    } else if (!Object.hasOwn(a, k) || JSON.stringify(av) !== JSON.stringify(bv)) {
      out[k] = bv;
    }
  }
  return out;
}

describe('properties', () => {
  it('applying diff(a, b) to a gives b', () => {
    fc.assert(
      fc.property(objectNoNull, objectNoNull, (a, b) => {
        assert.deepEqual(applyMergePatch(deepFreeze(a), deepFreeze(diff(a, b))), b);
      }),
    );
  });

  it('is idempotent and never mutates its inputs', () => {
    const anyJson = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(anyJson, anyJson, (target, patch) => {
        const before = JSON.stringify([target, patch]);
        const once = applyMergePatch(deepFreeze(target), deepFreeze(patch));
        assert.deepEqual(applyMergePatch(deepFreeze(once), patch), once);
        assert.equal(JSON.stringify([target, patch]), before);
      }),
    );
  });

  it('the result shares no objects with the inputs', () => {
    fc.assert(
      fc.property(objectNoNull, objectNoNull, (target, patch) => {
        const out = applyMergePatch(target, patch);
        const seen = new Set<unknown>();
        const collect = (v: unknown) => {
          if (typeof v === 'object' && v !== null) {
            seen.add(v);
            for (const x of Object.values(v)) collect(x);
          }
        };
        collect(target);
        collect(patch);
        const walk = (v: unknown) => {
          if (typeof v === 'object' && v !== null) {
            assert.ok(!seen.has(v));
            for (const x of Object.values(v)) walk(x);
          }
        };
        walk(out);
      }),
    );
  });
});
