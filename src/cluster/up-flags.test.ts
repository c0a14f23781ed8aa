/**
 * `fleetyard up`'s flags: the defaults come from the table (given explicitly, a default
 * changes nothing), every refusal keeps its wording and its kind (an UpFlagError exits 2;
 * the others exit 1, as they always have), and the help lists exactly the parsed flags.
 */
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { flagUsage } from './flag-table.js';
import type { UpOptions } from './up.js';
import { LOCAL_KUBECONFIG, UP_FLAGS } from './up-flag-table.js';
import { type ParsedUpOptions, parseUpArgs, UP_CLUSTER_DEFAULTS, UpFlagError } from './up-flags.js';

/** The options without the logger (a pino instance: compared by its level instead). */
function plain(options: UpOptions): Omit<UpOptions, 'logger'> {
  const { logger: _logger, ...rest } = options;
  return rest;
}

describe('parseUpArgs: defaults', () => {
  it('no flags: the table defaults', () => {
    const o = parseUpArgs([]);
    assert.equal(o.dataDir, resolve('.fleetyard'));
    assert.equal(o.ephemeral, false);
    assert.equal(o.port, 6443);
    assert.equal(o.host, '127.0.0.1');
    assert.deepEqual(o.tlsSans, []);
    assert.equal(o.logLevel, 'info');
    assert.equal(o.logger.level, 'info');
    assert.equal(o.controllers, '*');
    assert.equal(o.clock, 'real');
    assert.deepEqual(o.cluster, {
      nodes: 3,
      zones: ['a', 'b', 'c'],
      defaultStorageClass: 'standard',
      gates: { maxUnavailableStatefulSet: false, statefulSetRecreateStrategy: false },
    });
    for (const key of ['historyLimit', 'minRequestTimeoutSeconds', 'speed', 'seed'] as const) {
      assert.equal(o[key], undefined, key);
    }
  });

  it("the cluster's defaults are the parsed table's", () => {
    const { cluster } = parseUpArgs([]);
    assert.deepEqual(
      {
        nodes: cluster?.nodes,
        zones: cluster?.zones,
        defaultStorageClass: cluster?.defaultStorageClass,
      },
      UP_CLUSTER_DEFAULTS,
    );
  });

  const withDefault = Object.entries(UP_FLAGS).flatMap(([name, spec]) =>
    'default' in spec && typeof spec.default === 'string' ? [[name, spec.default] as const] : [],
  );
  for (const [name, value] of withDefault) {
    it(`--${name} ${JSON.stringify(value)} (its default) changes nothing`, () => {
      assert.deepEqual(plain(parseUpArgs([`--${name}=${value}`])), plain(parseUpArgs([])));
    });
  }

  it('other commands find the kubeconfig where a default up writes it', () => {
    assert.equal(resolve(LOCAL_KUBECONFIG), resolve(parseUpArgs([]).dataDir, 'kubeconfig'));
  });
});

describe('parseUpArgs: values', () => {
  const cases: [string[], (o: ParsedUpOptions) => unknown, unknown][] = [
    [['--nodes', '0'], (o) => [o.cluster?.nodes, o.controllers], [1, '*,-kubelet']],
    [
      ['--nodes', '7', '--zones', 'x, y'],
      (o) => [o.cluster?.nodes, o.cluster?.zones],
      [7, ['x', 'y']],
    ],
    [['--port', '0'], (o) => o.port, 0],
    [
      ['--tls-san', 'a.example,b', '--tls-san', '10.0.0.1'],
      (o) => o.tlsSans,
      ['a.example', 'b', '10.0.0.1'],
    ],
    [['--log-level', 'debug'], (o) => [o.logLevel, o.logger.level], ['debug', 'debug']],
    [['--log-format', 'text'], (o) => o.logFormat, 'text'],
    [['--log-format=json'], (o) => o.logFormat, 'json'],
    [['--dashboard=false'], (o) => o.dashboard, false],
    [['--dashboard', 'true'], (o) => o.dashboard, undefined],
    [['--default-storage-class', 'ebs'], (o) => o.cluster?.defaultStorageClass, 'ebs'],
    [['--node-monitor-grace-period', '5s'], (o) => o.cluster?.nodeMonitorGracePeriodMs, 5_000],
    [['--event-ttl', '2h'], (o) => o.eventTtlMs, 7_200_000],
    [['--member-replacement-delay', '2m'], (o) => o.cluster?.memberReplacementDelayMs, 120_000],
    [['--max-requests-inflight', '0'], (o) => o.maxRequestsInFlight, 0],
    [
      [
        '--clock',
        'virtual',
        '--clock-start',
        '2026-01-01T00:00:00Z',
        '--speed',
        'max',
        '--seed',
        '4',
      ],
      (o) => [o.clock, o.clockStart, o.speed, o.seed],
      ['virtual', Date.parse('2026-01-01T00:00:00Z'), 'max', 4],
    ],
  ];
  for (const [args, pick, want] of cases) {
    it(args.join(' '), () => assert.deepEqual(pick(parseUpArgs(args)), want));
  }
});

