/**
 * The body of `fleetyard operator`, with the operator's {@link ControllerDefinition} passed in
 * so it is tested with a stub (operator-command.test.ts) and the command file stays the only
 * one importing the reconciler.
 *
 * Order matters: flags are validated before anything connects; the probe and metrics
 * listeners start before leader election, so a standby replica is Ready; the controller
 * manager starts only on the leader. The process ends with 1 when it loses the Lease or the
 * operator stops on its own (a crash would otherwise leave a leader that reconciles nothing):
 * the Deployment restarts it as a fresh candidate, as upstream's managers do.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Registry } from 'prom-client';
import { ApiClient } from '../client/api-client.js';
import type { ConnectionOptions } from '../client/http-lister-watcher.js';
import { loadInClusterConnection } from '../client/in-cluster-connection.js';
import { loadKubeconfigConnection } from '../client/kubeconfig-connection.js';
import type { ControllerDefinition } from '../controller/context.js';
import { runLeaderElection } from '../controller/leader-election.js';
import { startControllerManager } from '../controller/manager.js';
import {
  type CelldOperatorOptions,
  DEFAULT_OPERATOR_NAMESPACE,
  OPERATOR_COMPONENT,
  OPERATOR_LEASE_NAME,
} from '../operator/controller/options.js';
import { realClock } from '../util/clock.js';
import { addLogSecret, createLogger, type Logger } from '../util/log.js';
import {
  type BindAddress,
  type ConnectionSource,
  chooseConnection,
  formatBindAddress,
  OPERATOR_USAGE,
  type OperatorFlags,
  parseOperatorFlags,
} from './operator-flags.js';
import { type OperatorListener, serveMetrics, serveProbes } from './operator-http.js';
import { operatorSettingsLog, watchOperator } from './operator-support.js';

export interface OperatorDeps {
  /** Builds the operator's controller (the command passes `celldOperator`). */
  readonly operator: (options: CelldOperatorOptions) => ControllerDefinition;
  /** @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The mounted ServiceAccount folder (tests). */
  readonly serviceAccountDir?: string;
  /** @default a JSON logger on stderr at `--log-level` */
  readonly log?: Logger;
  /** Told the bound ports (tests bind port 0). */
  readonly onListening?: (ports: { metrics?: number; healthProbes?: number }) => void;
}

export interface OperatorIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const PROCESS_IO: OperatorIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/**
 * `fleetyard operator ARGS`: usage on `--help`, 2 with the reason on an invalid flag (as
 * `fleetyard up`), else {@link runOperatorWith}.
 */
