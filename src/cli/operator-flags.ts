/**
 * The flags of `fleetyard operator`, parsed and validated without side effects so every
 * refusal is tested (operator-command.test.ts) and happens before anything connects. They
 * mirror the Go operator's (docs/design/operator.md §1), which follow controller-runtime:
 * Go durations, `--metrics-bind-address=0` disables metrics, boolean flags given bare or as
 * `--flag=true|false`.
 *
 * @module
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isOneOf } from '../cluster/flag-table.js';
import { LOCAL_KUBECONFIG } from '../cluster/up-flag-table.js';
import { LOG_LEVELS } from '../cluster/up-flag-values.js';
import { MIN_MEMBER_REPLACEMENT_DELAY_MS as OPERATOR_MIN_DELAY_MS } from '../operator/healing/types.js';
import { formatGoDuration, parseGoDuration } from '../sim/kubelet/annotations.js';
import type { LogLevel } from '../util/log.js';
import { MAX_MEMBER_REPLACEMENT_DELAY_MS, OPERATOR_FLAGS } from './operator-flag-table.js';

export { OPERATOR_USAGE } from './operator-flag-table.js';

/** Below 1 min a slow restart would already cost a member its disk (docs/design/operator.md §1). */
export const MIN_MEMBER_REPLACEMENT_DELAY_MS = OPERATOR_MIN_DELAY_MS;

/** The flags read as Go booleans (bare: true): `normalizeBooleans` rewrites them. */
const BOOLEAN_FLAGS: ReadonlySet<string> = new Set(
  Object.entries(OPERATOR_FLAGS)
    .filter(([, spec]) => 'goBool' in spec && spec.goBool)
    .map(([name]) => name),
);
/** A namespace name: an RFC 1123 label. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** A listen address; `host` undefined means all interfaces (Go's `:8080`). */
export interface BindAddress {
  readonly host?: string;
  readonly port: number;
}

/** Where the connection comes from, decided by {@link chooseConnection}. */
export type ConnectionSource =
  | { readonly kind: 'kubeconfig'; readonly path: string; readonly context?: string }
  | { readonly kind: 'in-cluster' };

export interface OperatorFlags {
  readonly help: boolean;
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly namespace?: string;
  /** Undefined: the in-cluster namespace file, else `celld-system` (decided at start). */
  readonly operatorNamespace?: string;
  readonly memberReplacementDelayMs: number;
  readonly networkPolicyEnforced: boolean;
  readonly localTest: boolean;
  readonly leaderElect: boolean;
  /** Undefined: disabled (`0`). */
  readonly metrics?: BindAddress;
  /** Undefined: disabled (`0`). */
  readonly healthProbes?: BindAddress;
  readonly logLevel: LogLevel;
}

