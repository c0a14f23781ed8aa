/**
 * The flag table's renderings: the usage lines (layout, defaults, wrapping) and the docs'
 * Markdown table, on a small table and, as properties, on generated ones.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import {
  type FlagSpec,
  type FlagTable,
  flagDocTable,
  flagUsage,
  goDurationText,
  isOneOf,
  orList,
  shownDefault,
  wrap,
} from './flag-table.js';

const TABLE = {
  port: { type: 'string', default: '6443', value: 'N', help: 'HTTPS port; `0` picks one' },
  ephemeral: { type: 'boolean', default: false, help: 'Memory only' },
  'advertise-address': {
    type: 'string',
    value: 'IP',
    defaultText: 'the `--host` address',
    help: 'What the kubeconfig names',
  },
  clock: { type: 'string', default: 'real', value: 'real|virtual', help: 'The clock' },
  'leader-elect': { type: 'string', default: 'true', goBool: true, value: 'BOOL', help: 'Lease' },
  'local-test': { type: 'string', default: 'false', goBool: true, help: 'Test clusters' },
  help: { type: 'boolean', default: false, hidden: true, help: 'This text' },
} as const satisfies FlagTable;

describe('flagUsage', () => {
  it('lists each visible flag with its help and default, from the column', () => {
    assert.equal(
      flagUsage(TABLE, { column: 16, width: 80 }),
      [
        '  --port N      HTTPS port; 0 picks one (default 6443)',
        '  --ephemeral   Memory only',
        '  --advertise-address IP',
        '                What the kubeconfig names (default: the --host address)',
        '  --clock real|virtual',
        '                The clock (default real)',
        '  --leader-elect BOOL',
        '                Lease (default true)',
        '  --local-test  Test clusters',
        '',
      ].join('\n'),
    );
  });

  it('wraps within the width and never ends a line in "(default"', () => {
    const spec: FlagSpec = {
      type: 'string',
      default: '10000',
      value: 'N',
      help: 'Events kept for watch resume; an older start gets 410 Expired',
    };
    const text = flagUsage({ 'history-limit': spec }, { column: 21, width: 86 });
    assert.deepEqual(text.split('\n'), [
      '  --history-limit N  Events kept for watch resume; an older start gets 410 Expired',
      '                     (default 10000)',
      '',
    ]);
  });

  it('keeps every line within the width (words no longer than it), every word in order', () => {
    const word = fc.stringMatching(/^[a-z`]{1,12}$/);
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 20, max: 30 }),
        fc.option(fc.stringMatching(/^[a-z0-9]{1,10}$/), { nil: undefined }),
        (words, column, value) => {
          const spec: FlagSpec = {
            type: 'string',
            help: words.join(' '),
            ...(value !== undefined ? { default: value } : {}),
          };
          const layout = { column, width: column + 40 };
          const lines = flagUsage({ flag: spec }, layout).trimEnd().split('\n');
          for (const line of lines) assert.ok(line.length <= layout.width, line);
          const shown = lines
            .join(' ')
            .split(/\s+/)
            .filter((w) => w !== '');
          const want = [
            '--flag',
            ...words.map((w) => w.replaceAll('`', '')).filter((w) => w !== ''),
            ...(value !== undefined ? ['(default', `${value})`] : []),
          ];
          assert.deepEqual(shown, want);
        },
      ),
    );
  });
});

describe('flagDocTable', () => {
  it('writes a row per visible flag: syntax, default, help (and doc), | escaped', () => {
    const table = {
      ...TABLE,
      namespace: { type: 'string', value: 'NS', defaultText: 'all', help: 'One', doc: 'More' },
    } as const satisfies FlagTable;
    assert.equal(
      flagDocTable(table),
      [
        '| Flag | Default | Meaning |',
        '|---|---|---|',
        '| `--port N` | `6443` | HTTPS port; `0` picks one |',
        '| `--ephemeral` | off | Memory only |',
        '| `--advertise-address IP` | the `--host` address | What the kubeconfig names |',
        '| `--clock real\\|virtual` | `real` | The clock |',
        '| `--leader-elect BOOL` | `true` | Lease |',
        '| `--local-test` | off | Test clusters |',
        '| `--namespace NS` | all | One. More |',
        '',
      ].join('\n'),
    );
  });
});

describe('helpers', () => {
  const defaults: [FlagSpec, string | undefined][] = [
    [{ type: 'string', help: '' }, undefined],
    [{ type: 'string', default: '', help: '' }, undefined],
    [{ type: 'string', multiple: true, default: [], help: '' }, undefined],
    [{ type: 'boolean', default: false, help: '' }, 'off'],
    [{ type: 'boolean', default: true, help: '' }, 'on'],
    [{ type: 'string', default: 'false', goBool: true, help: '' }, 'off'],
    [{ type: 'string', default: 'false', help: '' }, '`false`'],
    [{ type: 'string', default: 'x', defaultText: 'prose', help: '' }, 'prose'],
  ];
  for (const [spec, want] of defaults) {
    it(`shownDefault ${JSON.stringify(spec)} → ${want}`, () => {
      assert.equal(shownDefault(spec), want);
    });
  }

  const durations: [number, string][] = [
    [50_000, '50s'],
    [60_000, '1m'],
    [90_000, '1m30s'],
    [600_000, '10m'],
    [3_600_000, '1h'],
    [5_400_000, '1h30m'],
    [24 * 24 * 3_600_000, '576h'],
  ];
  for (const [ms, want] of durations) {
    it(`goDurationText(${ms}) = ${want}`, () => assert.equal(goDurationText(ms), want));
  }

  it('orList and isOneOf', () => {
    assert.equal(orList(['a']), 'a');
    assert.equal(orList(['a', 'b', 'c']), 'a, b or c');
    assert.equal(isOneOf(['real', 'virtual'], 'virtual'), true);
    assert.equal(isOneOf(['real', 'virtual'], 'Virtual'), false);
  });

  it('wrap gives a word longer than the width a line of its own', () => {
    assert.deepEqual(wrap(['a', 'bcdefgh', 'i'], 4), ['a', 'bcdefgh', 'i']);
  });

  it('parseArgs takes a table as its options (the other fields ignored)', () => {
    const { values } = parseArgs({ args: ['--port', '1', '--local-test=T'], options: TABLE });
    assert.deepEqual(
      { ...values },
      {
        port: '1',
        ephemeral: false,
        clock: 'real',
        'leader-elect': 'true',
        'local-test': 'T',
        help: false,
      },
    );
  });
});
