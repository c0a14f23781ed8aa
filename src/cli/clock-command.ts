/**
 * `fleetyard clock`: reads and steers the cluster clock of a `fleetyard up --clock virtual`
 * through its API object, `clocks.sim.fleetyard.dev/cluster` (what `kubectl get clock` shows;
 * `src/apiserver/clock-resource.ts`). Every subcommand is a GET or a JSON merge patch of the
 * object's `spec`:
 *
 * | subcommand     | patch                                   |
 * |----------------|-----------------------------------------|
 * | `show`         | (none: prints `status`)                 |
 * | `pause`        | `spec.paused: true`                     |
 * | `resume`       | `spec.paused: false`                    |
 * | `speed N`      | `spec.speed: "N"`, `spec.paused: false` |
 * | `advance D`    | `spec.runUntil: status.time + D`        |
 * | `until TIME`   | `spec.runUntil: TIME`                   |
 *
 * `advance` and `until` then poll the object every 50 ms of wall time until the clock has
 * reached the target, is no longer Advancing and the cluster is quiescent there, so a script
 * can run `fleetyard clock advance 15m && kubectl get pods` and see what 15 minutes did.
 *
 * The connection is `fleetyard chaos`'s: `--kubeconfig`, else `--data-dir`/kubeconfig.
 * Exit codes: 0 done, 1 failed (the server's error, a time in the past, a timeout), 2 usage.
 *
 * @module
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseRfc3339 } from '../api/printers/duration.js';
import { ApiClient } from '../client/api-client.js';
import { StatusCodeError } from '../client/lister-watcher.js';
import { type FlagTable, flagUsage } from '../cluster/flag-table.js';
import { UP_FLAGS } from '../cluster/up-flag-table.js';
import { parseGoDuration } from '../sim/kubelet/annotations.js';
import { parseSpeed, type Speed } from '../util/clock-control.js';
import { type ClockView, clockView } from './clock-view.js';

/** `fleetyard clock`'s flags (src/cluster/flag-table.ts); `--data-dir` is `fleetyard up`'s. */
const CLOCK_FLAGS = {
  timeout: {
    type: 'string',
    value: 'D',
    defaultText: 'no limit',
    help: 'advance, until: give up after D of wall time',
  },
  kubeconfig: {
    type: 'string',
    value: 'PATH',
    defaultText: 'DATA_DIR/kubeconfig',
    help: 'Connection',
  },
  'data-dir': {
    type: 'string',
    default: UP_FLAGS['data-dir'].default,
    value: 'DIR',
    help: "fleetyard up's data dir",
  },
} as const satisfies FlagTable;

export const CLOCK_USAGE = `Usage: fleetyard clock <subcommand> [options]

Subcommands:
  show          Print the cluster's time, speed, state and pending timers
  pause         Stop the cluster's time (timers already due still fire)
  resume        Let time run again at its speed
  speed N       Run at N virtual seconds per wall second (0.5, 1, 60, ...), or max: jump
                from timer to timer whenever the cluster is idle. Also resumes
  advance D     Run through the next D of cluster time as fast as the cluster keeps up
                (a Go duration: 90s, 15m, 1h30m); returns once the cluster is quiescent
                there, then time goes on at its speed
  until TIME    The same, up to an RFC 3339 time (2026-01-01T06:00:00Z)

Options:
${flagUsage(CLOCK_FLAGS, { column: 23, width: 96 })}`;

const CLOCK = {
  group: 'sim.fleetyard.dev',
  version: 'v1alpha1',
  plural: 'clocks',
  name: 'cluster',
} as const;
const FIELD_MANAGER = 'fleetyard-clock';
/** Wall time between two looks at an advancing clock. */
const POLL_MS = 50;

export type ClockAction =
  | { readonly action: 'show' | 'pause' | 'resume' }
  | { readonly action: 'speed'; readonly speed: Speed }
  | { readonly action: 'advance'; readonly ms: number }
  | { readonly action: 'until'; readonly at: number };

export type ClockCommand = ClockAction & {
  readonly kubeconfig: string;
  /** Wall ms `advance`/`until` wait at most; undefined: no limit. */
  readonly timeoutMs: number | undefined;
};

