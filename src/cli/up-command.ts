/**
 * `fleetyard up`'s command line: flags parsed and checked (a bad value exits 2 with kube's
 * wording where kube has one), then the cluster runs until `untilSignal` resolves. A start
 * that fails (a full or read-only disk, a port in use) has stopped whatever it started and
 * exits 1 with one line on stderr: `fleetyard up: cannot start: <where>: <why>`.
 *
 * @module
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isMainThread } from 'node:worker_threads';
import {
  type FeatureGates,
  parseFeatureGates,
  statefulSetFeatures,
} from '../apiserver/feature-gates.js';
import type { DefaultStorageClass } from '../controllers/persistentvolume/index.js';
import { parseGoDuration } from '../kubelet/annotations.js';
import { parseAdvertiseAddress, parseTlsSans } from '../security/serving-names.js';
import { createLogger, type LogLevel, redactLogText } from '../util/log.js';
import { CLOCK_FLAG_OPTIONS, parseClockFlags } from './clock-flags.js';
import { type RunningCluster, type UpOptions, up } from './up.js';

/**
 * The umask of `fleetyard up`: no group or other bits on anything it creates. Every file
 * it writes itself gets an explicit mode anyway (security/files.ts); this covers what a
 * library creates on its own (SQLite's WAL, a temp file), as PostgreSQL's postmaster sets
 * umask 077 at start. The two certificates are still 0644: their mode is set explicitly.
 */
const UP_UMASK = 0o077;

/** A flag value `fleetyard up` refuses: printed as `fleetyard: <message>`, exit 2. */
export class UpFlagError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpFlagError';
  }
}

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
 * `fleetyard up`'s flags as {@link UpOptions}; throws {@link UpFlagError} for a bad value (the
 * test harness starts clusters from the same flags).
 */