export async function runOperatorCli(
  argv: readonly string[],
  signal: AbortSignal,
  deps: OperatorDeps,
  io: OperatorIo = PROCESS_IO,
): Promise<number> {
  let flags: OperatorFlags;
  try {
    flags = parseOperatorFlags(argv);
    // Flag combinations that depend on where we run (--context in a Pod) are refused here too.
    if (!flags.help) chooseConnection(flags, deps.env ?? process.env);
  } catch (err) {
    io.stderr(`fleetyard operator: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  if (flags.help) {
    io.stdout(OPERATOR_USAGE);
    return 0;
  }
  return runOperatorWith(flags, signal, deps);
}

/** Runs until `signal` aborts (0), the Lease is lost or the operator fails (1). */
export async function runOperatorWith(
  flags: OperatorFlags,
  signal: AbortSignal,
  deps: OperatorDeps,
): Promise<number> {
  const env = deps.env ?? process.env;
  const source = chooseConnection(flags, env);
  const { connection, podNamespace } = await connect(source, env, deps.serviceAccountDir);
  // The kubeconfig's or ServiceAccount's token is never written to a log line.
  addLogSecret(connection.token);
  const operatorNamespace = flags.operatorNamespace ?? podNamespace ?? DEFAULT_OPERATOR_NAMESPACE;
  const log = deps.log ?? createLogger(flags.logLevel, OPERATOR_COMPONENT);
  log.info(
    operatorSettingsLog(flags, source, connection.server, operatorNamespace),
    'celld operator starting',
  );
  if (!flags.networkPolicyEnforced) {
    log.warn(
      {},
      'without --network-policy-enforced every fleet reports IsolationUnverified and nothing is provisioned',
    );
  }
  const registry = await createRegistry();
  const listeners = await startListeners(flags, registry);
  deps.onListening?.({
    ...(listeners.metrics ? { metrics: listeners.metrics.port } : {}),
    ...(listeners.healthProbes ? { healthProbes: listeners.healthProbes.port } : {}),
  });
  const options: CelldOperatorOptions = {
    memberReplacementDelayMs: flags.memberReplacementDelayMs,
    networkPolicyEnforced: flags.networkPolicyEnforced,
    localTest: flags.localTest,
    operatorNamespace,
    ...(flags.namespace !== undefined ? { namespace: flags.namespace } : {}),
  };
  try {
    // Built before the election: an operator that cannot be built fails at once, not as leader.
    const operator = deps.operator(options);
    return await lead({ flags, signal, connection, operatorNamespace, registry, log }, operator);
  } finally {
    await Promise.all([listeners.metrics?.close(), listeners.healthProbes?.close()]);
    log.flush();
  }
}

interface LeadContext {
  readonly flags: OperatorFlags;
  readonly signal: AbortSignal;
  readonly connection: ConnectionOptions;
  readonly operatorNamespace: string;
  readonly registry: Registry;
  readonly log: Logger;
}

async function lead(
  { flags, signal, connection, operatorNamespace, registry, log }: LeadContext,
  definition: ControllerDefinition,
): Promise<number> {
  // Our own stop: the caller's signal, or the operator failing (then the Lease is released).
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  if (signal.aborted) onSignal();
  signal.addEventListener('abort', onSignal, { once: true });
  let failure: unknown;
  const run = async (leading: AbortSignal): Promise<void> => {
    const operator = watchOperator(definition, (err) => {
      failure = err;
      stop.abort();
    });
    const manager = startControllerManager({
      connection,
      controllers: [operator],
      clock: realClock,
      log,
    });
    await manager.registerMetrics(registry);
    await untilAborted(leading, stop.signal);
    await manager.stop();
  };
  let lost = false;
  try {
    if (!flags.leaderElect) {
      await run(stop.signal);
    } else {
      const client = new ApiClient({ ...connection, userAgent: OPERATOR_COMPONENT });
      await runLeaderElection({
        client,
        clock: realClock,
        log,
        name: OPERATOR_LEASE_NAME,
        namespace: operatorNamespace,
        identity: `${hostname()}_${randomUUID()}`,
        releaseOnCancel: true,
        signal: stop.signal,
        onStartedLeading: run,
        onStoppedLeading: () => {
          if (!stop.signal.aborted) lost = true;
        },
      });
      client.close();
    }
  } finally {
    signal.removeEventListener('abort', onSignal);
  }
  if (failure !== undefined) {
    log.error({ err: failure }, 'celld operator stopped unexpectedly');
    return 1;
  }
  if (lost) {
    log.error({}, 'leader election lost');
    return 1;
  }
  return 0;
}

async function connect(
  source: ConnectionSource,
  env: Readonly<Record<string, string | undefined>>,
  dir: string | undefined,
): Promise<{ connection: ConnectionOptions; podNamespace?: string }> {
  if (source.kind === 'in-cluster') {
    const { namespace, ...connection } = await loadInClusterConnection({
      env,
      ...(dir !== undefined ? { dir } : {}),
    });
    return { connection, podNamespace: namespace };
  }
  // The kubeconfig context's namespace is the user's, not the operator's: not used.
  const { namespace: _ns, ...connection } = await loadKubeconfigConnection(
    source.path,
    source.context,
  );
  return { connection };
}

async function createRegistry(): Promise<Registry> {
  // A CommonJS module: its exports are `default` under Node and bundled (where the chunk
  // exports nothing else).
  const { default: prom } = await import('prom-client');
  const registry = new prom.Registry();
  // process_* and nodejs_* (heap, event-loop lag): what to watch against the 512Mi limit.
  prom.collectDefaultMetrics({ register: registry });
  return registry;
}

async function startListeners(
  flags: OperatorFlags,
  registry: Registry,
): Promise<{ metrics?: OperatorListener; healthProbes?: OperatorListener }> {
  const { metrics: metricsAt, healthProbes: probesAt } = flags;
  const metrics = metricsAt
    ? await bind('--metrics-bind-address', metricsAt, () => serveMetrics(metricsAt, registry))
    : undefined;
  try {
    const healthProbes = probesAt
      ? await bind('--health-probe-bind-address', probesAt, () => serveProbes(probesAt))
      : undefined;
    return { ...(metrics ? { metrics } : {}), ...(healthProbes ? { healthProbes } : {}) };
  } catch (err) {
    await metrics?.close();
    throw err;
  }
}

/** Names the flag when a listener cannot bind (EADDRINUSE, EACCES below port 1024). */
async function bind(
  flag: string,
  address: BindAddress,
  serve: () => Promise<OperatorListener>,
): Promise<OperatorListener> {
  try {
    return await serve();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(`${flag} ${formatBindAddress(address)}: ${why}`);
  }
}

function untilAborted(...signals: AbortSignal[]): Promise<void> {
  return new Promise((done) => {
    if (signals.some((s) => s.aborted)) return done();
    for (const s of signals) s.addEventListener('abort', () => done(), { once: true });
  });
}
