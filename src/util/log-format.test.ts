/**
 * Human log lines: the layout (time, level, component, message, fields), errors' stacks,
 * when colors are on, and that no registered secret survives into a human line, colored or
 * not, however it was written in the JSON record.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { stripVTControlCharacters } from 'node:util';
import fc from 'fast-check';
import { addLogSecret, createLogger, redactLogText } from './log.js';
import { colorsEnabled, formatLogRecord, humanLine, type LogStyle } from './log-format.js';
import { REDACTED } from './redact.js';

const PLAIN: LogStyle = { colors: false, timeZone: 'utc' };
const COLORED: LogStyle = { colors: true, timeZone: 'utc' };
/** 2026-01-02T03:04:05.006Z */
const TIME = Date.UTC(2026, 0, 2, 3, 4, 5, 6);
const ESC = '\u001b[';

describe('formatLogRecord', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'time, level, component, message and fields in that order',
      {
        level: 30,
        time: TIME,
        component: 'fleetyard',
        backend: 'memory',
        revision: 0,
        msg: 'storage opened',
      },
      '03:04:05.006 INFO  fleetyard storage opened backend=memory revision=0\n',
    ],
    [
      'a controller child logger names its controller after the component',
      {
        level: 40,
        time: TIME,
        component: 'controller-manager',
        controller: 'statefulset',
        pod: 'default/web-0',
        msg: 'slow',
      },
      '03:04:05.006 WARN  controller-manager/statefulset slow pod=default/web-0\n',
    ],
    [
      'event recorders and informers are scopes too',
      {
        level: 20,
        time: TIME,
        component: 'controller-manager',
        events: 'job-controller',
        msg: 'sent',
      },
      '03:04:05.006 DEBUG controller-manager/job-controller:events sent\n',
    ],
    [
      'the shared informers',
      {
        level: 50,
        time: TIME,
        component: 'controller-manager',
        informers: 'informers',
        msg: 'relist',
      },
      '03:04:05.006 ERROR controller-manager/informers relist\n',
    ],
    [
      'strings with blanks, quotes or `=` are quoted; objects are JSON; booleans and null plain',
      {
        level: 30,
        time: TIME,
        component: 'c',
        a: '(in memory)',
        b: 'x=y',
        c: { d: [1, 'e'] },
        f: false,
        g: null,
        h: '',
        msg: 'm',
      },
      '03:04:05.006 INFO  c m a="(in memory)" b="x=y" c={"d":[1,"e"]} f=false g=null h=""\n',
    ],
    [
      "a multi-line message's further lines are indented",
      { level: 30, time: TIME, component: 'c', msg: 'first\nsecond', k: 1 },
      '03:04:05.006 INFO  c first k=1\n    second\n',
    ],
    [
      'no message: the fields follow the component',
      { level: 60, time: TIME, component: 'c', k: 'v' },
      '03:04:05.006 FATAL c k=v\n',
    ],
    [
      'levels between the named ones round down; no time shows dashes',
      { level: 35, component: 'c', msg: 'm' },
      '--:--:--.--- INFO  c m\n',
    ],
  ];
  for (const [name, record, want] of cases) {
    it(name, () => assert.equal(formatLogRecord(record, PLAIN), want));
  }

  it('an error: its message inline, its other fields as err.*, its stack below, indented', () => {
    const record = {
      level: 50,
      time: TIME,
      component: 'fleetyard',
      err: {
        type: 'Error',
        message: 'disk full',
        code: 'ENOSPC',
        stack: 'Error: disk full\n    at write (a.js:1:2)',
      },
      msg: 'cannot write',
    };
    assert.equal(
      formatLogRecord(record, PLAIN),
      [
        '03:04:05.006 ERROR fleetyard cannot write err="disk full" err.code=ENOSPC',
        '    Error: disk full',
        '    at write (a.js:1:2)',
        '',
      ].join('\n'),
    );
  });

  it('a string err (no stack) is a plain field', () => {
    const line = formatLogRecord(
      { level: 50, time: TIME, component: 'c', err: 'bad key', msg: 'm' },
      PLAIN,
    );
    assert.equal(line, '03:04:05.006 ERROR c m err="bad key"\n');
  });

  const levels: [number, string, string][] = [
    [10, 'TRACE', `${ESC}90m`],
    [20, 'DEBUG', `${ESC}34m`],
    [30, 'INFO ', `${ESC}32m`],
    [40, 'WARN ', `${ESC}33m`],
    [50, 'ERROR', `${ESC}31m`],
    [60, 'FATAL', `${ESC}41m${ESC}37m${ESC}1m`],
  ];
  for (const [level, name, color] of levels) {
    it(`level ${level}: ${name.trim()}, colored only with colors`, () => {
      const record = { level, time: TIME, component: 'c', msg: 'm', k: 'v' };
      const colored = formatLogRecord(record, COLORED);
      assert.ok(colored.includes(`${color}${name}`), JSON.stringify(colored));
      assert.equal(stripVTControlCharacters(colored), formatLogRecord(record, PLAIN));
      assert.ok(!formatLogRecord(record, PLAIN).includes(ESC));
    });
  }

  it('on a terminal, a line first erases what a progress line left there', () => {
    const line = formatLogRecord(
      { level: 30, time: TIME, component: 'c', msg: 'm' },
      { ...PLAIN, eraseLine: true },
    );
    assert.equal(line, `${ESC}K03:04:05.006 INFO  c m\n`);
  });

  it('local time by default: the hour of the machine', () => {
    const line = formatLogRecord({ level: 30, time: TIME, msg: 'm' }, { colors: false });
    assert.equal(line.slice(0, 2), String(new Date(TIME).getHours()).padStart(2, '0'));
  });
});

