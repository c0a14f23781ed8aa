/**
 * The flags of `fleetyard operator`, parsed and validated without side effects so every
 * refusal is tested (operator-command.test.ts) and happens before anything connects. They
 * mirror the Go operator's (celld-operator spec §2.1), which follow controller-runtime:
 * Go durations, `--metrics-bind-address=0` disables metrics, boolean flags given bare or as
 * `--flag=true|false`.
 *
 * @module
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatGoDuration, parseGoDuration } from '../kubelet/annotations.js';
import type { LogLevel } from '../util/log.js';

/** The Go operator's default: long enough to ride out a node reboot (~2–5 min). */
export const DEFAULT_MEMBER_REPLACEMENT_DELAY = '10m';
/** Below 1 min a slow restart would already cost a member its disk (spec §2.1). */
export const MIN_MEMBER_REPLACEMENT_DELAY_MS = 60_000;
/** Node timers overflow above 2^31−1 ms (≈ 24.8 days) and fire at once; 24 days stays under. */
export const MAX_MEMBER_REPLACEMENT_DELAY_MS = 24 * 24 * 3_600_000;

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];
const BOOLEAN_FLAGS = ['network-policy-enforced', 'local-test', 'leader-elect', 'help'] as const;
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

export const OPERATOR_USAGE = `Usage: fleetyard operator [options]

Runs the celld fleet operator (celld.fleetyard.dev/v1alpha1 CelldFleet) until SIGINT/SIGTERM.

Connection: --kubeconfig if given; else in-cluster (the Pod's ServiceAccount) when
KUBERNETES_SERVICE_HOST is set; else ./.fleetyard/kubeconfig (a local fleetyard up).

Options:
  --kubeconfig PATH         kubeconfig to connect with
  --context NAME            kubeconfig context (default: the current one)
  --namespace NS            Reconcile fleets of this namespace only (default: all)
  --operator-namespace NS   Where the operator runs and holds its Lease; fleets' NetworkPolicies
                            admit it from there (default: the Pod's namespace in a cluster,
                            else celld-system)
  --member-replacement-delay D
                            How long one member may be down before it is replaced on a fresh
                            disk, as a Go duration; at least 1m (default 10m)
  --network-policy-enforced Attest that the cluster's CNI enforces NetworkPolicy. Without it
                            every fleet reports IsolationUnverified and nothing is provisioned.
                            Set it only when that is true (Calico, Cilium, …; not flannel alone)
  --local-test              Allow the node-local hostpath.csi.k8s.io provisioner (test clusters)
  --leader-elect BOOL       Run only while holding the Lease (default true)
  --metrics-bind-address A  Prometheus /metrics, plain HTTP (default :8080, all interfaces;
                            0 disables). Outside a cluster pass 127.0.0.1:8080
  --health-probe-bind-address A
                            /healthz and /readyz, plain HTTP (default :8081; 0 disables).
                            Outside a cluster pass 127.0.0.1:8081
  --log-level LEVEL         debug, info, warn, error or silent (default info); JSON on stderr

Exits 1 when it loses the Lease or the operator fails, so its Deployment restarts it.
`;

/** Parses `argv` (after `operator`); throws an Error naming the flag on any invalid value. */
export function parseOperatorFlags(argv: readonly string[]): OperatorFlags {
  const { values } = parseArgs({
    args: normalizeBooleans(argv),
    options: {
      kubeconfig: { type: 'string' },
      context: { type: 'string' },
      namespace: { type: 'string' },
      'operator-namespace': { type: 'string' },
      'member-replacement-delay': { type: 'string', default: DEFAULT_MEMBER_REPLACEMENT_DELAY },
      'network-policy-enforced': { type: 'string', default: 'false' },
      'local-test': { type: 'string', default: 'false' },
      'leader-elect': { type: 'string', default: 'true' },
      'metrics-bind-address': { type: 'string', default: ':8080' },
      'health-probe-bind-address': { type: 'string', default: ':8081' },
      'log-level': { type: 'string', default: 'info' },
      help: { type: 'string', default: 'false' },
    },
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
  const logLevel = values['log-level'] as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new Error(`invalid --log-level ${logLevel}: want ${LOG_LEVELS.join(', ')}`);
  }
  return {
    help: parseBool('--help', values.help),
    ...optional('kubeconfig', values.kubeconfig),
    ...optional('context', values.context),
    ...optional('namespace', namespaceFlag('--namespace', values.namespace)),
    ...optional(
      'operatorNamespace',
      namespaceFlag('--operator-namespace', values['operator-namespace']),
    ),
    memberReplacementDelayMs: parseMemberReplacementDelay(values['member-replacement-delay']),
    networkPolicyEnforced: parseBool(
      '--network-policy-enforced',
      values['network-policy-enforced'],
    ),
    localTest: parseBool('--local-test', values['local-test']),
    leaderElect: parseBool('--leader-elect', values['leader-elect']),
    ...optional('metrics', metrics),
    ...optional('healthProbes', healthProbes),
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
  return { kind: 'kubeconfig', path: resolve(cwd, '.fleetyard', 'kubeconfig'), ...context };
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
    if (!arg.startsWith('--') || !(BOOLEAN_FLAGS as readonly string[]).includes(name)) {
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

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
