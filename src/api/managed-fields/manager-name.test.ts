import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  managerOrUserAgent,
  prefixFromUserAgent,
  validateFieldManager,
  validateWriteOptions,
} from './index.js';

describe('prefixFromUserAgent', () => {
  const cases: [string, string][] = [
    ['kubectl/v1.31.9 (linux/amd64) kubernetes/abcdef', 'kubectl'],
    ['kubectl.1.31/v1.31.9 (darwin/arm64) kubernetes/x', 'kubectl.1.31'],
    ['node-fetch', 'node-fetch'],
    ['', ''],
    ['bad\u0007name/1', 'badname'],
    [`${'é'.repeat(70)}/x`, 'é'.repeat(64)],
  ];
  for (const [ua, want] of cases) {
    it(JSON.stringify(ua.slice(0, 30)), () => assert.equal(prefixFromUserAgent(ua), want));
  }
  it('prefers an explicit fieldManager', () => {
    assert.equal(managerOrUserAgent('helm', 'kubectl/v1'), 'helm');
    assert.equal(managerOrUserAgent(undefined, 'kubectl/v1'), 'kubectl');
  });
});

describe('write options validation', () => {
  const cases: {
    name: string;
    kind: 'PatchOptions' | 'CreateOptions';
    input: object;
    message: string | undefined;
  }[] = [
    {
      name: 'apply with a manager',
      kind: 'PatchOptions',
      input: { fieldManager: 'm', isApply: true, force: false },
      message: undefined,
    },
    {
      name: 'apply without a manager',
      kind: 'PatchOptions',
      input: { isApply: true },
      message:
        'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    },
    {
      name: 'force on a merge patch',
      kind: 'PatchOptions',
      input: { fieldManager: 'm', force: false },
      message:
        'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    },
    {
      name: '129-byte manager',
      kind: 'CreateOptions',
      input: { fieldManager: 'x'.repeat(129) },
      message:
        'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const err = validateWriteOptions(c.kind, c.input);
      assert.equal(err?.message, c.message);
      if (err) assert.equal(err.code, 422);
    });
  }
  it('reports unprintable characters with their byte position', () => {
    assert.deepEqual(
      validateFieldManager('ab\tc').map((e) => e.detail),
      ['invalid character U+0009 (at position 2)'],
    );
  });
});

/** The per-character rules, as upstream states them: the ASCII fast paths must agree. */
describe('manager names: ASCII fast path agrees with the per-character rules', () => {
  const encoder = new TextEncoder();
  const isPrint = (ch: string) => ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
  const reference = (ua: string): string => {
    let out = '';
    let bytes = 0;
    for (const ch of ua.split('/')[0] ?? '') {
      if (!isPrint(ch)) continue;
      const n = encoder.encode(ch).length;
      if (bytes + n > 128) break;
      out += ch;
      bytes += n;
    }
    return out;
  };
  const ascii = fc.string({
    unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)),
    maxLength: 300,
  });
  it('prefixFromUserAgent', () => {
    fc.assert(fc.property(ascii, (ua) => assert.equal(prefixFromUserAgent(ua), reference(ua))));
  });
  it('validateFieldManager reports what the per-character check reports', () => {
    fc.assert(
      fc.property(ascii, (name) => {
        const errs = validateFieldManager(name);
        const tooLong = encoder.encode(name).length > 128;
        const unprintable = [...name].filter((ch) => !isPrint(ch)).length;
        assert.equal(errs.length, (tooLong ? 1 : 0) + unprintable);
      }),
    );
  });
});
