import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { IpAllocator } from './ip-allocator.js';

describe('IpAllocator', () => {
  it('hands out .2 … .254 of a /24, then nothing', () => {
    const a = new IpAllocator('10.244.3.0/24');
    const ips = Array.from({ length: 253 }, (_, i) => a.allocate(`u${i}`));
    assert.equal(ips[0], '10.244.3.2');
    assert.equal(ips[252], '10.244.3.254');
    assert.equal(new Set(ips).size, 253);
    assert.equal(a.allocate('one-more'), undefined);
    assert.deepEqual(a.range, ['10.244.3.1', '10.244.3.254']);
  });

  it('is idempotent per uid and continues round-robin after a release', () => {
    const a = new IpAllocator('10.244.1.0/24');
    assert.equal(a.allocate('a'), '10.244.1.2');
    assert.equal(a.allocate('a'), '10.244.1.2');
    assert.equal(a.allocate('b'), '10.244.1.3');
    a.release('a');
    assert.equal(a.allocate('c'), '10.244.1.4');
  });

  it('reserves seen IPs and refuses foreign or taken ones', () => {
    const a = new IpAllocator('10.244.1.0/24');
    const cases: [string, string, boolean][] = [
      ['a', '10.244.1.2', true],
      ['b', '10.244.1.2', false],
      ['c', '10.244.2.9', false],
      ['d', '10.244.1.255', false],
      ['a', '10.244.1.2', true],
    ];
    for (const [uid, ip, want] of cases) assert.equal(a.reserve(uid, ip), want, `${uid} ${ip}`);
    assert.equal(a.allocate('e'), '10.244.1.3');
  });

  it('never gives one IP to two live pods (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 20 })), { maxLength: 200 }),
        (ops) => {
          const a = new IpAllocator('10.0.0.0/28');
          const live = new Map<string, string>();
          for (const [alloc, id] of ops) {
            const uid = `u${id}`;
            if (alloc) {
              const ip = a.allocate(uid);
              if (ip !== undefined) live.set(uid, ip);
              else assert.equal(a.size, 13);
            } else {
              a.release(uid);
              live.delete(uid);
            }
          }
          assert.equal(new Set(live.values()).size, live.size);
          assert.equal(a.size, live.size);
          for (const ip of live.values()) assert.ok(a.contains(ip));
        },
      ),
    );
  });
});
