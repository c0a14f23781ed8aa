/**
 * `fleetyard up`'s command line: flags parsed and checked (a bad value exits 2 with kube's
 * wording where kube has one), then the cluster runs until `untilSignal` resolves. A start
 * that fails (a full or read-only disk, a port in use) has stopped whatever it started and
 * exits 1 with one line on stderr: `fleetyard up: cannot start: <where>: <why>`.
 *
 * It speaks to a person when it has one: on a terminal the logs are human lines
 * (`--log-format`, util/log-format.ts), `ready` is a banner (terminal/banner.ts) and the
 * nodes' registration a progress line; to a program (a pipe, a file) it prints exactly what
 * it always has, plus the dashboard's line.
 *
 * @module
 */
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { type RunningCluster, up } from '../cluster/up.js';
import {
  type ParsedUpOptions,
  parseUpArgs,
  UP_CLUSTER_DEFAULTS,
  UpFlagError,
} from '../cluster/up-flags.js';
import { LOG_FORMAT_ENV, type LogFormat, logFormatFromEnv, redactLogText } from '../util/log.js';
import { colorsEnabled } from '../util/log-format.js';
import { type ClusterSummary, type ReadyFacts, readyLines, upBanner } from './terminal/banner.js';
import { followNodeRegistration, type NodeRegistration } from './terminal/node-progress.js';
import { progressLine } from './terminal/progress-line.js';

/**
 * The umask of `fleetyard up`: no group or other bits on anything it creates. Every file
 * it writes itself gets an explicit mode anyway (security/files.ts); this covers what a
 * library creates on its own (SQLite's WAL, a temp file), as PostgreSQL's postmaster sets
 * umask 077 at start. The two certificates are still 0644: their mode is set explicitly.
 */
const UP_UMASK = 0o077;

/** Runs `fleetyard up <rest>`; resolves to the exit code. */
export async function runUp(rest: string[], untilSignal: () => Promise<void>): Promise<number> {
  let options: ParsedUpOptions;
  try {
    options = parseUpArgs(rest, {
      defaultLogFormat: defaultLogFormat(process.env, process.stderr.isTTY === true),
    });
  } catch (err) {
    if (!(err instanceof UpFlagError)) throw err;
    process.stderr.write(`fleetyard: ${err.message}\n`);
    return 2;
  }
  // The controller thread makes its own logger, in the format this names: a worker's
  // process.env is a copy of this thread's when it starts.
  process.env[LOG_FORMAT_ENV] = options.logFormat;
  return run(options, untilSignal);
}

/**
 * `--log-format` when not given: `FLEETYARD_LOG_FORMAT` when set, else `text` for a person
 * (stderr is a terminal) and `json` for a program (a pipe, a file, a supervisor's log).
 */
export function defaultLogFormat(env: NodeJS.ProcessEnv, stderrIsTTY: boolean): LogFormat {
  return logFormatFromEnv(env) ?? (stderrIsTTY ? 'text' : 'json');
}

/**
 * Starts the cluster, says `ready`, runs it until `untilSignal`, stops it: 0. A start that
 * fails: 1, after one line on stderr.
 */
async function run(options: ParsedUpOptions, untilSignal: () => Promise<void>): Promise<number> {
  const cluster = await start(options);
  if (cluster === undefined) return 1;
  // Listening for signals before saying ready: a supervisor (or test) that stops the process
  // the moment it reads `ready` gets a clean stop, not Node's default exit on SIGTERM.
  const signalled = untilSignal();
  const terminal = process.stdout.isTTY === true;
  process.stdout.write(
    readyText(readyFacts(cluster), {
      terminal,
      colors: colorsEnabled(process.env, terminal),
      cluster: clusterSummary(options, nodesOf(cluster)),
    }),
  );
  const nodes = nodesOf(cluster);
  const line = progressLine(process.stderr);
  const stopProgress =
    line !== undefined && nodes !== undefined ? followNodeRegistration(nodes, line) : undefined;
  await signalled;
  stopProgress?.();
  options.logger.info({}, 'shutting down');
  await cluster.stop();
  options.logger.flush();
  return 0;
}

/** The facts `ready` states; the dashboard's one-time link minted here, once. */
function readyFacts(cluster: RunningCluster): ReadyFacts {
  const { dashboard } = cluster;
  return {
    url: cluster.url,
    kubeconfigPath: cluster.kubeconfigPath,
    ...(dashboard !== undefined
      ? { dashboard: { url: dashboard.url, login: dashboard.loginUrl() } }
      : {}),
  };
}

/** How `ready` is said: a banner for a person at a terminal, else the lines programs parse. */
export interface ReadyStyle {
  readonly terminal: boolean;
  readonly colors: boolean;
  readonly cluster: ClusterSummary;
}

