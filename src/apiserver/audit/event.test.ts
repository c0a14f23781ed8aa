import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { microTime, parseIP, sourceIPs } from './event.js';

describe('parseIP (Go net.ParseIP then String)', () => {
  const table: [string, string | undefined][] = [
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:10.1.2.3', '10.1.2.3'],
    ['::FFFF:a01:203', '10.1.2.3'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['::1', '::1'],
    ['256.0.0.1', undefined],
    ['01.2.3.4', undefined],
    ['bogus', undefined],
    ['', undefined],
    ['1.2.3.4:80', undefined],
  ];
  for (const [input, want] of table)
    it(JSON.stringify(input), () => assert.equal(parseIP(input), want));
});

describe('sourceIPs', () => {
  const peer = { remoteAddress: '192.168.1.9' };
  const table: [string, Record<string, string>, string[]][] = [
    ['peer only', {}, ['192.168.1.9']],
    [
      'peer already last of the chain',
      { 'x-forwarded-for': '1.1.1.1, 192.168.1.9' },
      ['1.1.1.1', '192.168.1.9'],
    ],
    [
      'real IP added when not in the chain',
      { 'x-forwarded-for': '1.1.1.1', 'x-real-ip': '2.2.2.2' },
      ['1.1.1.1', '2.2.2.2', '192.168.1.9'],
    ],
    [
      'invalid entries skipped',
      { 'x-forwarded-for': 'x, ,3.3.3.3', 'x-real-ip': 'nope' },
      ['3.3.3.3', '192.168.1.9'],
    ],
  ];
  for (const [name, headers, want] of table) {
    it(name, () => assert.deepEqual(sourceIPs({ headers, socket: peer }), want));
  }
});

describe('microTime', () => {
  it('is RFC 3339 UTC with six fraction digits', () => {
    assert.equal(microTime(Date.UTC(2026, 11, 2, 5, 10, 0, 7)), '2026-12-02T05:10:00.007000Z');
    assert.equal(
      microTime(Date.UTC(2026, 11, 2, 5, 10, 0, 7) + 0.25),
      '2026-12-02T05:10:00.007250Z',
    );
  });
  it('round-trips to the millisecond', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(9999, 0, 1) }), (ms) => {
        const s = microTime(ms);
        assert.match(s, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
        assert.equal(Date.parse(s), ms);
      }),
    );
  });
});
