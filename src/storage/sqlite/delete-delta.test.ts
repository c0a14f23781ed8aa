import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { applyDeleteDelta, encodeDeleteDelta } from './delete-delta.js';

describe('delete records (format 2)', () => {
  it('keeps only the changed resourceVersion of a plain delete', () => {
    const data = 'x'.repeat(5000);
    const prev = `{"metadata":{"name":"a","resourceVersion":"41"},"data":"${data}"}`;
    const final = `{"metadata":{"name":"a","resourceVersion":"123456"},"data":"${data}"}`;
    const delta = encodeDeleteDelta(prev, final);
    assert.ok(delta.length < 20, delta);
    assert.equal(applyDeleteDelta(prev, delta), final);
  });

  it('rebuilds any final value from any previous one', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (prev, final) => {
        assert.equal(applyDeleteDelta(prev, encodeDeleteDelta(prev, final)), final);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), fc.string(), (a, b, c, d) => {
        // Edits in the middle of a shared text: the record holds the middle only.
        const prev = a + b + d;
        const final = a + c + d;
        const delta = encodeDeleteDelta(prev, final);
        assert.equal(applyDeleteDelta(prev, delta), final);
        assert.ok(delta.length <= c.length + String(prev.length).length * 2 + 2);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a malformed record', () => {
    assert.throws(() => applyDeleteDelta('abc', 'nonsense'), /malformed delete record/);
    assert.throws(() => applyDeleteDelta('abc', '2:2:x'), /malformed delete record/);
  });
});