/** A command line that cannot be run; the CLI prints it with the usage and exits 2. */
export class ClockUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClockUsageError';
  }
}

/** Parses `argv` (after `clock`); pure apart from resolving the default kubeconfig path. */
export function parseClockArgs(argv: readonly string[]): ClockCommand {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (err) {
    throw new ClockUsageError(err instanceof Error ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  const [subcommand, arg, ...extra] = positionals;
  if (subcommand === undefined) throw new ClockUsageError('a subcommand is required');
  if (extra.length > 0) {
    throw new ClockUsageError(`${subcommand}: unexpected arguments: ${extra.join(' ')}`);
  }
  const action = parseAction(subcommand, arg);
  const timeout = values.timeout;
  if (timeout !== undefined && action.action !== 'advance' && action.action !== 'until') {
    throw new ClockUsageError(`${subcommand}: --timeout applies to advance and until only`);
  }
  const timeoutMs = timeout === undefined ? undefined : goDuration('--timeout', timeout);
  const kubeconfig = values.kubeconfig ?? resolve(values['data-dir'], 'kubeconfig');
  return { ...action, kubeconfig, timeoutMs };
}

function parseAction(subcommand: string, arg: string | undefined): ClockAction {
  const needs = (what: string): string => {
    if (arg === undefined || arg === '')
      throw new ClockUsageError(`${subcommand}: ${what} is required`);
    return arg;
  };
  const none = (): void => {
    if (arg !== undefined) throw new ClockUsageError(`${subcommand}: unexpected argument ${arg}`);
  };
  switch (subcommand) {
    case 'show':
    case 'pause':
    case 'resume':
      none();
      return { action: subcommand };
    case 'speed':
      try {
        return { action: 'speed', speed: parseSpeed(needs('a speed')) };
      } catch (err) {
        if (err instanceof ClockUsageError) throw err;
        throw new ClockUsageError(`speed: ${err instanceof Error ? err.message : String(err)}`);
      }
    case 'advance':
      return { action: 'advance', ms: goDuration('advance', needs('a duration')) };
    case 'until': {
      const text = needs('a time');
      const at = parseRfc3339(text);
      if (at === undefined) {
        throw new ClockUsageError(
          `until: invalid time ${JSON.stringify(text)}: want RFC 3339, e.g. 2026-01-01T06:00:00Z`,
        );
      }
      return { action: 'until', at };
    }
    default:
      throw new ClockUsageError(`unknown subcommand "${subcommand}"`);
  }
}

function goDuration(what: string, text: string): number {
  const ms = parseGoDuration(text);
  if (ms === undefined) {
    throw new ClockUsageError(
      `${what}: invalid duration ${JSON.stringify(text)}: want a Go duration, e.g. 90s, 15m, 1h30m`,
    );
  }
  return ms;
}

function parseOptions(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: CLOCK_FLAGS,
    allowPositionals: true,
    strict: true,
  });
}

/** What `fleetyard clock` needs of a client (tests pass one for an in-process server). */
export type ClockClient = Pick<ApiClient, 'get' | 'patch'>;

/** Where `fleetyard clock` reads, writes and waits. */
export interface ClockIo {
  readonly client?: ClockClient;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Waits between two polls. @default `POLL_MS` of wall time (tests: none) */
  readonly sleep?: (ms: number) => Promise<void>;
  /** The wall clock `--timeout` is measured on. @default Date.now */
  readonly wallNow?: () => number;
}

