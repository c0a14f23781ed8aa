import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { JwsError, MAX_TOKEN_BYTES, parseJws, signJws, verifyJws } from './jwt.js';
import { inMemoryServiceAccountKey, publicKeyFrom, serviceAccountKeyFrom } from './keys.js';

const key = inMemoryServiceAccountKey();
const keys = [publicKeyFrom(key.publicKey)];
const payload = { sub: 'system:serviceaccount:ns:sa', iss: 'https://issuer', aud: ['x'], n: 1 };

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const decodePart = (token: string, i: number): unknown =>
  JSON.parse(Buffer.from(token.split('.')[i] ?? '', 'base64url').toString('utf8'));

function rejects(token: string, keySet = keys): string {
  try {
    verifyJws(parseJws(token), keySet);
  } catch (err) {
    assert.ok(err instanceof JwsError, String(err));
    return err.message;
  }
  assert.fail('accepted');
}

describe('signJws / verifyJws', () => {
  it('round-trips, with upstream header and go-jose key order', () => {
    const token = signJws(key, { z: { b: 1, a: 2 }, a: 'x' });
    assert.equal(Object.keys(decodePart(token, 0) as object).join(), 'alg,kid');
    assert.deepEqual(decodePart(token, 0), { alg: 'RS256', kid: key.kid });
    assert.equal(
      Buffer.from(token.split('.')[1] ?? '', 'base64url').toString(),
      '{"a":"x","z":{"a":2,"b":1}}',
    );
    const jws = parseJws(token);
    verifyJws(jws, keys);
    assert.deepEqual(jws.payload, { a: 'x', z: { a: 2, b: 1 } });
  });

  it('signs and verifies ES256 with a P-256 key', () => {
    const ec = serviceAccountKeyFrom(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
    const token = signJws(ec, payload);
    verifyJws(parseJws(token), [publicKeyFrom(ec.publicKey)]);
    assert.equal(parseJws(token).signature.length, 64);
    // The RSA key does not verify it, even under the EC key's kid.
    assert.match(rejects(token), /no keys found/);
  });

  it('fails after any change of any byte (property)', () => {
    const token = signJws(key, payload);
    fc.assert(
      fc.property(
        fc.nat({ max: token.length - 1 }),
        fc.integer({ min: 1, max: 127 }),
        (at, delta) => {
          const code = token.charCodeAt(at);
          const changed =
            token.slice(0, at) + String.fromCharCode((code + delta) % 128) + token.slice(at + 1);
          fc.pre(changed !== token);
          let ok = false;
          try {
            verifyJws(parseJws(changed), keys);
            ok = true;
          } catch (err) {
            assert.ok(err instanceof JwsError);
            // No error quotes the token or a part of it.
            for (const part of changed.split('.')) {
              if (part.length > 8) assert.ok(!err.message.includes(part));
            }
          }
          assert.equal(ok, false, `accepted a change at ${at}`);
        },
      ),
      { numRuns: 300 },
    );
  });

  const [h, p, s] = signJws(key, payload).split('.') as [string, string, string];
  const cases: { name: string; token: string; error: RegExp }[] = [
    {
      name: 'alg none',
      token: `${b64({ alg: 'none', kid: key.kid })}.${p}.`,
      error: /invalid signature/,
    },
    {
      name: 'HS256 with the public key as secret',
      token: `${b64({ alg: 'HS256', kid: key.kid })}.${p}.${s}`,
      error: /invalid signature/,
    },
    {
      name: 'an unknown kid',
      token: `${b64({ alg: 'RS256', kid: 'other' })}.${p}.${s}`,
      error: /no keys found/,
    },
    { name: 'two parts', token: `${h}.${p}`, error: /not a compact JWS/ },
    { name: 'four parts', token: `${h}.${p}.${s}.x`, error: /not a compact JWS/ },
    { name: 'padding', token: `${h}.${p}.${s}==`, error: /base64url/ },
    { name: 'standard base64 alphabet', token: `${h}.${p}+.${s}`, error: /base64url/ },
    {
      name: 'header not JSON',
      token: `${Buffer.from('nope').toString('base64url')}.${p}.${s}`,
      error: /not JSON/,
    },
    { name: 'header an array', token: `${b64(['RS256'])}.${p}.${s}`, error: /not a JSON object/ },
    { name: 'payload a string', token: `${h}.${b64('x')}.${s}`, error: /not a JSON object/ },
    { name: 'no alg', token: `${b64({ kid: key.kid })}.${p}.${s}`, error: /no algorithm/ },
    {
      name: 'a critical header',
      token: `${b64({ alg: 'RS256', kid: key.kid, crit: ['b64'] })}.${p}.${s}`,
      error: /critical/,
    },
    {
      name: 'a truncated signature',
      token: `${h}.${p}.${s.slice(0, 40)}`,
      error: /invalid signature/,
    },
    { name: 'oversized', token: `${h}.${'A'.repeat(MAX_TOKEN_BYTES)}.${s}`, error: /too long/ },
  ];
  for (const c of cases) {
    it(`rejects ${c.name}`, () => {
      assert.match(rejects(c.token), c.error);
    });
  }

  it('rejects a token no key verifies without a kid (all keys tried)', () => {
    const other = serviceAccountKeyFrom(
      generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey,
    );
    const input = `${b64({ alg: 'ES256' })}.${b64(payload)}`;
    const sig = sign('sha256', Buffer.from(input), {
      key: other.privateKey,
      dsaEncoding: 'ieee-p1363',
    });
    const noKid = `${input}.${sig.toString('base64url')}`;
    assert.match(rejects(noKid), /invalid signature/);
    verifyJws(parseJws(noKid), [...keys, publicKeyFrom(other.publicKey)]);
  });
});
