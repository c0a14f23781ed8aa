/**
 * The `fleetyard` command.
 *
 * @module
 */
import { parseArgs } from 'node:util';
import { parseGoDuration } from '../kubelet/annotations.js';
import { createLogger, type LogLevel } from '../util/log.js';
import { runChaos } from './chaos.js';
import { runControllers } from './controllers.js';
import { up } from './up.js';

const USAGE = `Usage: fleetyard <command> [options]

Commands:
  up         Run a cluster in this process until SIGINT/SIGTERM.
  chaos      Inject faults: node-down, node-up, crash, break-readiness, restore-readiness
             (fleetyard chaos --help).
  controllers
             Run the controllers against the API server of a kubeconfig, with leader
             election (fleetyard controllers --help).
  version    Print the version.

Options for up:
  --data-dir DIR     Where state, certificates, token and kubeconfig live (default ./.fleetyard)
  --ephemeral        Keep objects in memory only (nothing survives the process)
  --port N           HTTPS port (default 6443; 0 picks a free port)
  --host ADDR        Address to bind (default 127.0.0.1)
  --log-level LEVEL  debug, info, warn, error or silent (default info)
  --history-limit N  Events kept for watch resume; older starts get 410 Expired (default 10000)
  --min-request-timeout S
                     Watches without timeoutSeconds end after S to 2*S seconds (default 1800)
  --nodes N          Simulated nodes (default 3)
  --zones a,b,c      Zones the nodes are spread over, round-robin (default a,b,c)
  --controllers LIST Controllers to run: * for all, -name to leave one out (default *)
  --node-monitor-grace-period D
                     A node silent this long goes Unknown and is tainted (default 50s)
  --default-not-ready-toleration-seconds S
  --default-unreachable-toleration-seconds S
                     tolerationSeconds of the default NoExecute tolerations (default 300)
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'version' || command === '--version') {
    process.stdout.write('fleetyard 0.1.0 (Kubernetes API v1.33)\n');
    return 0;
  }
  if (command === 'chaos') {
    return runChaos(rest, {
      stdout: (s) => process.stdout.write(s),
      stderr: (s) => process.stderr.write(s),
    });
  }
  if (command === 'controllers') {
    const stop = new AbortController();
    void waitForSignal().then(() => stop.abort());
    return runControllers(rest, stop.signal);
  }
  if (command !== 'up') {
    process.stderr.write(USAGE);
    return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      'data-dir': { type: 'string', default: '.fleetyard' },
      ephemeral: { type: 'boolean', default: false },
      port: { type: 'string', default: '6443' },
      host: { type: 'string', default: '127.0.0.1' },
      'log-level': { type: 'string', default: 'info' },
      'history-limit': { type: 'string' },
      'min-request-timeout': { type: 'string' },
      nodes: { type: 'string', default: '3' },
      zones: { type: 'string', default: 'a,b,c' },
      controllers: { type: 'string', default: '*' },
      'node-monitor-grace-period': { type: 'string' },
      'default-not-ready-toleration-seconds': { type: 'string' },
      'default-unreachable-toleration-seconds': { type: 'string' },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`fleetyard: invalid --port ${values.port}\n`);
    return 2;
  }
  const historyLimit = optionalPositiveInt(values['history-limit'], '--history-limit');
  const minRequestTimeout = optionalPositiveInt(
    values['min-request-timeout'],
    '--min-request-timeout',
  );
  const nodes = Number(values.nodes);
  if (!Number.isInteger(nodes) || nodes < 0 || nodes > 250) {
    process.stderr.write(`fleetyard: invalid --nodes ${values.nodes}: want 0 to 250\n`);
    return 2;
  }
  const zones = values.zones.split(',').map((z) => z.trim());
  if (zones.some((z) => !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(z))) {
    process.stderr.write(`fleetyard: invalid --zones ${values.zones}\n`);
    return 2;
  }
  const grace = optionalDuration(
    values['node-monitor-grace-period'],
    '--node-monitor-grace-period',
  );
  const notReady = optionalSeconds(
    values['default-not-ready-toleration-seconds'],
    '--default-not-ready-toleration-seconds',
  );
  const unreachable = optionalSeconds(
    values['default-unreachable-toleration-seconds'],
    '--default-unreachable-toleration-seconds',
  );
  const logger = createLogger(values['log-level'] as LogLevel);
  const cluster = await up({
    dataDir: values['data-dir'],
    ephemeral: values.ephemeral,
    host: values.host,
    port,
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
    },
    ...(notReady !== undefined ? { defaultNotReadyTolerationSeconds: notReady } : {}),
    ...(unreachable !== undefined ? { defaultUnreachableTolerationSeconds: unreachable } : {}),
  });
  process.stdout.write(`fleetyard ready url=${cluster.url} kubeconfig=${cluster.kubeconfigPath}\n`);
  process.stdout.write(`  export KUBECONFIG=${cluster.kubeconfigPath}\n`);
  await waitForSignal();
  logger.info({}, 'shutting down');
  await cluster.stop();
  logger.flush();
  return 0;
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

function optionalSeconds(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`invalid ${flag} ${text}: want a non-negative integer`);
  return n;
}

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`fleetyard: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
