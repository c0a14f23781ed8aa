/**
 * The `fleetyard` command.
 *
 * @module
 */

import { runChaos } from '../sim/chaos/chaos.js';
import { redactLogText } from '../util/log.js';
import { runClock } from './clock-command.js';
import { runControllers } from './controllers.js';
import { runDashboard } from './dashboard-command.js';
import { runDns } from './dns.js';
import { runUp } from './up-command.js';
import { USAGE } from './usage.js';

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
  if (command === 'dns') {
    return runDns(rest, {
      stdout: (s) => process.stdout.write(s),
      stderr: (s) => process.stderr.write(s),
    });
  }
  if (command === 'controllers') {
    const stop = new AbortController();
    void waitForSignal().then(() => stop.abort());
    return runControllers(rest, stop.signal);
  }
  if (command === 'clock') {
    return runClock(rest, {
      stdout: (s) => process.stdout.write(s),
      stderr: (s) => process.stderr.write(s),
    });
  }
  if (command === 'dashboard') {
    return runDashboard(rest, {
      stdout: (s) => process.stdout.write(s),
      stderr: (s) => process.stderr.write(s),
    });
  }
  if (command === 'scenario') {
    // Loaded on demand: `up`'s cold start does not read the scenario runner's modules.
    const { runScenarioCommand } = await import('./scenario-command.js');
    return runScenarioCommand(rest, {
      stdout: (s) => process.stdout.write(s),
      stderr: (s) => process.stderr.write(s),
    });
  }
  if (command === 'operator') {
    const stop = new AbortController();
    void waitForSignal().then(() => stop.abort());
    // Loaded on demand: `up`'s cold start does not read the standalone operator's modules.
    const { runOperator } = await import('./operator-command.js');
    return runOperator(rest, stop.signal);
  }
  const asked = command === 'help' || command === '--help' || command === '-h';
  const upHelp = command === 'up' && (rest.includes('--help') || rest.includes('-h'));
  if (asked || upHelp) {
    // Asked for: the usage on stdout, exit 0 (as every subcommand's --help).
    process.stdout.write(USAGE);
    return 0;
  }
  if (command !== 'up') {
    process.stderr.write(USAGE);
    return command === undefined ? 0 : 2;
  }
  const code = await runUp(rest, waitForSignal);
  // `up` has stopped everything it started; should a handle still hold the event loop (a
  // bug), exit anyway rather than linger half-stopped. Unref'd: a clean exit is not delayed.
  setTimeout(() => process.exit(code), UP_EXIT_GRACE_MS).unref();
  return code;
}

/** How long a stopped (or failed) `fleetyard up` may take to exit on its own. */
const UP_EXIT_GRACE_MS = 3_000;

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
    // Redacted: a message may quote a kubeconfig line (a YAML error shows the line it failed on).
    const message = redactLogText(e instanceof Error ? e.message : String(e));
    process.stderr.write(`fleetyard: ${message}\n`);
    process.exitCode = 1;
  },
);
