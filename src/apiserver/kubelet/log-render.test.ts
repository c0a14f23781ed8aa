import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStatusError } from '../../api/errors.js';
import { ByteBudget, type LogQuery, parseLogQuery, renderLog, rfc3339Nano } from './log-render.js';
import type { LogLine } from './types.js';

const T0 = Date.parse('2026-12-01T10:00:00Z');
const LINES: LogLine[] = [
  { at: T0, text: 'start' },
  { at: T0 + 1000, text: 'one' },
  { at: T0 + 2500, text: 'two' },
  { at: T0 + 60_000, text: 'later' },
];

function query(text: string): LogQuery {
  return parseLogQuery(new URLSearchParams(text), 'web');
}

describe('renderLog', () => {
  const cases: { name: string; q: string; now: number; want: string }[] = [
    { name: 'everything written so far', q: '', now: T0 + 3000, want: 'start\none\ntwo\n' },
    {
      name: 'all lines once the time has come',
      q: '',
      now: T0 + 60_000,
      want: 'start\none\ntwo\nlater\n',
    },
    { name: 'tailLines keeps the last N', q: 'tailLines=2', now: T0 + 3000, want: 'one\ntwo\n' },
    { name: 'tailLines=0 shows nothing', q: 'tailLines=0', now: T0 + 3000, want: '' },
    {
      name: 'tailLines beyond the count',
      q: 'tailLines=10',
      now: T0 + 3000,
      want: 'start\none\ntwo\n',
    },
    {
      name: 'sinceSeconds counts back from now',
      q: 'sinceSeconds=2',
      now: T0 + 3000,
      want: 'one\ntwo\n',
    },
    {
      name: 'sinceTime includes its own second',
      q: 'sinceTime=2026-12-01T10:00:01Z',
      now: T0 + 3000,
      want: 'one\ntwo\n',
    },
    { name: 'since then tail', q: 'sinceSeconds=3&tailLines=1', now: T0 + 3000, want: 'two\n' },
    {
      name: 'timestamps in RFC3339Nano',
      q: 'timestamps=true',
      now: T0 + 3000,
      want: '2026-12-01T10:00:00Z start\n2026-12-01T10:00:01Z one\n2026-12-01T10:00:02.5Z two\n',
    },
    { name: 'limitBytes cuts mid-line', q: 'limitBytes=8', now: T0 + 3000, want: 'start\non' },
    { name: 'limitBytes after tail', q: 'tailLines=1&limitBytes=2', now: T0 + 3000, want: 'tw' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(renderLog(LINES, query(c.q), c.now).toString('utf8'), c.want);
    });
  }
});

describe('parseLogQuery', () => {
  const invalid: { q: string; message: RegExp; code: number }[] = [
    {
      q: 'tailLines=-1',
      message: /tailLines: Invalid value: -1: must be greater than or equal to 0/,
      code: 422,
    },
    {
      q: 'limitBytes=0',
      message: /limitBytes: Invalid value: 0: must be greater than 0/,
      code: 422,
    },
    {
      q: 'sinceSeconds=0',
      message: /sinceSeconds: Invalid value: 0: must be greater than 0/,
      code: 422,
    },
    {
      q: 'sinceSeconds=1&sinceTime=2026-12-01T10:00:00Z',
      message: /at most one of `sinceTime` or `sinceSeconds`/,
      code: 422,
    },
    { q: 'tailLines=x', message: /invalid value for tailLines/, code: 400 },
    { q: 'sinceTime=yesterday', message: /sinceTime/, code: 400 },
  ];
  for (const c of invalid) {
    it(`refuses ${c.q}`, () => {
      assert.throws(
        () => query(c.q),
        (e: unknown) => isStatusError(e) && e.code === c.code && c.message.test(e.message),
      );
    });
  }

  it('reads flags and numbers', () => {
    const q = query(
      'container=app&follow=true&previous=1&timestamps=true&tailLines=5&limitBytes=9',
    );
    assert.deepEqual(q, {
      container: 'app',
      follow: true,
      previous: true,
      timestamps: true,
      tailLines: 5,
      limitBytes: 9,
    });
  });
});

describe('rfc3339Nano', () => {
  for (const [ms, want] of [
    [T0, '2026-12-01T10:00:00Z'],
    [T0 + 120, '2026-12-01T10:00:00.12Z'],
    [T0 + 1, '2026-12-01T10:00:00.001Z'],
  ] as const) {
    it(want, () => assert.equal(rfc3339Nano(ms), want));
  }
});

describe('ByteBudget', () => {
  it('never gives more than the limit over many chunks', () => {
    const budget = new ByteBudget(10);
    const out = ['abcd', 'efgh', 'ijkl', 'mnop'].map((t) => budget.take(t).toString()).join('');
    assert.equal(out, 'abcdefghij');
    assert.equal(budget.exhausted, true);
  });
});
