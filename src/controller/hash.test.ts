import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  canonicalJson,
  computeTemplateHash,
  fnv32,
  fnv32a,
  hashControllerRevision,
  SAFE_ALPHANUMS,
  safeEncodeString,
} from './hash.js';

const SAFE_HASH = /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/;

describe('fnv32 / fnv32a', () => {
  // Golden values of Go's hash/fnv tests (fnv_test.go golden32 / golden32a).
  const cases = [
    { input: '', fnv1: 0x811c9dc5, fnv1a: 0x811c9dc5 },
    { input: 'a', fnv1: 0x050c5d7e, fnv1a: 0xe40c292c },
    { input: 'ab', fnv1: 0x70772d38, fnv1a: 0x4d2505ca },
    { input: 'abc', fnv1: 0x439c2f4b, fnv1a: 0x1a47e90b },
  ];
  for (const c of cases) {
    it(`hashes ${JSON.stringify(c.input)}`, () => {
      assert.equal(fnv32(c.input), c.fnv1);
      assert.equal(fnv32a(c.input), c.fnv1a);
    });
  }

  it('hashes parts as their concatenation', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        assert.equal(fnv32a(a, b), fnv32a(a + b));
        assert.equal(fnv32(a, b), fnv32(a + b));
      }),
    );
  });
});

describe('safeEncodeString', () => {
  // Digits are code points 48..57; mod 27 gives 21..26 then 0..3 of the alphabet.
  it('maps the decimal digits', () => {
    assert.equal(safeEncodeString('0123456789'), '456789bcdf');
  });

  it('keeps the length and uses only the safe alphabet', () => {
    fc.assert(
      fc.property(fc.nat(), (n) => {
        const out = safeEncodeString(String(n));
        assert.equal(out.length, String(n).length);
        for (const ch of out) assert.ok(SAFE_ALPHANUMS.includes(ch));
      }),
    );
  });
});

describe('canonicalJson', () => {
  const cases = [
    { name: 'sorts keys', a: { b: 1, a: 2 }, b: { a: 2, b: 1 }, equal: true },
    { name: 'drops null members', a: { a: null, b: 1 }, b: { b: 1 }, equal: true },
    { name: 'drops undefined members', a: { a: undefined, b: 1 }, b: { b: 1 }, equal: true },
    { name: 'keeps empty objects', a: { a: {} }, b: {}, equal: false },
    { name: 'keeps array order', a: [1, 2], b: [2, 1], equal: false },
    {
      name: 'nested keys sorted',
      a: { x: { d: 1, c: [{ z: 1, y: 2 }] } },
      b: { x: { c: [{ y: 2, z: 1 }], d: 1 } },
      equal: true,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(canonicalJson(c.a) === canonicalJson(c.b), c.equal);
    });
  }
});

describe('computeTemplateHash', () => {
  const template = {
    metadata: { labels: { app: 'web' } },
    spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
  };

  it('pins the canonical-JSON scheme', () => {
    // FNV-1a of the canonical JSON, then 8 little-endian collision-count bytes, safe-encoded.
    assert.equal(computeTemplateHash({}), safeEncodeString(String(fnv32a('{}'))));
    const le = new Uint8Array([1, 0, 0, 0, 0, 0, 0, 0]);
    assert.equal(computeTemplateHash({}, 1), safeEncodeString(String(fnv32a('{}', le))));
    const wrapped = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
    assert.equal(computeTemplateHash({}, -1), safeEncodeString(String(fnv32a('{}', wrapped))));
  });

  it('is stable under key order and null members', () => {
    const reordered = {
      spec: { containers: [{ image: 'nginx:1.25', name: 'c' }], nodeName: null },
      metadata: { labels: { app: 'web' } },
    };
    assert.equal(computeTemplateHash(reordered, 0), computeTemplateHash(template, 0));
  });

  it('changes with the template and with the collision count', () => {
    const changed = structuredClone(template);
    changed.spec.containers[0] = { name: 'c', image: 'nginx:1.26' };
    const hashes = new Set([
      computeTemplateHash(template),
      computeTemplateHash(template, 0),
      computeTemplateHash(template, 1),
      computeTemplateHash(template, 2),
      computeTemplateHash(changed),
    ]);
    assert.equal(hashes.size, 5);
  });

  it('renders 1-10 safe characters and never mutates the template', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.option(fc.integer({ min: -5, max: 1000 })), (t, cc) => {
        const before = JSON.stringify(t);
        const h = computeTemplateHash(t, cc);
        assert.match(h, SAFE_HASH);
        assert.equal(JSON.stringify(t), before);
        assert.equal(computeTemplateHash(structuredClone(t), cc), h);
      }),
    );
  });

  it('lets a collision count bump escape a collision', () => {
    // The Deployment controller retries with collisionCount+1 when the name is taken by a
    // different template; successive counts must give distinct hashes for the same template.
    const seen = new Set<string>();
    for (let cc = 0; cc < 200; cc++) seen.add(computeTemplateHash(template, cc));
    assert.equal(seen.size, 200);
  });
});

describe('hashControllerRevision', () => {
  it('is FNV-1 of the raw bytes, safe-encoded (exact with upstream)', () => {
    // fnv32("abc") = 0x439c2f4b = 1134309195 → digit by digit through the safe alphabet.
    assert.equal(hashControllerRevision('abc'), '557874f5f9');
  });

  it('appends the decimal collision count', () => {
    assert.equal(hashControllerRevision('abc', 0), safeEncodeString(String(fnv32('abc0'))));
    assert.equal(hashControllerRevision('abc', 12), safeEncodeString(String(fnv32('abc12'))));
    assert.equal(hashControllerRevision('abc', -1), safeEncodeString(String(fnv32('abc-1'))));
    assert.notEqual(hashControllerRevision('abc', 0), hashControllerRevision('abc'));
  });

  it('treats bytes and their UTF-8 string alike', () => {
    const raw = '{"spec":{"template":{"$patch":"replace"}}}';
    assert.equal(
      hashControllerRevision(new TextEncoder().encode(raw)),
      hashControllerRevision(raw),
    );
  });
});
