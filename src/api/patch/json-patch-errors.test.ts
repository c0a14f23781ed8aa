import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applyJsonPatch,
  JSON_PATCH_APPLY_MESSAGE,
  JsonPatchApplyError,
  JsonPatchDecodeError,
  JsonPatchTooLargeError,
  MAX_JSON_PATCH_OPERATIONS,
} from './json-patch.js';

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

describe('applyJsonPatch: operations that fail to apply', () => {
  const failing: { name: string; doc: unknown; patch: unknown[]; detail: string }[] = [
    {
      name: 'replace of a missing member',
      doc: {},
      patch: [{ op: 'replace', path: '/a', value: 1 }],
      detail: 'replace operation does not apply: doc is missing key: /a',
    },
    {
      name: 'remove of a missing member',
      doc: {},
      patch: [{ op: 'remove', path: '/a' }],
      detail: 'Unable to remove nonexistent key: a',
    },
    {
      name: 'remove of the document',
      doc: {},
      patch: [{ op: 'remove', path: '' }],
      detail: 'cannot remove the whole document',
    },
    {
      name: 'test of a missing member',
      doc: {},
      patch: [{ op: 'test', path: '/a', value: null }],
      detail: 'doc is missing path: "/a"',
    },
    {
      name: 'unknown op',
      doc: {},
      patch: [{ op: 'merge', path: '/a' }],
      detail: 'Unexpected kind: merge',
    },
    { name: 'missing op', doc: {}, patch: [{ path: '/a' }], detail: 'Unexpected kind: unknown' },
    { name: 'null operation', doc: {}, patch: [null], detail: 'Unexpected kind: unknown' },
    {
      name: 'missing path',
      doc: {},
      patch: [{ op: 'add', value: 1 }],
      detail: 'operation missing path field',
    },
    {
      name: 'missing value',
      doc: {},
      patch: [{ op: 'add', path: '/a' }],
      detail: 'add operation missing value field',
    },
    {
      name: 'missing from',
      doc: {},
      patch: [{ op: 'copy', path: '/a' }],
      detail: 'operation missing from field',
    },
    {
      name: 'pointer without a leading slash',
      doc: { a: 1 },
      patch: [{ op: 'remove', path: 'a' }],
      detail: 'JSON pointer must start with \'/\': "a"',
    },
    {
      name: 'bad ~ escape',
      doc: {},
      patch: [{ op: 'add', path: '/a~2', value: 1 }],
      detail: 'invalid escape in JSON pointer: "/a~2"',
    },
    {
      name: 'index past the end',
      doc: { a: [1] },
      patch: [{ op: 'add', path: '/a/2', value: 1 }],
      detail: 'Unable to access invalid index: 2 in "/a/2"',
    },
    {
      name: 'leading zero index',
      doc: { a: [1, 2] },
      patch: [{ op: 'remove', path: '/a/01' }],
      detail: 'Unable to access invalid index: 01 in "/a/01"',
    },
    {
      name: 'negative index',
      doc: { a: [1, 2] },
      patch: [{ op: 'remove', path: '/a/-1' }],
      detail: 'Unable to access invalid index: -1 in "/a/-1"',
    },
    {
      name: '- outside add',
      doc: { a: [1] },
      patch: [{ op: 'replace', path: '/a/-', value: 1 }],
      detail: 'Unable to access invalid index: - in "/a/-"',
    },
    {
      name: 'move into its own child',
      doc: { a: { b: {} } },
      patch: [{ op: 'move', from: '/a', path: '/a/b/c' }],
      detail: 'move operation: "from" /a is a prefix of "path" /a/b/c',
    },
    {
      name: 'path through a scalar',
      doc: { a: 1 },
      patch: [{ op: 'add', path: '/a/b', value: 1 }],
      detail: 'doc is missing path: "/a/b"',
    },
    {
      name: 'a later op fails',
      doc: {},
      patch: [
        { op: 'add', path: '/a', value: 1 },
        { op: 'test', path: '/a', value: 2 },
      ],
      detail: 'testing value /a failed',
    },
  ];
  for (const { name, doc, patch, detail } of failing) {
    it(`${name} → 422 with upstream's generic message`, () => {
      assert.throws(
        () => apply(doc, patch),
        (e: unknown) => {
          assert.ok(e instanceof JsonPatchApplyError);
          assert.equal(e.kind, 'apply');
          assert.equal(e.code, 422);
          assert.equal(e.status.reason, 'Invalid');
          assert.equal(e.message, JSON_PATCH_APPLY_MESSAGE);
          assert.equal(e.message, 'the server rejected our request due to an error in our request');
          assert.deepEqual(e.status.details, {});
          assert.equal(e.detail, detail);
          assert.equal(e.operationIndex, patch.length - 1);
          return true;
        },
      );
    });
  }
});

describe('applyJsonPatch: undecodable and oversized patches', () => {
  const undecodable: { patch: unknown; message: string }[] = [
    {
      patch: { op: 'add' },
      message: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    },
    { patch: 'x', message: 'json: cannot unmarshal string into Go value of type jsonpatch.Patch' },
    { patch: 1, message: 'json: cannot unmarshal number into Go value of type jsonpatch.Patch' },
    { patch: true, message: 'json: cannot unmarshal bool into Go value of type jsonpatch.Patch' },
    {
      patch: [{ op: 'test', path: '', value: 1 }, 'x'],
      message: 'json: cannot unmarshal string into Go value of type jsonpatch.Operation',
    },
    {
      patch: [[]],
      message: 'json: cannot unmarshal array into Go value of type jsonpatch.Operation',
    },
  ];
  for (const { patch, message } of undecodable) {
    it(`${JSON.stringify(patch)} → 400`, () => {
      assert.throws(
        () => apply({}, patch),
        (e: unknown) => {
          assert.ok(e instanceof JsonPatchDecodeError);
          assert.equal(e.kind, 'decode');
          assert.equal(e.code, 400);
          assert.equal(e.status.reason, 'BadRequest');
          assert.equal(e.message, message);
          return true;
        },
      );
    });
  }

  it(`accepts ${MAX_JSON_PATCH_OPERATIONS} operations and refuses one more with 413`, () => {
    const op = { op: 'test', path: '/a', value: 1 };
    assert.deepEqual(apply({ a: 1 }, Array(MAX_JSON_PATCH_OPERATIONS).fill(op)), { a: 1 });
    assert.throws(
      () => apply({ a: 1 }, Array(MAX_JSON_PATCH_OPERATIONS + 1).fill(op)),
      (e: unknown) => {
        assert.ok(e instanceof JsonPatchTooLargeError);
        assert.equal(e.code, 413);
        assert.equal(e.status.reason, 'RequestEntityTooLarge');
        assert.equal(
          e.message,
          'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
        );
        return true;
      },
    );
  });

  it('checks the count before applying anything', () => {
    const bad = { op: 'test', path: '/a', value: 2 };
    assert.throws(
      () => apply({ a: 1 }, Array(MAX_JSON_PATCH_OPERATIONS + 1).fill(bad)),
      JsonPatchTooLargeError,
    );
  });
});
