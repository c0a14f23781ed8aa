import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { applyJsonPatch, JsonPatchApplyError, jsonEqual } from './json-patch.js';

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

function apply(target: unknown, ops: unknown): unknown {
  return applyJsonPatch(deepFreeze(target), deepFreeze(ops));
}

describe('applyJsonPatch: RFC 6902 appendix A', () => {
  const ok: { name: string; doc: unknown; patch: unknown[]; result: unknown }[] = [
    {
      name: 'A.1 adding an object member',
      doc: { foo: 'bar' },
      patch: [{ op: 'add', path: '/baz', value: 'qux' }],
      result: { baz: 'qux', foo: 'bar' },
    },
    {
      name: 'A.2 adding an array element',
      doc: { foo: ['bar', 'baz'] },
      patch: [{ op: 'add', path: '/foo/1', value: 'qux' }],
      result: { foo: ['bar', 'qux', 'baz'] },
    },
    {
      name: 'A.3 removing an object member',
      doc: { baz: 'qux', foo: 'bar' },
      patch: [{ op: 'remove', path: '/baz' }],
      result: { foo: 'bar' },
    },
    {
      name: 'A.4 removing an array element',
      doc: { foo: ['bar', 'qux', 'baz'] },
      patch: [{ op: 'remove', path: '/foo/1' }],
      result: { foo: ['bar', 'baz'] },
    },
    {
      name: 'A.5 replacing a value',
      doc: { baz: 'qux', foo: 'bar' },
      patch: [{ op: 'replace', path: '/baz', value: 'boo' }],
      result: { baz: 'boo', foo: 'bar' },
    },
    {
      name: 'A.6 moving a value',
      doc: { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      patch: [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      result: { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    },
    {
      name: 'A.7 moving an array element',
      doc: { foo: ['all', 'grass', 'cows', 'eat'] },
      patch: [{ op: 'move', from: '/foo/1', path: '/foo/3' }],
      result: { foo: ['all', 'cows', 'eat', 'grass'] },
    },
    {
      name: 'A.8 testing a value: success',
      doc: { baz: 'qux', foo: ['a', 2, 'c'] },
      patch: [
        { op: 'test', path: '/baz', value: 'qux' },
        { op: 'test', path: '/foo/1', value: 2 },
      ],
      result: { baz: 'qux', foo: ['a', 2, 'c'] },
    },
    {
      name: 'A.10 adding a nested member object',
      doc: { foo: 'bar' },
      patch: [{ op: 'add', path: '/child', value: { grandchild: {} } }],
      result: { foo: 'bar', child: { grandchild: {} } },
    },
    {
      name: 'A.11 ignoring unrecognized elements',
      doc: { foo: 'bar' },
      patch: [{ op: 'add', path: '/baz', value: 'qux', xyz: 123 }],
      result: { foo: 'bar', baz: 'qux' },
    },
    {
      name: 'A.14 ~ escape ordering',
      doc: { '/': 9, '~1': 10 },
      patch: [{ op: 'test', path: '/~01', value: 10 }],
      result: { '/': 9, '~1': 10 },
    },
    {
      name: 'A.16 adding an array value',
      doc: { foo: ['bar'] },
      patch: [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }],
      result: { foo: ['bar', ['abc', 'def']] },
    },
  ];
  for (const { name, doc, patch, result } of ok) {
    it(name, () => assert.deepEqual(apply(doc, patch), result));
  }

  const failing: { name: string; doc: unknown; patch: unknown[] }[] = [
    {
      name: 'A.9 testing a value: error',
      doc: { baz: 'qux' },
      patch: [{ op: 'test', path: '/baz', value: 'bar' }],
    },
    {
      name: 'A.12 adding to a nonexistent target',
      doc: { foo: 'bar' },
      patch: [{ op: 'add', path: '/baz/bat', value: 'qux' }],
    },
    {
      name: 'A.15 comparing strings and numbers',
      doc: { '/': 9, '~1': 10 },
      patch: [{ op: 'test', path: '/~01', value: '10' }],
    },
  ];
  for (const { name, doc, patch } of failing) {
    it(`${name} → 422`, () => assert.throws(() => apply(doc, patch), JsonPatchApplyError));
  }
});

describe('applyJsonPatch: more cases', () => {
  const ok: { name: string; doc: unknown; patch: unknown; result: unknown }[] = [
    { name: 'null patch is empty', doc: { a: 1 }, patch: null, result: { a: 1 } },
    { name: 'empty patch', doc: { a: 1 }, patch: [], result: { a: 1 } },
    {
      name: 'add replaces an existing member',
      doc: { a: 1 },
      patch: [{ op: 'add', path: '/a', value: 2 }],
      result: { a: 2 },
    },
    {
      name: 'add at the end index',
      doc: { a: [1] },
      patch: [{ op: 'add', path: '/a/1', value: 2 }],
      result: { a: [1, 2] },
    },
    {
      name: 'add the whole document',
      doc: { a: 1 },
      patch: [{ op: 'add', path: '', value: [1] }],
      result: [1],
    },
    {
      name: 'replace the whole document',
      doc: { a: 1 },
      patch: [{ op: 'replace', path: '', value: { b: 2 } }],
      result: { b: 2 },
    },
    {
      name: 'replace in an array',
      doc: { a: [1, 2] },
      patch: [{ op: 'replace', path: '/a/0', value: 9 }],
      result: { a: [9, 2] },
    },
    {
      name: 'add with value null',
      doc: {},
      patch: [{ op: 'add', path: '/a', value: null }],
      result: { a: null },
    },
    {
      name: 'empty key',
      doc: { '': 1 },
      patch: [{ op: 'replace', path: '/', value: 2 }],
      result: { '': 2 },
    },
    {
      name: 'keys with / and ~',
      doc: {},
      patch: [{ op: 'add', path: '/a~1b~0c', value: 1 }],
      result: { 'a/b~c': 1 },
    },
    {
      name: 'copy deep-copies',
      doc: { a: { b: [1] } },
      patch: [
        { op: 'copy', from: '/a', path: '/c' },
        { op: 'add', path: '/c/b/-', value: 2 },
      ],
      result: { a: { b: [1] }, c: { b: [1, 2] } },
    },
    {
      name: 'copy the whole document into itself',
      doc: { a: 1 },
      patch: [{ op: 'copy', from: '', path: '/b' }],
      result: { a: 1, b: { a: 1 } },
    },
    {
      name: 'move to the same place',
      doc: { a: 1 },
      patch: [{ op: 'move', from: '/a', path: '/a' }],
      result: { a: 1 },
    },
    {
      name: 'move to a sibling',
      doc: { a: { b: 1 } },
      patch: [{ op: 'move', from: '/a/b', path: '/c' }],
      result: { a: {}, c: 1 },
    },
    {
      name: 'test an object regardless of member order',
      doc: { a: { x: 1, y: [1, { z: 2 }] } },
      patch: [{ op: 'test', path: '/a', value: { y: [1, { z: 2 }], x: 1 } }],
      result: { a: { x: 1, y: [1, { z: 2 }] } },
    },
    {
      name: 'test the whole document',
      doc: [1],
      patch: [{ op: 'test', path: '', value: [1] }],
      result: [1],
    },
    {
      name: 'a __proto__ member is an ordinary key',
      doc: {},
      patch: [{ op: 'add', path: '/__proto__', value: 1 }],
      result: JSON.parse('{"__proto__":1}'),
    },
    {
      name: 'kubectl rollout undo',
      doc: { metadata: { annotations: { a: '1' } }, spec: { template: { x: 1 } } },
      patch: [
        { op: 'replace', path: '/spec/template', value: { x: 2 } },
        { op: 'replace', path: '/metadata/annotations', value: { b: '2' } },
      ],
      result: { metadata: { annotations: { b: '2' } }, spec: { template: { x: 2 } } },
    },
  ];
  for (const { name, doc, patch, result } of ok) {
    it(name, () => assert.deepEqual(apply(doc, patch), result));
  }
});

describe('properties', () => {
  const key = fc.constantFrom('a', 'b', 'c', '~', '/', '');
  const doc = fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), {
    maxKeys: 4,
    noNullPrototype: true,
  });
  const value = fc.jsonValue({ maxDepth: 2 });
  const pointer = (k: string) => `/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`;

  it('test after add of the same path succeeds', () => {
    fc.assert(
      fc.property(doc, key, value, (d, k, v) => {
        const p = pointer(k);
        const out = apply(d, [
          { op: 'add', path: p, value: v },
          { op: 'test', path: p, value: v },
        ]);
        assert.ok(jsonEqual((out as Record<string, unknown>)[k], v));
      }),
    );
  });

  it('add then remove of a new member restores the document', () => {
    fc.assert(
      fc.property(doc, key, value, (d, k, v) => {
        fc.pre(!Object.hasOwn(d, k));
        const p = pointer(k);
        assert.deepEqual(
          apply(d, [
            { op: 'add', path: p, value: v },
            { op: 'remove', path: p },
          ]),
          d,
        );
      }),
    );
  });

  it('array insert then remove at any valid index restores the array', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 5 }), value, fc.nat(), (arr, v, n) => {
        const i = n % (arr.length + 1);
        const out = apply({ a: arr }, [
          { op: 'add', path: `/a/${i}`, value: v },
          { op: 'test', path: `/a/${i}`, value: v },
          { op: 'remove', path: `/a/${i}` },
        ]);
        assert.deepEqual(out, { a: arr });
      }),
    );
  });

  it('never mutates its inputs and shares nothing with them, even when it fails', () => {
    const op = fc.record({
      op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test'),
      path: key.map(pointer),
      from: key.map(pointer),
      value,
    });
    fc.assert(
      fc.property(doc, fc.array(op, { maxLength: 4 }), (d, ops) => {
        const before = JSON.stringify([d, ops]);
        let out: unknown;
        try {
          out = apply(d, ops);
        } catch (e) {
          assert.ok(e instanceof JsonPatchApplyError);
        }
        assert.equal(JSON.stringify([d, ops]), before);
        if (typeof out === 'object' && out !== null) {
          const inputs = new Set<unknown>([d, ...Object.values(d), ...ops.map((o) => o.value)]);
          for (const v of [out, ...Object.values(out)]) {
            if (typeof v === 'object' && v !== null) assert.ok(!inputs.has(v));
          }
        }
      }),
    );
  });
});