/** Parses `argv` (after `operator`); throws an Error naming the flag on any invalid value. */
export function parseOperatorFlags(argv: readonly string[]): OperatorFlags {
  const { values } = parseArgs({
    args: normalizeBooleans(argv),
    options: OPERATOR_FLAGS,
    strict: true,
  });
  const metrics = parseBindAddress('--metrics-bind-address', values['metrics-bind-address']);
  const healthProbes = parseBindAddress(
    '--health-probe-bind-address',
    values['health-probe-bind-address'],
  );
  if (metrics && healthProbes && sameListener(metrics, healthProbes)) {
    throw new Error(
      `--metrics-bind-address and --health-probe-bind-address both name port ${metrics.port}`,
    );
  }
  const logLevel = values['log-level'];
  if (!isOneOf(LOG_LEVELS, logLevel)) {
    throw new Error(`invalid --log-level ${logLevel}: want ${LOG_LEVELS.join(', ')}`);
  }
  const help = parseBool('--help', values.help);
  const namespace = namespaceFlag('--namespace', values.namespace);
  const operatorNamespace = namespaceFlag('--operator-namespace', values['operator-namespace']);
  const memberReplacementDelayMs = parseMemberReplacementDelay(values['member-replacement-delay']);
  const networkPolicyEnforced = parseBool(
    '--network-policy-enforced',
    values['network-policy-enforced'],
  );
  const localTest = parseBool('--local-test', values['local-test']);
  const leaderElect = parseBool('--leader-elect', values['leader-elect']);
  const { kubeconfig, context } = values;
  return {
    help,
    ...(kubeconfig !== undefined ? { kubeconfig } : {}),
    ...(context !== undefined ? { context } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
    ...(operatorNamespace !== undefined ? { operatorNamespace } : {}),
    memberReplacementDelayMs,
    networkPolicyEnforced,
    localTest,
    leaderElect,
    ...(metrics !== undefined ? { metrics } : {}),
    ...(healthProbes !== undefined ? { healthProbes } : {}),
    logLevel,
  };
}

/**
 * `--kubeconfig` if given; else in-cluster when `KUBERNETES_SERVICE_HOST` is set (we are in a
 * Pod); else `./.fleetyard/kubeconfig`, which `fleetyard up` writes.
 */
export function chooseConnection(
  flags: Pick<OperatorFlags, 'kubeconfig' | 'context'>,
  env: Readonly<Record<string, string | undefined>>,
  cwd = process.cwd(),
): ConnectionSource {
  const context = flags.context !== undefined ? { context: flags.context } : {};
  if (flags.kubeconfig !== undefined) {
    return { kind: 'kubeconfig', path: resolve(cwd, flags.kubeconfig), ...context };
  }
  if (env.KUBERNETES_SERVICE_HOST) {
    if (flags.context !== undefined) {
      throw new Error('--context selects a kubeconfig context: inside a cluster add --kubeconfig');
    }
    return { kind: 'in-cluster' };
  }
  return { kind: 'kubeconfig', path: resolve(cwd, LOCAL_KUBECONFIG), ...context };
}

/** A Go duration of at least 1 min (and under Node's timer limit), in ms. */
export function parseMemberReplacementDelay(text: string): number {
  const ms = parseGoDuration(text);
  if (ms === undefined) {
    throw new Error(
      `invalid --member-replacement-delay ${JSON.stringify(text)}: want a Go duration such as 10m, 90s or 1h30m`,
    );
  }
  if (ms < MIN_MEMBER_REPLACEMENT_DELAY_MS) {
    throw new Error(
      `--member-replacement-delay ${text} is under the minimum of 1m: a member restarting slower than that would lose its disk`,
    );
  }
  if (ms > MAX_MEMBER_REPLACEMENT_DELAY_MS) {
    throw new Error(
      `--member-replacement-delay ${text} is over the maximum of ${formatGoDuration(MAX_MEMBER_REPLACEMENT_DELAY_MS)}`,
    );
  }
  return Math.round(ms);
}

/**
 * `host:port`, `:port` (all interfaces), `[v6]:port`; `0` (controller-runtime's) or an empty
 * string disables the listener and returns undefined.
 */
export function parseBindAddress(flag: string, text: string): BindAddress | undefined {
  if (text === '0' || text === '') return undefined;
  const m = /^(?:\[([0-9a-fA-F:.%a-zA-Z]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text);
  const port = Number(m?.[3]);
  if (!m || !Number.isInteger(port) || port > 65_535) {
    throw new Error(`invalid ${flag} ${JSON.stringify(text)}: want host:port, :port or 0`);
  }
  const host = m[1] ?? m[2];
  return host ? { host, port } : { port };
}

/** How a bind address is written back (logs, usage). */
export function formatBindAddress(address: BindAddress | undefined): string {
  if (address === undefined) return '0';
  const host = address.host?.includes(':') ? `[${address.host}]` : (address.host ?? '');
  return `${host}:${address.port}`;
}

/** Go's strconv.ParseBool, which flag.BoolVar uses. */
function parseBool(flag: string, text: string): boolean {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(text)) return false;
  throw new Error(`invalid ${flag} ${JSON.stringify(text)}: want true or false`);
}

/**
 * Rewrites boolean flags to `--flag=value` so parseArgs can read them as strings: bare
 * `--flag` is true (Go), and `--flag true|false` (a separate word, as `fleetyard controllers
 * --leader-elect false`) is accepted too.
 */
function normalizeBooleans(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const name = arg.replace(/^--/, '');
    if (!arg.startsWith('--') || !BOOLEAN_FLAGS.has(name)) {
      out.push(arg);
      continue;
    }
    const next = argv[i + 1];
    if (next === 'true' || next === 'false') {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(`${arg}=true`);
    }
  }
  return out;
}

function namespaceFlag(flag: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (text.length > 63 || !DNS_LABEL.test(text)) {
    throw new Error(`invalid ${flag} ${JSON.stringify(text)}: want a namespace name`);
  }
  return text;
}

/** Two listeners collide when they share a port and either binds all interfaces or both one host. */
function sameListener(a: BindAddress, b: BindAddress): boolean {
  if (a.port !== b.port || a.port === 0) return false;
  return a.host === undefined || b.host === undefined || a.host === b.host;
}
