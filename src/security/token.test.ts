import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  bearerTokenFrom,
  ensureToken,
  generateToken,
  TOKEN_FILE,
  tokenMatcher,
  tokensEqual,
} from './token.js';

const root = mkdtempSync(join(tmpdir(), 'fleetyard-token-'));
after(() => rmSync(root, { recursive: true, force: true }));

const modeOf = (p: string) => statSync(p).mode & 0o777;
let n = 0;
const fresh = () => join(root, `case-${n++}`);

describe('ensureToken', () => {
  it('creates a 256-bit base64url token in a 0600 file inside a 0700 dir', async () => {
    const dir = fresh();
    const token = await ensureToken(dir);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(token, 'base64url').length, 32);
    assert.equal(readFileSync(join(dir, TOKEN_FILE), 'utf8').trim(), token);
    assert.equal(modeOf(join(dir, TOKEN_FILE)), 0o600);
    assert.equal(modeOf(dir), 0o700);
  });

  it('reuses the stored token across calls (restarts)', async () => {
    const dir = fresh();
    const first = await ensureToken(dir);
    const bytes = readFileSync(join(dir, TOKEN_FILE));
    assert.equal(await ensureToken(dir), first);
    assert.deepEqual(readFileSync(join(dir, TOKEN_FILE)), bytes);
    assert.notEqual(await ensureToken(fresh()), first);
  });

  it('accepts a 256-bit hex token written by hand', async () => {
    const dir = fresh();
    await ensureToken(dir);
    const hex = 'ab'.repeat(32);
    writeFileSync(join(dir, TOKEN_FILE), `${hex}\n`, { mode: 0o600 });
    assert.equal(await ensureToken(dir), hex);
  });

  it('regenerates an empty token file', async () => {
    const dir = fresh();
    await ensureToken(dir);
    writeFileSync(join(dir, TOKEN_FILE), '\n');
    assert.match(await ensureToken(dir), /^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses a token file others can read, without printing the token', async () => {
    const dir = fresh();
    const token = await ensureToken(dir);
    chmodSync(join(dir, TOKEN_FILE), 0o644);
    await assert.rejects(ensureToken(dir), (err: Error) => {
      assert.match(err.message, /chmod 600/);
      assert.ok(!err.message.includes(token));
      return true;
    });
  });

  it('refuses a weak or malformed token, without printing it', async () => {
    const dir = fresh();
    await ensureToken(dir);
    writeFileSync(join(dir, TOKEN_FILE), 'hunter2\n');
    await assert.rejects(ensureToken(dir), (err: Error) => {
      assert.match(err.message, /does not hold a valid token/);
      assert.ok(!err.message.includes('hunter2'));
      return true;
    });
  });
});

describe('tokensEqual', () => {
  const t = generateToken();
  it('is true only for identical tokens', () => {
    assert.equal(tokensEqual(t, `${t}`), true);
    assert.equal(tokensEqual(t, generateToken()), false);
    assert.equal(tokensEqual(t, `${t.slice(0, -1)}x`), t.endsWith('x'));
  });
  it('handles different lengths without throwing', () => {
    assert.equal(tokensEqual(t, t.slice(1)), false);
    assert.equal(tokensEqual(t, `${t}${t}`), false);
  });
  it('never matches an empty or missing token', () => {
    assert.equal(tokensEqual('', ''), false);
    assert.equal(tokensEqual(undefined, undefined), false);
    assert.equal(tokensEqual(t, undefined), false);
    assert.equal(tokensEqual(undefined, t), false);
  });
});

describe('bearerTokenFrom', () => {
  const cases: [string | string[] | undefined, string | undefined][] = [
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER abc', 'abc'],
    ['  Bearer abc \t', 'abc'],
    ['Bearer abc extra', 'abc'], // Go: SplitN(…, 3), the rest is ignored
    ['Bearer  abc', undefined], // Go: the second field is empty
    ['Bearer', undefined],
    ['Bearer ', undefined],
    ['Bearerabc', undefined],
    ['Basic dXNlcjpwYXNz', undefined],
    ['', undefined],
    [undefined, undefined],
    [['Bearer first', 'Bearer second'], 'first'],
    [[], undefined],
  ];
  for (const [header, want] of cases) {
    it(`${JSON.stringify(header)} → ${String(want)}`, () => {
      assert.equal(bearerTokenFrom(header), want);
    });
  }
});

describe('tokenMatcher', () => {
  it('accepts exactly the expected token', () => {
    const matches = tokenMatcher('abc-123');
    assert.equal(matches('abc-123'), true);
    for (const other of ['abc-12', 'abc-1234', 'ABC-123', '', undefined]) {
      assert.equal(matches(other), false, String(other));
    }
    assert.equal(tokenMatcher('')(''), false);
  });
});
