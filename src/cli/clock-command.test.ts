import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { FakeClockControl } from '../apiserver/testing/fake-clock-control.js';
import { startTestServer, type TestServer } from '../apiserver/testing/test-server.js';
import { ApiClient } from '../client/api-client.js';
import { type ClockAction, ClockUsageError, parseClockArgs, runClock } from './clock-command.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

describe('parseClockArgs', () => {
  const ok: [string[], ClockAction, number | undefined][] = [
    [['show'], { action: 'show' }, undefined],
    [['pause'], { action: 'pause' }, undefined],
    [['resume'], { action: 'resume' }, undefined],
    [['speed', '0.5'], { action: 'speed', speed: 0.5 }, undefined],
    [['speed', 'max'], { action: 'speed', speed: 'max' }, undefined],
    [['advance', '15m'], { action: 'advance', ms: 900_000 }, undefined],
    [['advance', '1h30m', '--timeout', '90s'], { action: 'advance', ms: 5_400_000 }, 90_000],
    [['until', '2026-01-01T06:00:00Z'], { action: 'until', at: T0 + 6 * 3_600_000 }, undefined],
  ];
  for (const [argv, action, timeoutMs] of ok) {
    test(argv.join(' '), () => {
      const { kubeconfig: _k, ...command } = parseClockArgs(argv);
      assert.deepEqual(command, { ...action, timeoutMs });
    });
  }

  test('the kubeconfig defaults to the data dir, and --kubeconfig wins', () => {
    assert.equal(parseClockArgs(['show']).kubeconfig, resolve('.fleetyard', 'kubeconfig'));
    assert.equal(
      parseClockArgs(['show', '--data-dir', '/d']).kubeconfig,
      resolve('/d', 'kubeconfig'),
    );
    assert.equal(parseClockArgs(['show', '--kubeconfig', '/k']).kubeconfig, '/k');
  });

  const bad: string[][] = [
    [],
    ['rewind'],
    ['show', 'now'],
    ['pause', '--timeout', '1m'],
    ['speed'],
    ['speed', 'fast'],
    ['speed', '-1'],
    ['advance'],
    ['advance', '15'],
    ['advance', '-5m'],
    ['advance', '1m', '--timeout', 'soon'],
    ['until', 'tomorrow'],
    ['until', '2026-01-01T06:00:00'],
    ['advance', '1m', '2m'],
    ['show', '--force'],
  ];
  for (const argv of bad) {
    test(`rejects: ${argv.join(' ') || '(nothing)'}`, () => {
      assert.throws(() => parseClockArgs(argv), ClockUsageError);
    });
  }
});

describe('runClock against an API server with a clock', () => {
  let api: TestServer;
  let client: ApiClient;
  let clock: FakeClockControl;
  before(async () => {
    clock = new FakeClockControl({ now: T0 });
    api = await startTestServer({ server: { clockControl: clock } });
    client = new ApiClient({ server: api.url });
  });
  after(async () => {
    client.close();
    await api.close();
  });
  beforeEach(() => {
    clock.mode = 'virtual';
    clock.now = T0;
    clock.speed = 1;
    clock.paused = false;
    clock.target = undefined;
    clock.stepMs = 60_000;
  });

  /** Runs with no wall-clock waits; `wall` is what `--timeout` is measured on. */
  async function run(argv: string[], wall = () => 0) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runClock(argv, {
      client,
      stdout: (s) => out.push(s),
      stderr: (s) => err.push(s),
      sleep: async () => undefined,
      wallNow: wall,
    });
    return { code, out: out.join(''), err: err.join('') };
  }

  test('show prints the time, speed, state and timers', async () => {
    clock.pendingTimers = 2;
    clock.nextTimer = T0 + 5000;
    clock.paused = true;
    assert.deepEqual(await run(['show']), {
      code: 0,
      out: [
        'time:      2026-01-01T00:00:00.000Z',
        'speed:     1 (paused)',
        'state:     Paused',
        'timers:    2 pending, next at 2026-01-01T00:00:05.000Z',
        'quiescent: true',
        'mode:      virtual',
        '',
      ].join('\n'),
      err: '',
    });
  });

  test('pause, resume and speed change the clock', async () => {
    assert.equal((await run(['pause'])).out, 'clock paused at 2026-01-01T00:00:00.000Z\n');
    assert.equal(clock.paused, true);
    assert.equal(
      (await run(['resume'])).out,
      'clock resumed at 2026-01-01T00:00:00.000Z (speed 1)\n',
    );
    assert.equal(clock.paused, false);
    clock.paused = true;
    const r = await run(['speed', 'max']);
    assert.equal(r.out, 'clock speed set to max at 2026-01-01T00:00:00.000Z\n');
    assert.deepEqual([clock.speed, clock.paused], ['max', false]);
  });

  test('advance runs until the target is reached and the cluster is quiescent', async () => {
    const r = await run(['advance', '15m30s']);
    assert.deepEqual(r, { code: 0, out: 'clock advanced to 2026-01-01T00:15:30.000Z\n', err: '' });
    assert.equal(clock.now, T0 + 930_000);
    assert.equal(clock.target, undefined);
  });

  test('until runs to an absolute time; one in the past is refused', async () => {
    const r = await run(['until', '2026-01-01T01:00:00Z']);
    assert.equal(r.out, 'clock advanced to 2026-01-01T01:00:00.000Z\n');
    const past = await run(['until', '2026-01-01T00:30:00Z']);
    assert.equal(past.code, 1);
    assert.equal(
      past.err,
      "error: 2026-01-01T00:30:00.000Z is before the cluster's time (2026-01-01T01:00:00.000Z): time does not run backwards\n",
    );
    assert.equal(clock.target, undefined);
  });

  test('a clock that does not get there times out (exit 1)', async () => {
    clock.stepMs = 0;
    let wall = 0;
    const r = await run(['advance', '1m', '--timeout', '1s'], () => (wall += 300));
    assert.equal(r.code, 1);
    assert.equal(
      r.err,
      'error: timed out waiting for the clock to reach 2026-01-01T00:01:00.000Z: it is at 2026-01-01T00:00:00.000Z, Advancing, not quiescent\n',
    );
  });

  test("a real clock's refusal is printed as kubectl prints it", async () => {
    clock.mode = 'real';
    const r = await run(['speed', '2']);
    assert.equal(r.code, 1);
    assert.equal(
      r.err,
      'Error from server (Invalid): Clock.sim.fleetyard.dev "cluster" is invalid: spec.speed: Forbidden: the cluster runs on the wall clock (fleetyard up --clock real): its speed cannot change\n',
    );
  });

  test('a usage error exits 2 with the usage; --help exits 0', async () => {
    const r = await run(['rewind']);
    assert.equal(r.code, 2);
    assert.match(r.err, /unknown subcommand "rewind"/);
    assert.match(r.err, /Usage: fleetyard clock/);
    const help = await run(['--help']);
    assert.deepEqual([help.code, help.out.startsWith('Usage: fleetyard clock')], [0, true]);
  });
});

test('runClock against a server without a clock says what to start', async () => {
  const api = await startTestServer();
  const client = new ApiClient({ server: api.url });
  try {
    const err: string[] = [];
    const code = await runClock(['show'], {
      client,
      stdout: () => undefined,
      stderr: (s) => err.push(s),
    });
    assert.equal(code, 1);
    assert.equal(
      err.join(''),
      'error: the server does not serve clocks.sim.fleetyard.dev: start the cluster with fleetyard up --clock virtual\n',
    );
  } finally {
    client.close();
    await api.close();
  }
});
