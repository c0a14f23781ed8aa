import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { LOG_REDACT_PATHS, REDACTED, redactSecrets } from './redact.js';
import { generateToken } from './token.js';

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