/** `ready`'s stdout text: {@link upBanner} on a terminal, else {@link readyLines}. */
export function readyText(facts: ReadyFacts, style: ReadyStyle): string {
  return style.terminal ? upBanner(facts, style.cluster, style.colors) : readyLines(facts);
}

/**
 * The simulated nodes' registration, once `RunningCluster` has it (`nodes`, asked of
 * src/cluster/up.ts): until then, and without the kubelet controller, none.
 */
function nodesOf(cluster: {
  readonly url: string;
  readonly nodes?: NodeRegistration | undefined;
}): NodeRegistration | undefined {
  return cluster.nodes;
}

/** The banner's summary: the nodes `up` registers, over how many zones, and the clock. */
export function clusterSummary(
  options: Pick<ParsedUpOptions, 'cluster' | 'controllers' | 'clock' | 'speed'>,
  nodes: NodeRegistration | undefined,
): ClusterSummary {
  // Without the cluster's count: `--nodes 0` (or a --controllers without it) leaves out the
  // kubelet controller, and with it every node.
  const kubelet = !(options.controllers ?? '').split(',').includes('-kubelet');
  const requested = options.cluster?.nodes ?? UP_CLUSTER_DEFAULTS.nodes;
  return {
    nodes: nodes?.expected ?? (kubelet ? requested : 0),
    zones: (options.cluster?.zones ?? UP_CLUSTER_DEFAULTS.zones).length,
    clock: options.clock ?? 'real',
    speed: options.speed,
  };
}

/** `up(options)`, or `undefined` after one line on stderr when the start failed. */
async function start(options: ParsedUpOptions): Promise<RunningCluster | undefined> {
  // Before the first file is made. Node throws in a worker thread (not ours to change there).
  if (isMainThread) process.umask(UP_UMASK);
  try {
    return await up(options);
  } catch (err) {
    // up() has stopped what it started; its logs (how far it got) go out before this line.
    await new Promise<void>((resolve) => options.logger.flush(() => resolve()));
    const why = startupFailure(err, options.dataDir);
    process.stderr.write(`fleetyard up: cannot start: ${why}\n`);
    return undefined;
  }
}

/**
 * One line saying where and why a start failed, e.g. `/srv/fy: no space left on device`:
 * a system error (ENOSPC, EROFS, EACCES, EADDRINUSE…) as the file (or else the data dir, or
 * the address) and the error's text without Node's code and syscall; a SQLite error as the
 * database and its text; anything else as its message. Redacted like a log line: a message
 * may quote a file that holds the token.
 */
export function startupFailure(err: unknown, dataDir: string): string {
  if (!(err instanceof Error)) return redactLogText(String(err));
  // What Node's system errors (and fs.rename's `dest`, net's `address`/`port`) may carry;
  // unknown until checked.
  const e: Error & SystemErrorFields = err;
  const code = typeof e.code === 'string' ? e.code : '';
  let text = e.message;
  if (code.startsWith('SQLITE_')) {
    text = `${join(dataDir, 'state.db')}: ${e.message}`;
  } else if (typeof e.syscall === 'string') {
    // Node's texts: "ENOSPC: no space left on device, write", "EROFS: read-only file system,
    // open '<path>'", "listen EADDRINUSE: address already in use 127.0.0.1:6443".
    const why = e.message
      .replace(/^(?:[a-z]+ )?[A-Z][A-Z0-9_]+: /, '')
      .replace(/, [a-z_]+(?: '.*')?$/, '')
      .replace(/ \S+:\d+$/, '');
    const where =
      e.syscall === 'listen' && typeof e.port === 'number'
        ? `${stringOr(e.address, '')}:${e.port}`
        : targetOf(stringOr(e.dest, stringOr(e.path, dataDir)));
    text = `${where}: ${why}`;
  }
  // One line: a multi-line message (a YAML error with its excerpt) keeps its first line.
  return redactLogText(text.split('\n')[0] ?? '');
}

/** The fields of Node's system errors `startupFailure` reads, each checked before use. */
interface SystemErrorFields {
  readonly code?: unknown;
  readonly syscall?: unknown;
  readonly path?: unknown;
  /** fs.rename's and fs.copyFile's target. */
  readonly dest?: unknown;
  /** net's, on a failed listen. */
  readonly address?: unknown;
  readonly port?: unknown;
}

function stringOr(value: unknown, otherwise: string): string {
  return typeof value === 'string' ? value : otherwise;
}

/** The file a writeFileAtomic temp file (`dir/.name.<12 hex>.tmp`) stands for. */
function targetOf(path: string): string {
  return path.replace(/\/\.([^/]+)\.[0-9a-f]{12}\.tmp$/, '/$1');
}