/** Runs `fleetyard clock …`; resolves to the exit code (0 done, 1 failed, 2 usage). */
export async function runClock(argv: readonly string[], io: ClockIo): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) {
    io.stdout(CLOCK_USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  let command: ClockCommand;
  try {
    command = parseClockArgs(argv);
  } catch (err) {
    if (!(err instanceof ClockUsageError)) throw err;
    io.stderr(`error: ${err.message}\n${CLOCK_USAGE}`);
    return 2;
  }
  const owned =
    io.client === undefined ? await ApiClient.fromKubeconfig(command.kubeconfig) : undefined;
  const client = io.client ?? owned!;
  try {
    return await run(client, command, io);
  } catch (err) {
    io.stderr(`${describeError(err)}\n`);
    return 1;
  } finally {
    owned?.close();
  }
}

async function run(client: ClockClient, command: ClockCommand, io: ClockIo): Promise<number> {
  const patch = async (spec: Record<string, unknown>): Promise<ClockView> =>
    clockView(await client.patch(CLOCK, { spec }, 'merge', { fieldManager: FIELD_MANAGER }));
  switch (command.action) {
    case 'show':
      io.stdout(showLines(clockView(await client.get(CLOCK))));
      return 0;
    case 'pause':
      io.stdout(`clock paused at ${timeOf(await patch({ paused: true }))}\n`);
      return 0;
    case 'resume': {
      const c = await patch({ paused: false });
      io.stdout(`clock resumed at ${timeOf(c)} (speed ${c.spec.speed ?? '?'})\n`);
      return 0;
    }
    case 'speed': {
      const c = await patch({ speed: String(command.speed), paused: false });
      io.stdout(`clock speed set to ${c.spec.speed ?? '?'} at ${timeOf(c)}\n`);
      return 0;
    }
    case 'advance':
    case 'until': {
      const now = millisOf(clockView(await client.get(CLOCK)));
      const target = command.action === 'advance' ? now + command.ms : command.at;
      if (target < now) {
        io.stderr(
          `error: ${iso(target)} is before the cluster's time (${iso(now)}): time does not run backwards\n`,
        );
        return 1;
      }
      await patch({ runUntil: iso(target) });
      const reached = await waitFor(client, target, command.timeoutMs, io);
      if (reached === undefined) return 1;
      io.stdout(`clock advanced to ${timeOf(reached)}\n`);
      return 0;
    }
  }
}

/** Polls until the clock is at `target`, done advancing and quiescent; undefined on timeout. */
async function waitFor(
  client: ClockClient,
  target: number,
  timeoutMs: number | undefined,
  io: ClockIo,
): Promise<ClockView | undefined> {
  const wallNow = io.wallNow ?? Date.now;
  const sleep = io.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : wallNow() + timeoutMs;
  for (;;) {
    const c = clockView(await client.get(CLOCK));
    const s = c.status;
    if (millisOf(c) >= target && s.state !== 'Advancing' && s.quiescent === true) return c;
    if (wallNow() >= deadline) {
      io.stderr(
        `error: timed out waiting for the clock to reach ${iso(target)}: it is at ${timeOf(c)}, ${s.state ?? 'unknown'}${s.quiescent ? '' : ', not quiescent'}\n`,
      );
      return undefined;
    }
    await sleep(POLL_MS);
  }
}

/** The human lines of `show`. */
export function showLines(c: ClockView): string {
  const s = c.status;
  const speed = `${c.spec.speed ?? '?'}${c.spec.paused ? ' (paused)' : ''}`;
  const state = c.spec.runUntil ? `${s.state ?? '?'} to ${c.spec.runUntil}` : (s.state ?? '?');
  const next = s.nextTimer ? `, next at ${s.nextTimer}` : '';
  return [
    `time:      ${timeOf(c)}`,
    `speed:     ${speed}`,
    `state:     ${state}`,
    `timers:    ${s.pendingTimers ?? 0} pending${next}`,
    `quiescent: ${s.quiescent === true}`,
    `mode:      ${s.mode ?? '?'}`,
    '',
  ].join('\n');
}

function timeOf(c: ClockView): string {
  return c.status.time ?? '?';
}

function millisOf(c: ClockView): number {
  const ms = parseRfc3339(c.status.time ?? '');
  if (ms === undefined)
    throw new Error(`the clock reports no time (status.time ${JSON.stringify(c.status.time)})`);
  return ms;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** kubectl's `Error from server (Reason): message`; a server without the resource says so. */
function describeError(err: unknown): string {
  if (err instanceof StatusCodeError) {
    if (err.code === 404 && err.message === 'the server could not find the requested resource') {
      return 'error: the server does not serve clocks.sim.fleetyard.dev: start the cluster with fleetyard up --clock virtual';
    }
    const reason = err.status?.reason;
    return `Error from server${reason ? ` (${reason})` : ''}: ${err.message}`;
  }
  return `error: ${err instanceof Error ? err.message : String(err)}`;
}
