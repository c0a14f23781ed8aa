import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../errors.js';
import { applyStrategicMergePatch } from './apply.js';
import { decodeStrategicMergePatch, StrategicMergePatchError } from './errors.js';
import { goValue } from './go-values.js';
import { mergeItemNav, mergeItemSchema } from './testdata/merge-item-schema.js';

const apply = (original: unknown, patch: unknown): unknown =>
  applyStrategicMergePatch(original, patch, mergeItemSchema, mergeItemNav);

interface ErrorCase {
  readonly name: string;
  readonly original: unknown;
  readonly patch: unknown;
  readonly code: number;
  readonly reason: string | undefined;
  readonly message: string;
}

const cases: ErrorCase[] = [
  {
    name: 'missing merge key',
    original: { mergingList: [{ name: '1', value: 'a' }] },
    patch: { mergingList: [{ value: 'b', port: 80 }] },
    code: 500,
    reason: undefined,
    message: 'map: map[port:80 value:b] does not contain declared merge key: name',
  },
  {
    name: 'deletion without merge key',
    original: { mergingList: [{ name: '1' }] },
    patch: { mergingList: [{ $patch: 'delete' }] },
    code: 500,
    reason: undefined,
    message: 'map: map[$patch:delete] does not contain declared merge key: name',
  },
  {
    name: '$patch: merge in a list',
    original: { mergingList: [{ name: '1' }] },
    patch: { mergingList: [{ name: '1', $patch: 'merge' }] },
    code: 500,
    reason: undefined,
    message: 'merging lists cannot yet be specified in the patch',
  },
  {
    name: 'unknown $patch in a map',
    original: { simpleMap: { a: 'b' } },
    patch: { simpleMap: { $patch: 'merge', x: 'y' } },
    code: 500,
    reason: undefined,
    message: 'unknown patch type: merge in map: map[$patch:merge x:y]',
  },
  {
    name: 'unknown $patch in a list element',
    original: { mergingList: [{ name: '1' }] },
    patch: { mergingList: [{ name: '1', $patch: 7 }] },
    code: 500,
    reason: undefined,
    message: 'unknown patch type: %!s(int64=7) in map: map[$patch:7 name:1]',
  },
  {
    name: '$retainKeys not a list',
    original: { retainKeysMap: { name: 'a' } },
    patch: { retainKeysMap: { $retainKeys: 'name' } },
    code: 400,
    reason: 'BadRequest',
    message: 'invalid patch format of retainKeys',
  },
  {
    name: 'patch key missing from $retainKeys',
    original: { retainKeysMap: { name: 'a' } },
    patch: { retainKeysMap: { $retainKeys: ['name'], value: 'v' } },
    code: 400,
    reason: 'BadRequest',
    message: 'invalid patch format of retainKeys',
  },
  {
    name: '$setElementOrder without a list name',
    original: {},
    patch: { $setElementOrder: [] },
    code: 400,
    reason: 'BadRequest',
    message: 'invalid patch format of setElementOrder list',
  },
  {
    name: '$deleteFromPrimitiveList without a list name',
    original: { mergingIntList: [1] },
    patch: { $deleteFromPrimitiveListmergingIntList: [1] },
    code: 400,
    reason: 'BadRequest',
    message: 'invalid patch format of primitive list',
  },
  {
    name: '$setElementOrder not a list',
    original: {},
    patch: { '$setElementOrder/mergingList': 'x' },
    code: 500,
    reason: undefined,
    message: 'expected a []interface {}, but received a string',
  },
  {
    name: 'patch list out of $setElementOrder order',
    original: { mergingIntList: [1, 3, 2] },
    patch: { '$setElementOrder/mergingIntList': [1, 2, 3], mergingIntList: [3, 1] },
    code: 500,
    reason: undefined,
    message: "the order in patch list:\n[3 1]\n doesn't match $setElementOrder list:\n[1 2 3]",
  },
  {
    name: 'mixed element types',
    original: { mergingIntList: [1, 2] },
    patch: { mergingIntList: ['a'] },
    code: 500,
    reason: undefined,
    message: 'list element types are not identical: [[1 2] [a]]',
  },
  {
    name: 'a list of lists',
    original: { mergingIntList: [[1]] },
    patch: { mergingIntList: [[2]] },
    code: 422,
    reason: 'Invalid',
    message: 'the server rejected our request due to an error in our request',
  },
];

describe('applyStrategicMergePatch: errors', () => {
  for (const c of cases) {
    it(c.name, () => {
      assert.throws(
        () => apply(c.original, c.patch),
        (e: unknown) => {
          assert.ok(e instanceof StrategicMergePatchError);
          assert.ok(e instanceof StatusError);
          assert.equal(e.code, c.code);
          assert.equal(e.status.reason, c.reason);
          assert.equal(e.status.message, c.message);
          return true;
        },
      );
    });
  }
  it('the 422 keeps upstream text aside and renders details {}', () => {
    try {
      apply({ mergingIntList: [[1]] }, { mergingIntList: [[2]] });
      assert.fail('expected an error');
    } catch (e) {
      assert.ok(e instanceof StrategicMergePatchError);
      assert.equal(e.upstreamMessage, 'lists of lists are not supported');
      assert.deepEqual(e.status.details, {});
    }
  });
  it('a 500 has no reason in its JSON', () => {
    try {
      apply({ mergingList: [{ name: 'a' }] }, { mergingList: [{ value: 'b' }] });
      assert.fail('expected an error');
    } catch (e) {
      assert.ok(e instanceof StatusError);
      assert.equal('reason' in JSON.parse(JSON.stringify(e.status)), false);
    }
  });
});

describe('decodeStrategicMergePatch', () => {
  const rejected: [unknown, string][] = [
    ['s', 'string'],
    [1, 'number'],
    [true, 'bool'],
    [[], 'array'],
  ];
  for (const [body, kind] of rejected) {
    it(`rejects a ${kind} body with 400`, () => {
      assert.throws(
        () => decodeStrategicMergePatch(body),
        (e: unknown) =>
          e instanceof StatusError &&
          e.code === 400 &&
          e.status.message ===
            `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`,
      );
    });
  }
  it('treats null as the empty patch', () => assert.deepEqual(decodeStrategicMergePatch(null), {}));
});

describe('goValue: Go %v of decoded JSON', () => {
  const table: [unknown, string][] = [
    [{ b: 1, a: 'x' }, 'map[a:x b:1]'],
    [[1, 'a', true, null], '[1 a true <nil>]'],
    [1.5, '1.5'],
    [1234567.5, '1.2345675e+06'],
    [0.00001, '1e-05'],
    [{ m: { n: [] } }, 'map[m:map[n:[]]]'],
  ];
  for (const [v, want] of table) it(want, () => assert.equal(goValue(v), want));
});
