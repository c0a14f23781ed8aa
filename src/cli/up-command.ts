/**
 * `fleetyard up`'s command line: flags parsed and checked (a bad value exits 2 with kube's
 * wording where kube has one), then the cluster runs until `untilSignal` resolves. A start
 * that fails (a full or read-only disk, a port in use) has stopped whatever it started and
 * exits 1 with one line on stderr: `fleetyard up: cannot start: <where>: <why>`.
 *
 * @module
 */
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { type RunningCluster, type UpOptions, up } from '../cluster/up.js';
import { parseUpArgs, UpFlagError } from '../cluster/up-flags.js';
import { redactLogText } from '../util/log.js';

/**
 * The umask of `fleetyard up`: no group or other bits on anything it creates. Every file
 * it writes itself gets an explicit mode anyway (security/files.ts); this covers what a
 * library creates on its own (SQLite's WAL, a temp file), as PostgreSQL's postmaster sets
 * umask 077 at start. The two certificates are still 0644: their mode is set explicitly.
 */
const UP_UMASK = 0o077;

/** Runs `fleetyard up <rest>`; resolves to the exit code. */
export async function runUp(rest: string[], untilSignal: () => Promise<void>): Promise<number> {
  let options: UpOptions;
  try {
    options = parseUpArgs(rest);
  } catch (err) {
    if (!(err instanceof UpFlagError)) throw err;
    process.stderr.write(`fleetyard: ${err.message}\n`);
    return 2;
  }
  return run(options, untilSignal);
}

/**
 * Starts the cluster, says `ready`, runs it until `untilSignal`, stops it: 0. A start that
 * fails: 1, after one line on stderr.
 */
async function run(options: UpOptions, untilSignal: () => Promise<void>): Promise<number> {
  const cluster = await start(options);
  if (cluster === undefined) return 1;
  // Listening for signals before saying ready: a supervisor (or test) that stops the process
  // the moment it reads `ready` gets a clean stop, not Node's default exit on SIGTERM.
  const signalled = untilSignal();
  process.stdout.write(`fleetyard ready url=${cluster.url} kubeconfig=${cluster.kubeconfigPath}\n`);
  process.stdout.write(`  export KUBECONFIG=${cluster.kubeconfigPath}\n`);
  await signalled;
  options.logger.info({}, 'shutting down');
  await cluster.stop();
  options.logger.flush();
  return 0;
}

/** `up(options)`, or `undefined` after one line on stderr when the start failed. */
async function start(options: UpOptions): Promise<RunningCluster | undefined> {
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
