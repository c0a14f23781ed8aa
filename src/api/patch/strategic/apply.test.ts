import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyStrategicMergePatch } from './apply.js';
import { mergeItemNav, mergeItemSchema } from './testdata/merge-item-schema.js';

interface Case {
  readonly name: string;
  readonly original: unknown;
  readonly patch: unknown;
  readonly result: unknown;
}

const apply = (original: unknown, patch: unknown): unknown =>
  applyStrategicMergePatch(original, patch, mergeItemSchema, mergeItemNav);

// Replayed from upstream's patch_test.go (custom and two-way cases), on the MergeItem schema.
const upstreamCases: Case[] = [
  {
    name: 'unique scalars when merging lists',
    original: { mergingIntList: [1, 2] },
    patch: { mergingIntList: [2, 3] },
    result: { mergingIntList: [1, 2, 3] },
  },
  {
    name: '$patch: delete on a nested map empties it',
    original: { simpleMap: { key1: '1', key2: '1' } },
    patch: { simpleMap: { $patch: 'delete' } },
    result: { simpleMap: {} },
  },
  {
    name: '{$patch: replace} as the only element empties a merged list',
    original: { mergingList: [{ name: '1' }, { name: '2' }] },
    patch: { mergingList: [{ $patch: 'replace' }] },
    result: { mergingList: [] },
  },
  {
    name: '$patch: replace with other elements makes them the list',
    original: { mergingList: [{ name: '1', value: 'a' }, { name: '2' }] },
    patch: { mergingList: [{ name: '3', value: null }, { $patch: 'replace' }, { name: '1' }] },
    result: { mergingList: [{ name: '3' }, { name: '1' }] },
  },
  {
    name: 'merge empty merging lists',
    original: { mergingList: [] },
    patch: { mergingList: [] },
    result: { mergingList: [] },
  },
  {
    name: '$patch: replace at the top replaces everything',
    original: { name: '1', value: '1' },
    patch: { $patch: 'replace' },
    result: {},
  },
  {
    name: 'add key and $patch: replace',
    original: { name: '1', value: '1' },
    patch: { other: 'a', $patch: 'replace' },
    result: { other: 'a' },
  },
  {
    name: 'a deletion removes every element with that key',
    original: {
      mergingList: [
        { name: '1' },
        { name: '1' },
        { name: '2', value: 'a' },
        { name: '3' },
        { name: '3' },
      ],
    },
    patch: {
      mergingList: [
        { name: '1', $patch: 'delete' },
        { name: '3', $patch: 'delete' },
      ],
    },
    result: { mergingList: [{ name: '2', value: 'a' }] },
  },
  {
    name: 'retainKeys map merges without a directive',
    original: { retainKeysMap: { name: 'foo', value: 'a' } },
    patch: { retainKeysMap: { value: 'b', other: null } },
    result: { retainKeysMap: { name: 'foo', value: 'b' } },
  },
  {
    name: '$retainKeys clears unlisted keys',
    original: { retainKeysMap: { name: 'foo', value: 'a', other: 'x' } },
    patch: { retainKeysMap: { $retainKeys: ['name', 'value'], value: 'b' } },
    result: { retainKeysMap: { name: 'foo', value: 'b' } },
  },
  {
    name: 'patch order wins for listed elements',
    original: { mergingList: [{ name: '1' }, { name: '2', value: 'b' }, { name: '3' }] },
    patch: {
      mergingList: [
        { name: '3', value: 'c' },
        { name: '1', value: 'a' },
        { name: '2', other: 'x' },
      ],
    },
    result: {
      mergingList: [
        { name: '3', value: 'c' },
        { name: '1', value: 'a' },
        { name: '2', value: 'b', other: 'x' },
      ],
    },
  },
  {
    name: 'server-only elements keep their place relative to patched ones',
    original: { mergingList: [{ name: '1' }, { name: '2', value: 'b' }, { name: '3' }] },
    patch: {
      mergingList: [
        { name: '3', value: 'c' },
        { name: '1', value: 'a' },
      ],
    },
    result: {
      mergingList: [
        { name: '2', value: 'b' },
        { name: '3', value: 'c' },
        { name: '1', value: 'a' },
      ],
    },
  },
  {
    name: 'patch order in a merged int list',
    original: { mergingIntList: [1, 2, 3] },
    patch: { mergingIntList: [3, 1] },
    result: { mergingIntList: [2, 3, 1] },
  },
  {
    name: 'a new element goes before the server-only ones',
    original: { mergingList: [{ name: 'a' }, { name: 'b' }] },
    patch: { mergingList: [{ name: 'new' }] },
    result: { mergingList: [{ name: 'new' }, { name: 'a' }, { name: 'b' }] },
  },
  {
    name: '$setElementOrder naming an absent element',
    original: { mergingList: [{ name: '1' }, { name: '3' }] },
    patch: {
      '$setElementOrder/mergingList': [{ name: '3' }, { name: '2' }, { name: '1' }],
      mergingList: [
        { name: '3', value: '3' },
        { name: '1', value: '1' },
      ],
    },
    result: {
      mergingList: [
        { name: '3', value: '3' },
        { name: '1', value: '1' },
      ],
    },
  },
  {
    name: '$setElementOrder alone reorders an int list',
    original: { mergingIntList: [1, 3] },
    patch: { '$setElementOrder/mergingIntList': [3, 2, 1] },
    result: { mergingIntList: [3, 1] },
  },
  {
    name: '$setElementOrder puts new and server-only elements in place',
    original: {
      mergingList: [
        { name: '1', other: 'a' },
        { name: '2', value: '2' },
      ],
    },
    patch: {
      '$setElementOrder/mergingList': [{ name: '4' }, { name: '1' }, { name: '2' }, { name: '3' }],
      mergingList: [
        { name: '4', value: '4' },
        { name: '3', value: '3' },
      ],
    },
    result: {
      mergingList: [
        { name: '4', value: '4' },
        { name: '1', other: 'a' },
        { name: '2', value: '2' },
        { name: '3', value: '3' },
      ],
    },
  },
  {
    name: 'add and delete in a set',
    original: { mergingIntList: [1, 2, 3, 3, 4] },
    patch: {
      '$setElementOrder/mergingIntList': [1, 2, 4],
      '$deleteFromPrimitiveList/mergingIntList': [3],
      mergingIntList: [4],
    },
    result: { mergingIntList: [1, 2, 4] },
  },
  {
    name: '$deleteFromPrimitiveList of an absent value changes nothing',
    original: { mergingIntList: [1, 2] },
    patch: { '$deleteFromPrimitiveList/mergingIntList': [3] },
    result: { mergingIntList: [1, 2] },
  },
  {
    name: '$deleteFromPrimitiveList of an absent list adds nothing',
    original: { foo: ['bar'] },
    patch: { '$deleteFromPrimitiveList/mergingIntList': [3] },
    result: { foo: ['bar'] },
  },
  {
    name: '$deleteFromPrimitiveList works on a list without merge strategy',
    original: { nonMergingIntList: [1, 2, 3] },
    patch: { '$deleteFromPrimitiveList/nonMergingIntList': [2] },
    result: { nonMergingIntList: [1, 3] },
  },
  {
    name: 'a list without strategy is replaced',
    original: { nonMergingList: [{ name: '1' }, { name: '2' }] },
    patch: { nonMergingList: [{ name: '2', value: 'x' }] },
    result: { nonMergingList: [{ name: '2', value: 'x' }] },
  },
  {
    name: 'a replace-strategy map is replaced',
    original: { replacingItem: { a: 1, b: { c: 2 } } },
    patch: { replacingItem: { b: { d: 3 } } },
    result: { replacingItem: { b: { d: 3 } } },
  },
  {
    name: 'a value of another type replaces',
    original: { simpleMap: { a: 'b' } },
    patch: { simpleMap: ['x'] },
    result: { simpleMap: ['x'] },
  },
  {
    name: 'new content loses nulls and directives',
    original: {},
    patch: {
      mergeItemPtr: {
        name: 'x',
        value: null,
        $retainKeys: ['name'],
        retainKeysMap: { $patch: 'delete' },
      },
    },
    result: { mergeItemPtr: { name: 'x' } },
  },
  {
    name: 'unknown fields merge like JSON merge patch',
    original: { unknown: { a: 1, list: [1, 2] }, name: 'n' },
    patch: { unknown: { b: 2, list: [3] } },
    result: { unknown: { a: 1, b: 2, list: [3] }, name: 'n' },
  },
  {
    name: 'null deletes and a null patch is the empty patch',
    original: { name: 'a', value: 'b' },
    patch: { value: null },
    result: { name: 'a' },
  },
  {
    name: 'nested merged lists merge recursively',
    original: { mergingList: [{ name: 'a', mergingList: [{ name: 'x', value: '1' }] }] },
    patch: { mergingList: [{ name: 'a', mergingList: [{ name: 'x', other: '2' }] }] },
    result: { mergingList: [{ name: 'a', mergingList: [{ name: 'x', value: '1', other: '2' }] }] },
  },
];

describe('applyStrategicMergePatch: upstream cases', () => {
  for (const c of upstreamCases) {
    it(c.name, () => assert.deepEqual(apply(c.original, c.patch), c.result));
  }
  it('a null body is the identity', () => {
    assert.deepEqual(apply({ name: 'a' }, null), { name: 'a' });
  });
  it('never mutates its inputs', () => {
    const original = Object.freeze({ mergingList: Object.freeze([Object.freeze({ name: 'a' })]) });
    const patch = Object.freeze({ $retainKeys: ['mergingList'], mergingList: Object.freeze([]) });
    assert.deepEqual(apply(original, patch), { mergingList: [{ name: 'a' }] });
  });
  it('shares no structure with the patch', () => {
    const patch = { simpleMap: { a: 'b' } };
    const out = apply({}, patch) as { simpleMap: Record<string, string> };
    out.simpleMap.a = 'changed';
    assert.equal(patch.simpleMap.a, 'b');
  });
});
