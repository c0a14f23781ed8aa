import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applyJsonPatch,
  JSON_PATCH_APPLY_MESSAGE,
  JsonPatchApplyError,
  JsonPatchTooDeepError,
  JsonPatchTooLargeError,
  MAX_COPY_BYTES,
} from './json-patch.js';

/** One add of `bytes` bytes, then `copies` copies of the growing document onto itself. */
function amplifying(bytes: number, copies: number): unknown[] {
  const ops: unknown[] = [{ op: 'add', path: '/a', value: 'x'.repeat(bytes) }];
  for (let i = 0; i < copies; i++) ops.push({ op: 'copy', from: '', path: `/c${i}` });
  return ops;
}

describe('JSON patch budgets', () => {
  it('refuses copies adding more than 3 MiB (upstream JSONPatchMaxCopyBytes), quickly', () => {
    const start = performance.now();
    assert.throws(
      () => applyJsonPatch({}, amplifying(1000, 40)),
      (e: unknown) => {
        assert.ok(e instanceof JsonPatchApplyError);
        assert.equal(e.code, 422);
        assert.equal(e.message, JSON_PATCH_APPLY_MESSAGE);
        assert.match(
          e.detail,
          /^Unable to complete the copy, the accumulated size increase of copy is \d+, exceeding the limit 3145728$/,
        );
        assert.equal(e.operationIndex, 12); // 1 KB doubles past 3 MiB at the 12th copy
        return true;
      },
    );
    assert.ok(performance.now() - start < 2000);
  });

  it('accepts copies up to the limit', () => {
    const value = 'x'.repeat(MAX_COPY_BYTES / 4 - 2); // 4 copies of its JSON: exactly the limit
    const ops = [{ op: 'add', path: '/a', value }];
    for (let i = 0; i < 4; i++) ops.push({ op: 'copy', from: '/a', path: `/b${i}` } as never);
    assert.doesNotThrow(() => applyJsonPatch({}, ops));
    ops.push({ op: 'copy', from: '/a', path: '/b4' } as never);
    assert.throws(() => applyJsonPatch({}, ops), JsonPatchApplyError);
  });

  it('refuses more than 10,000 operations with 413 and upstream text', () => {
    const ops = Array.from({ length: 10_001 }, () => ({ op: 'test', path: '', value: {} }));
    assert.throws(() => applyJsonPatch({}, ops), {
      name: 'JsonPatchTooLargeError',
      message:
        'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
    });
    assert.ok(new JsonPatchTooLargeError(1).code === 413);
  });

  const deepening: Array<[string, unknown, unknown[]]> = [
    [
      'copies of the root into itself',
      { a: {} },
      Array.from({ length: 600 }, (_, i) => ({
        op: 'copy',
        from: '',
        path: `/a${i === 0 ? '' : ''}`,
      })),
    ],
    [
      'a copy chain down one path',
      { a: {} },
      Array.from({ length: 600 }, (_, i) => ({
        op: 'copy',
        from: '/a',
        path: `${'/a'.repeat(i + 1)}/a`,
      })),
    ],
    [
      'a shallow value added 510 levels down, built by moves',
      {},
      [
        { op: 'add', path: '/x', value: JSON.parse(`${'{"a":'.repeat(300)}{}${'}'.repeat(300)}`) },
        { op: 'add', path: '/y', value: JSON.parse(`${'{"a":'.repeat(300)}{}${'}'.repeat(300)}`) },
        { op: 'move', from: '/y', path: `/x${'/a'.repeat(299)}/y` },
      ],
    ],
  ];
  for (const [name, target, ops] of deepening) {
    it(`refuses a document deeper than 500 levels: ${name} (422, no stack overflow)`, () => {
      assert.throws(
        () => applyJsonPatch(target, ops),
        (e: unknown) => {
          assert.ok(e instanceof JsonPatchTooDeepError, String(e));
          assert.equal(e.code, 422);
          assert.match(e.message, /more than 500 levels deep/);
          return true;
        },
      );
    });
  }

  it('moves one wide subtree back and forth 10,000 times in bounded time', () => {
    const wide = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, { v: i }]));
    const ops = Array.from({ length: 10_000 }, (_, i) =>
      i % 2 === 0 ? { op: 'move', from: '/w', path: '/z' } : { op: 'move', from: '/z', path: '/w' },
    );
    const start = performance.now();
    applyJsonPatch({ w: wide }, ops);
    assert.ok(performance.now() - start < 5000, `${performance.now() - start} ms`);
  });
});
