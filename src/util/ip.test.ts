import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { canonicalIPv6, ipFamily } from './ip.js';

describe('ipFamily', () => {
  const cases: Array<[string, 0 | 4 | 6]> = [
    ['127.0.0.1', 4],
    ['255.255.255.255', 4],
    ['256.1.1.1', 0],
    ['01.2.3.4', 0],
    ['::1', 6],
    ['0:0:0:0:0:0:0:1', 6],
    ['fe80::1:2', 6],
    ['::ffff:127.0.0.1', 6],
    ['localhost', 0],
    ['1.2.3', 0],
    [':::', 0],
    ['', 0],
  ];
  for (const [text, family] of cases) {
    it(`${JSON.stringify(text)} → ${family}`, () => assert.equal(ipFamily(text), family));
  }

  it('agrees with node:net isIP on generated addresses', () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6(), fc.string({ maxLength: 12 })), (s) => {
        assert.equal(ipFamily(s), isIP(s));
      }),
      { numRuns: 2000 },
    );
  });

  it('canonicalises IPv6', () => {
    assert.equal(canonicalIPv6('0:0:0:0:0:0:0:1'), '::1');
    assert.equal(canonicalIPv6('FE80:0:0::1'), 'fe80::1');
  });
});
