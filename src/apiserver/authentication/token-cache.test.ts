import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TokenAuthenticator } from './bearer-tokens.js';
import { cachedTokenAuthenticator, TOKEN_SUCCESS_CACHE_TTL_MS } from './token-cache.js';

const user = { username: 'system:serviceaccount:ns:sa', groups: ['system:serviceaccounts'] };

/** An authenticator whose answer the test changes (a ServiceAccount deleted, say). */
function switchable() {
  let valid = true;
  const inner: TokenAuthenticator = {
    authenticate: (token) =>
      token === 'good' && valid ? { user } : token === 'good' ? new Error('gone') : undefined,
  };
  return { inner, revoke: () => (valid = false) };
}

describe('cachedTokenAuthenticator', () => {
  it('keeps a success for the TTL, then asks again (upstream: a revoked token works ≤ 10 s)', async () => {
    let now = 0;
    const s = switchable();
    const cached = cachedTokenAuthenticator(s.inner, [{ now: () => now }]);
    assert.deepEqual(await cached.authenticate('good'), { user });
    s.revoke();
    now += TOKEN_SUCCESS_CACHE_TTL_MS - 1;
    assert.deepEqual(await cached.authenticate('good'), { user }, 'still cached');
    now += 1;
    assert.ok((await cached.authenticate('good')) instanceof Error, 'expired: asked again');
  });

  it('never caches a failure, nor a token that is not its kind', async () => {
    let now = 0;
    const s = switchable();
    s.revoke();
    const cached = cachedTokenAuthenticator(s.inner, [{ now: () => now }]);
    assert.ok((await cached.authenticate('good')) instanceof Error);
    assert.equal(await cached.authenticate('other'), undefined);
    now += 1;
    assert.ok((await cached.authenticate('good')) instanceof Error);
  });

  it('keys by the audiences asked for', async () => {
    let calls = 0;
    const inner: TokenAuthenticator = {
      authenticate: (_t, audiences) => {
        calls++;
        return audiences?.includes('vault') ? new Error('wrong audience') : { user };
      },
    };
    const cached = cachedTokenAuthenticator(inner, [{ now: () => 0 }]);
    await cached.authenticate('t');
    await cached.authenticate('t');
    assert.ok((await cached.authenticate('t', ['vault'])) instanceof Error);
    assert.equal(calls, 2);
  });

  it('ends an entry when any of its clocks passes the TTL (a paused or a jumping virtual clock)', async () => {
    const wall = 0;
    let cluster = 0;
    const s = switchable();
    const cached = cachedTokenAuthenticator(s.inner, [{ now: () => wall }, { now: () => cluster }]);
    await cached.authenticate('good');
    s.revoke();
    cluster += 60_000; // a virtual jump, wall time still
    assert.ok((await cached.authenticate('good')) instanceof Error);
  });
});