describe('colorsEnabled', () => {
  const cases: [NodeJS.ProcessEnv, boolean, boolean][] = [
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
    [{ NODE_DISABLE_COLORS: '1' }, true, false],
    [{ TERM: 'dumb' }, true, false],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ FORCE_COLOR: 'false' }, true, false],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, false, true],
  ];
  for (const [env, tty, want] of cases) {
    it(`${JSON.stringify(env)} ${tty ? 'terminal' : 'pipe'}: ${want ? 'colors' : 'none'}`, () => {
      assert.equal(colorsEnabled(env, tty), want);
    });
  }
});

describe('human lines are redacted', () => {
  const token = randomBytes(32).toString('base64url');
  addLogSecret(token);
  /** JSON-escaped in the record (`\"`, `\\`): the JSON pass alone cannot see it. */
  const escaped = 'pa"ss\\word-0123';
  addLogSecret(escaped);

  function capture(style: LogStyle): { lines: string[]; log: ReturnType<typeof createLogger> } {
    const lines: string[] = [];
    const sink = { write: (s: string) => void lines.push(s) };
    return { lines, log: createLogger('debug', 'test', sink, { format: 'text', style }) };
  }

  for (const style of [PLAIN, COLORED, { ...COLORED, eraseLine: true }]) {
    it(`never shows a registered secret (${style.colors ? 'colored' : 'plain'})`, () => {
      const { lines, log } = capture(style);
      for (const secret of [token, escaped]) {
        log.info({ url: `/api/${secret}` }, 'request');
        log.error({ err: new Error(`refused ${secret}`) }, `failed for ${secret}`);
        log.info({ nested: { deeper: [secret] } }, `multi\nline ${secret}`);
        log.warn({ header: `Bearer ${secret}`, token: secret }, 'shaped');
      }
      assert.equal(lines.length, 8);
      for (const line of lines) {
        for (const secret of [token, escaped]) assert.ok(!line.includes(secret), line);
        assert.ok(line.includes(REDACTED), line);
      }
    });
  }

  it('whatever the text around a secret', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (before, after) => {
        const record = JSON.stringify({
          level: 30,
          time: TIME,
          component: 'c',
          msg: `${before}${escaped}${after}`,
        });
        for (const style of [PLAIN, COLORED]) {
          assert.ok(!humanLine(`${record}\n`, style, redactLogText).includes(escaped));
        }
      }),
    );
  });

  it('the finished text is checked again: a secret only its unescaped form reveals', () => {
    // A redaction that knows the secret only as written (not JSON-escaped).
    const redact = (text: string): string => text.split(escaped).join(REDACTED);
    const record = JSON.stringify({ level: 30, time: TIME, component: 'c', msg: `x ${escaped}` });
    for (const style of [PLAIN, COLORED]) {
      assert.equal(humanLine(`${record}\n`, style, redact), `03:04:05.006 INFO  c x ${REDACTED}\n`);
    }
  });

  it('a line that is not JSON is passed through, redacted', () => {
    assert.equal(humanLine(`plain ${token}\n`, PLAIN, redactLogText), `plain ${REDACTED}\n`);
  });
});