export function parseUpArgs(rest: readonly string[]): UpOptions {
  const { values } = parseArgs({
    args: [...rest],
    options: {
      'data-dir': { type: 'string', default: '.fleetyard' },
      ephemeral: { type: 'boolean', default: false },
      port: { type: 'string', default: '6443' },
      host: { type: 'string', default: '127.0.0.1' },
      'tls-san': { type: 'string', multiple: true, default: [] },
      'advertise-address': { type: 'string' },
      'log-level': { type: 'string', default: 'info' },
      'history-limit': { type: 'string' },
      'min-request-timeout': { type: 'string' },
      nodes: { type: 'string', default: '3' },
      zones: { type: 'string', default: 'a,b,c' },
      controllers: { type: 'string', default: '*' },
      'node-monitor-grace-period': { type: 'string' },
      'node-lease-duration-seconds': { type: 'string' },
      'default-not-ready-toleration-seconds': { type: 'string' },
      'default-unreachable-toleration-seconds': { type: 'string' },
      'default-storage-class': { type: 'string', default: 'standard' },
      'feature-gates': { type: 'string', default: '' },
      'member-replacement-delay': { type: 'string' },
      'max-requests-inflight': { type: 'string' },
      'max-mutating-requests-inflight': { type: 'string' },
      ...CLOCK_FLAG_OPTIONS,
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UpFlagError(`invalid --port ${values.port}`);
  }
  const listener = listenerFlags(values['tls-san'], values['advertise-address']);
  const clockFlags = parseClockFlags(values);
  if (typeof clockFlags === 'string') throw new UpFlagError(clockFlags);
  const historyLimit = optionalPositiveInt(values['history-limit'], '--history-limit');
  const minRequestTimeout = optionalPositiveInt(
    values['min-request-timeout'],
    '--min-request-timeout',
  );
  const nodes = Number(values.nodes);
  if (!Number.isInteger(nodes) || nodes < 0 || nodes > 250) {
    throw new UpFlagError(`invalid --nodes ${values.nodes}: want 0 to 250`);
  }
  const zones = values.zones.split(',').map((z) => z.trim());
  if (zones.some((z) => !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(z))) {
    throw new UpFlagError(`invalid --zones ${values.zones}`);
  }
  const leaseSeconds = optionalPositiveInt(
    values['node-lease-duration-seconds'],
    '--node-lease-duration-seconds',
  );
  const grace = optionalDuration(
    values['node-monitor-grace-period'],
    '--node-monitor-grace-period',
  );
  const notReady = optionalNonNegativeInt(
    values['default-not-ready-toleration-seconds'],
    '--default-not-ready-toleration-seconds',
  );
  const unreachable = optionalNonNegativeInt(
    values['default-unreachable-toleration-seconds'],
    '--default-unreachable-toleration-seconds',
  );
  const replacementDelay = optionalDuration(
    values['member-replacement-delay'],
    '--member-replacement-delay',
  );
  if (replacementDelay !== undefined && replacementDelay < 60_000) {
    throw new UpFlagError(
      `invalid --member-replacement-delay ${values['member-replacement-delay']}: must be at least 1m`,
    );
  }
  const inFlight = inFlightFlags(
    values['max-requests-inflight'],
    values['max-mutating-requests-inflight'],
  );
  const storageClass = values['default-storage-class'];
  if (!['standard', 'ebs', 'none'].includes(storageClass)) {
    throw new UpFlagError(
      `invalid --default-storage-class ${storageClass}: want standard, ebs or none`,
    );
  }
  let featureGates: FeatureGates;
  try {
    featureGates = parseFeatureGates(values['feature-gates']);
  } catch (err) {
    // kube-apiserver's (pflag's) wording.
    const why = err instanceof Error ? err.message : String(err);
    throw new UpFlagError(
      `invalid argument "${values['feature-gates']}" for "--feature-gates" flag: ${why}`,
    );
  }
  const logger = createLogger(values['log-level'] as LogLevel);
  const dataDir = resolve(values['data-dir']);
  return {
    dataDir,
    ephemeral: values.ephemeral,
    host: values.host,
    port,
    ...listener,
    logger,
    logLevel: values['log-level'] as LogLevel,
    ...(historyLimit !== undefined ? { historyLimit } : {}),
    ...(minRequestTimeout !== undefined ? { minRequestTimeoutSeconds: minRequestTimeout } : {}),
    // --nodes 0 is a cluster without simulated nodes (the kubelet controller off).
    controllers: nodes === 0 ? `${values.controllers},-kubelet` : values.controllers,
    cluster: {
      nodes: Math.max(nodes, 1),
      zones,
      ...(grace !== undefined ? { nodeMonitorGracePeriodMs: grace } : {}),
      ...(leaseSeconds !== undefined ? { nodeLeaseDurationSeconds: leaseSeconds } : {}),
      ...(replacementDelay !== undefined ? { memberReplacementDelayMs: replacementDelay } : {}),
      defaultStorageClass: storageClass as DefaultStorageClass,
      gates: statefulSetFeatures(featureGates),
    },
    featureGates,
    ...(notReady !== undefined ? { defaultNotReadyTolerationSeconds: notReady } : {}),
    ...(unreachable !== undefined ? { defaultUnreachableTolerationSeconds: unreachable } : {}),
    ...inFlight,
    ...clockFlags,
  };
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
 * `--tls-san` (repeated and/or comma-separated, as k3s) and `--advertise-address`, checked;
 * throws {@link UpFlagError} when one is invalid.
 */
function listenerFlags(
  tlsSan: readonly string[],
  advertise: string | undefined,
): Pick<UpOptions, 'tlsSans' | 'advertiseAddress'> {
  try {
    return {
      tlsSans: parseTlsSans(tlsSan),
      ...(advertise !== undefined ? { advertiseAddress: parseAdvertiseAddress(advertise) } : {}),
    };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new UpFlagError(why.replace(/^invalid host/, 'invalid --tls-san'));
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
  const e = err as NodeJS.ErrnoException & { dest?: string; address?: string; port?: number };
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
      e.syscall === 'listen' && e.port !== undefined
        ? `${e.address ?? ''}:${e.port}`
        : targetOf(e.dest ?? e.path ?? dataDir);
    text = `${where}: ${why}`;
  }
  // One line: a multi-line message (a YAML error with its excerpt) keeps its first line.
  return redactLogText(text.split('\n')[0] ?? '');
}

/** The file a writeFileAtomic temp file (`dir/.name.<12 hex>.tmp`) stands for. */
function targetOf(path: string): string {
  return path.replace(/\/\.([^/]+)\.[0-9a-f]{12}\.tmp$/, '/$1');
}

function optionalPositiveInt(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`invalid ${flag} ${text}: want a positive integer`);
  return n;
}

/** A Go duration (`50s`, `1m30s`, `500ms`) in ms. */
function optionalDuration(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseGoDuration(text);
  if (ms === undefined || ms <= 0)
    throw new Error(`invalid ${flag} ${text}: want a duration like 40s`);
  return ms;
}

/** `--max-requests-inflight` and `--max-mutating-requests-inflight`: kube-apiserver's flags (0: off). */
function inFlightFlags(
  readOnly: string | undefined,
  mutating: string | undefined,
): Pick<UpOptions, 'maxRequestsInFlight' | 'maxMutatingRequestsInFlight'> {
  const r = optionalNonNegativeInt(readOnly, '--max-requests-inflight');
  const m = optionalNonNegativeInt(mutating, '--max-mutating-requests-inflight');
  return {
    ...(r !== undefined ? { maxRequestsInFlight: r } : {}),
    ...(m !== undefined ? { maxMutatingRequestsInFlight: m } : {}),
  };
}

function optionalNonNegativeInt(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`invalid ${flag} ${text}: want a non-negative integer`);
  return n;
}
