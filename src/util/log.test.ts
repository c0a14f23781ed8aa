import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { addLogSecret, createLogger, LOG_FORMAT_ENV, logFormatFromEnv } from './log.js';
import { REDACTED } from './redact.js';

/** A token shaped as `security/token.ts` makes them (32 random bytes, base64url). */
const generateToken = (): string => randomBytes(32).toString('base64url');

/** A logger writing into an array, flushed. */
function capture(): { lines: string[]; log: ReturnType<typeof createLogger> } {
  const lines: string[] = [];
  const log = createLogger('debug', 'test', { write: (s: string) => void lines.push(s) });
  return { lines, log };
}

describe('createLogger', () => {
  it('never writes a registered secret, wherever it appears in a line', () => {
    const token = generateToken();
    addLogSecret(token);
    const { lines, log } = capture();
    log.info({ url: `/api/${token}` }, 'request');
    log.error({ err: new Error(`refused ${token}`) }, `failed for ${token}`);
    log.info({ nested: { deeper: [token] } }, 'object');
    assert.equal(lines.length, 3);
    for (const line of lines) {
      assert.ok(!line.includes(token), line);
      assert.ok(line.includes(REDACTED), line);
    }
  });

  it('drops credential headers of `headers` and `req`, whatever their case or suffix', () => {
    const { lines, log } = capture();
    const headers = {
      authorization: 'Bearer abc',
      cookie: 'session=topsecret1',
      'impersonate-extra-scope': 'topsecret2',
      'x-remote-user': 'topsecret3',
      'user-agent': 'kubectl/v1.33.0',
    };
    log.info({ headers }, 'headers');
    log.info({ req: { method: 'GET', url: '/api?access_token=topsecret4', headers } }, 'req');
    for (const line of lines) {
      for (const secret of ['abc', 'topsecret1', 'topsecret2', 'topsecret3', 'topsecret4']) {
        assert.ok(!line.includes(secret), `${secret} in ${line}`);
      }
      assert.ok(line.includes('kubectl/v1.33.0'));
    }
  });

  it('redacts unknown credentials by shape (Bearer, a JWT)', () => {
    const { lines, log } = capture();
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    log.warn({ detail: `Bearer other-cluster-token, then ${jwt}` }, 'odd');
    assert.ok(!lines[0]!.includes('other-cluster-token'));
    assert.ok(!lines[0]!.includes(jwt));
  });

  it('ignores secrets too short to be tokens (they would match ordinary text)', () => {
    addLogSecret('api');
    const { lines, log } = capture();
    log.info({ url: '/api/v1' }, 'request');
    assert.ok(lines[0]!.includes('/api/v1'));
  });
});

describe('createLogger: the format', () => {
  const record = (line: string): unknown => JSON.parse(line);
  function firstLine(output: Parameters<typeof createLogger>[3]): string {
    const lines: string[] = [];
    const log = createLogger('info', 'test', { write: (s: string) => void lines.push(s) }, output);
    log.info({ k: 'v' }, 'hello');
    return lines[0] ?? '';
  }

  it('JSON lines unless told otherwise', () => {
    assert.deepEqual(Object.keys(JSON.parse(firstLine({}))), [
      'level',
      'time',
      'component',
      'k',
      'msg',
    ]);
  });

  it('text when asked: one human line', () => {
    const line = firstLine({ format: 'text', style: { colors: false } });
    assert.match(line, /^\d\d:\d\d:\d\d\.\d{3} INFO {2}test hello k=v\n$/);
  });

  it(`the default comes from ${LOG_FORMAT_ENV} (the controller thread inherits it)`, () => {
    const saved = process.env[LOG_FORMAT_ENV];
    try {
      process.env[LOG_FORMAT_ENV] = 'text';
      assert.match(firstLine({ style: { colors: false } }), / INFO {2}test hello k=v\n$/);
      assert.doesNotThrow(() => record(firstLine({ format: 'json' })));
    } finally {
      if (saved === undefined) delete process.env[LOG_FORMAT_ENV];
      else process.env[LOG_FORMAT_ENV] = saved;
    }
  });

  const envCases: [string | undefined, string | undefined][] = [
    ['json', 'json'],
    ['text', 'text'],
    ['TEXT', undefined],
    ['', undefined],
    [undefined, undefined],
  ];
  for (const [value, want] of envCases) {
    it(`${LOG_FORMAT_ENV}=${JSON.stringify(value)}: ${want ?? 'no format'}`, () => {
      assert.equal(logFormatFromEnv(value === undefined ? {} : { [LOG_FORMAT_ENV]: value }), want);
    });
  }

  it('a secret holding a quote or a backslash is redacted as JSON escapes it', () => {
    const secret = 'quote"and\\slash-42';
    addLogSecret(secret);
    const { lines, log } = capture();
    log.info({ value: secret }, `message ${secret}`);
    assert.ok(!lines[0]!.includes(JSON.stringify(secret).slice(1, -1)), lines[0]);
    const { value, msg } = JSON.parse(lines[0]!);
    assert.deepEqual({ value, msg }, { value: REDACTED, msg: `message ${REDACTED}` });
  });
});
