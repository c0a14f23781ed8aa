import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import {
  isSensitiveHeader,
  LOG_REDACT_PATHS,
  REDACTED,
  redactHeaders,
  redactSecrets,
} from './redact.js';

/** A token shaped as `security/token.ts` makes them (32 random bytes, base64url). */
const generateToken = (): string => randomBytes(32).toString('base64url');

describe('redactSecrets', () => {
  const token = generateToken();

  it('replaces every occurrence of every secret', () => {
    const other = generateToken();
    const line = `token=${token} again ${token}; other=${other}`;
    assert.equal(
      redactSecrets(line, [token, other]),
      `token=${REDACTED} again ${REDACTED}; other=${REDACTED}`,
    );
  });

  it('removes a secret whole when another secret is a part of it', () => {
    assert.equal(redactSecrets('x abcdef y', ['abc', 'abcdef']), `x ${REDACTED} y`);
  });

  it('ignores empty and missing secrets', () => {
    assert.equal(redactSecrets('plain text', ['', undefined]), 'plain text');
  });

  it('redacts any Bearer credential, known or not', () => {
    assert.equal(
      redactSecrets('Authorization: Bearer some.other-token+/= done', []),
      `Authorization: Bearer ${REDACTED} done`,
    );
    assert.equal(
      redactSecrets(`authorization: bearer ${token}`, []),
      `authorization: bearer ${REDACTED}`,
    );
    assert.equal(redactSecrets(`Bearer ${token}`, [token]), `Bearer ${REDACTED}`);
  });
});

describe('redactSecrets: credentials it does not know', () => {
  it('redacts Basic credentials', () => {
    const basic = Buffer.from('admin:hunter2').toString('base64');
    assert.equal(redactSecrets(`Basic ${basic}`, []), `Basic ${REDACTED}`);
  });

  it('redacts a JWT anywhere', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2EifQ.c2lnbmF0dXJl';
    assert.equal(redactSecrets(`got ${jwt} here`, []), `got ${REDACTED} here`);
  });

  it('redacts token and password fields in JSON and in text (a YAML error excerpt)', () => {
    const json = JSON.stringify({ msg: 'x', token: 'abc"def', password: 'p4ss', tokenFile: 'f' });
    const out = redactSecrets(json, []);
    assert.deepEqual(JSON.parse(out), {
      msg: 'x',
      token: REDACTED,
      password: REDACTED,
      tokenFile: 'f',
    });
    const yamlError = 'bad indentation at line 5:\n\n    token: s3cr3t-value\n   bad: [';
    assert.ok(!redactSecrets(yamlError, []).includes('s3cr3t-value'));
    assert.equal(redactSecrets('url?access_token=abc&x=1', []), `url?access_token=${REDACTED}&x=1`);
  });

  it('leaves ordinary text alone', () => {
    const text = '{"msg":"request","url":"/api/v1/namespaces/default/secrets/tokens","code":200}';
    assert.equal(redactSecrets(text, []), text);
  });
});

describe('redactHeaders', () => {
  it('replaces every credential or identity header, by pattern, and keeps the rest', () => {
    const headers = {
      authorization: 'Bearer x',
      'proxy-authorization': 'Basic y',
      cookie: 'a=b',
      'set-cookie': ['c=d'],
      'x-remote-user': 'alice',
      'x-remote-extra-scopes': 'admin',
      'impersonate-user': 'bob',
      'impersonate-extra-reason': 'r',
      'sec-websocket-protocol': 'base64url.bearer.authorization.k8s.io.dG9rZW4',
      'user-agent': 'kubectl/v1.33.0',
      accept: 'application/json',
    };
    const out = redactHeaders(headers) as Record<string, unknown>;
    for (const [name, value] of Object.entries(out)) {
      if (name === 'user-agent' || name === 'accept') assert.equal(value, headers[name]);
      else assert.equal(value, REDACTED, name);
    }
    assert.equal(isSensitiveHeader('Authorization'), true);
    assert.equal(isSensitiveHeader('Content-Type'), false);
  });
});

describe('LOG_REDACT_PATHS', () => {
  it('keeps credential headers out of pino output', () => {
    const token = generateToken();
    const lines: string[] = [];
    const log = pino(
      { redact: { paths: [...LOG_REDACT_PATHS], censor: REDACTED } },
      { write: (s: string) => lines.push(s) },
    );
    const headers = {
      authorization: `Bearer ${token}`,
      'proxy-authorization': `Basic ${token}`,
      cookie: `session=${token}`,
      'user-agent': 'kubectl/v1.31.0',
    };
    log.info({ req: { method: 'GET', url: '/api', headers } }, 'request');
    log.info({ headers }, 'bare headers');
    assert.equal(lines.length, 2);
    for (const line of lines) {
      assert.ok(!line.includes(token), line);
      const logged = JSON.parse(line) as { req?: { headers: object }; headers?: object };
      const h = (logged.req?.headers ?? logged.headers) as Record<string, string>;
      assert.equal(h.authorization, REDACTED);
      assert.equal(h['proxy-authorization'], REDACTED);
      assert.equal(h.cookie, REDACTED);
      assert.equal(h['user-agent'], 'kubectl/v1.31.0');
    }
  });
});