describe('parseUpArgs: --log-format', () => {
  /** [args, the default the command decided (its terminal), the format]. */
  const cases: [string[], 'json' | 'text' | undefined, string][] = [
    [[], undefined, 'json'],
    [[], 'text', 'text'],
    [[], 'json', 'json'],
    [['--log-format', 'json'], 'text', 'json'],
    [['--log-format', 'text'], 'json', 'text'],
  ];
  for (const [args, defaultLogFormat, want] of cases) {
    it(`${args.join(' ') || 'no flag'}, default ${defaultLogFormat ?? 'none'}: ${want}`, () => {
      const context = defaultLogFormat === undefined ? {} : { defaultLogFormat };
      assert.equal(parseUpArgs(args, context).logFormat, want);
    });
  }

  it('has no default in the table: the command decides it', () => {
    assert.ok(!('default' in UP_FLAGS['log-format']));
    assert.match(UP_FLAGS['log-format'].defaultText, /terminal/);
  });
});

describe('parseUpArgs: refusals', () => {
  /** [args, an UpFlagError (exit 2) or not (exit 1), the message]. */
  const cases: [string[], boolean, string][] = [
    [['--nodes', '3001'], true, 'invalid --nodes 3001: want 0 to 3000'],
    [['--zones', 'A'], true, 'invalid --zones A'],
    [['--port', '70000'], true, 'invalid --port 70000'],
    [['--advertise-address', 'nope'], true, 'invalid --advertise-address nope: want an IP address'],
    [['--log-level', 'bogus'], false, 'default level:bogus must be included in custom levels'],
    [['--history-limit', '0'], false, 'invalid --history-limit 0: want a positive integer'],
    [
      ['--node-monitor-grace-period', 'x'],
      false,
      'invalid --node-monitor-grace-period x: want a duration like 40s',
    ],
    [
      ['--default-storage-class', 'gp2'],
      true,
      'invalid --default-storage-class gp2: want standard, ebs or none',
    ],
    [
      ['--feature-gates', 'Nope=true'],
      true,
      'invalid argument "Nope=true" for "--feature-gates" flag: unrecognized feature gate: Nope',
    ],
    [
      ['--member-replacement-delay', '30s'],
      true,
      'invalid --member-replacement-delay 30s: must be at least 1m',
    ],
    [['--clock', 'bogus'], true, 'invalid --clock bogus: want real or virtual'],
    [['--log-format', 'yaml'], true, 'invalid --log-format yaml: want json or text'],
    [['--dashboard', 'no'], true, 'invalid --dashboard no: want true or false'],
    [['--speed', '2'], true, '--speed needs --clock virtual'],
    [['--seed', '1.5'], true, 'invalid --seed 1.5: want an integer'],
    [['--unknown'], false, "Unknown option '--unknown'"],
    // Two bad values: the first in the parser's order is named.
    [['--default-storage-class', 'gp2', '--nodes', 'x'], true, 'invalid --nodes x: want 0 to 3000'],
  ];
  for (const [args, flagError, message] of cases) {
    it(`${args.join(' ')}: ${message}`, () => {
      assert.throws(
        () => parseUpArgs(args),
        (err: unknown) => {
          assert.ok(err instanceof Error);
          assert.equal(err.message, message);
          assert.equal(err instanceof UpFlagError, flagError);
          return true;
        },
      );
    });
  }
});

describe("up's help", () => {
  const usage = flagUsage(UP_FLAGS, { column: 21, width: 96 });
  const listed = [...usage.matchAll(/^ {2}--([a-z-]+)/gm)].map((m) => m[1]);

  it('lists every flag the parser takes, in the table order', () => {
    assert.deepEqual(listed, Object.keys(UP_FLAGS));
  });

  it('shows each default the parser applies', () => {
    assert.match(usage, /--nodes N .*\n.*\(default 3\)/);
    assert.match(usage, /--port N .*\(default 6443\)/);
    assert.match(usage, /\(default a,b,c\)/);
  });
});
