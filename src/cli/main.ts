/**
 * The `fleetyard` command.
 *
 * @module
 */

import { redactLogText } from '../util/log.js';
import { runChaos } from './chaos.js';
import { runClock } from './clock-command.js';
import { runControllers } from './controllers.js';
import { runDns } from './dns.js';
import { runUp } from './up-command.js';

const USAGE = `Usage: fleetyard <command> [options]

Commands:
  up         Run a cluster in this process until SIGINT/SIGTERM.
  chaos      Inject faults: node-down, node-up, crash, break-readiness, restore-readiness,
             lose-volume, fail-zone, restore-zone, … (fleetyard chaos --help).
  dns        Print what cluster DNS answers for a name, e.g.
             web-0.nginx.default.svc.cluster.local (fleetyard dns --help).
  controllers
             Run the controllers against the API server of a kubeconfig, with leader
             election (fleetyard controllers --help).
  operator   Run the celld fleet operator against a cluster (in-cluster or a kubeconfig),
             with leader election (fleetyard operator --help; manifests in deploy/).
  clock      Show or drive the cluster clock (fleetyard up --clock virtual): show, pause,
             resume, speed N|max, advance D, until TIME (fleetyard clock --help).
  scenario   Run scenario files (cluster, steps, invariants) on a simulated cluster under a
             paused virtual clock, with JUnit and JSON reports (fleetyard scenario --help).
  version    Print the version.

Options for up:
  --data-dir DIR     Where state, certificates, token and kubeconfig live (default ./.fleetyard)
  --ephemeral        Keep objects in memory only (nothing survives the process)
  --port N           HTTPS port (default 6443; 0 picks a free port)
  --host ADDR        Address to bind (default 127.0.0.1). With 0.0.0.0 (or ::) the serving
                     certificate names every address of the machine's interfaces and its
                     host name, besides localhost, 127.0.0.1 and ::1
  --tls-san NAMES    More host names or IP addresses for the serving certificate, comma-
                     separated or repeated (as k3s); a certificate that lacks one is reissued
  --advertise-address IP
                     Address the kubeconfig names (default: the --host address; for 0.0.0.0
                     or ::, 127.0.0.1 or ::1); it is added to the certificate
  --log-level LEVEL  debug, info, warn, error or silent (default info)
  --history-limit N  Events kept for watch resume; older starts get 410 Expired (default 10000)
  --min-request-timeout S
                     Watches without timeoutSeconds end after S to 2*S seconds (default 1800)
  --nodes N          Simulated nodes (default 3)
  --zones a,b,c      Zones the nodes are spread over, round-robin (default a,b,c)
  --controllers LIST Controllers to run: * for all, -name to leave one out (default *)
  --node-monitor-grace-period D
                     A node silent this long goes Unknown and is tainted (default 50s)
  --node-lease-duration-seconds S
                     The simulated kubelets' Lease duration; they renew it every S/4 seconds
                     (default 40, so every 10s: keep the grace period above the renew interval)
  --default-not-ready-toleration-seconds S
  --default-unreachable-toleration-seconds S
                     tolerationSeconds of the default NoExecute tolerations (default 300)
  --default-storage-class NAME
                     standard (node-local, hostpath.csi.k8s.io), ebs (zonal,
                     ebs.csi.aws.com) or none (default standard)
  --feature-gates A=true,B=false
                     MaxUnavailableStatefulSet, StatefulSetRecreateStrategy (both off by
                     default, as upstream)
  --member-replacement-delay D
                     The celld operator: how long exactly one fleet member may be down
                     before it is replaced on a fresh disk; at least 1m (default 10m)
  --max-requests-inflight N
                     Read-only requests served at once; more get 429 with Retry-After: 1
                     (default 400, as kube-apiserver; 0: no limit). Watches are not counted,
                     nor the built-in controllers' requests
  --max-mutating-requests-inflight N
                     The same for creates, updates, patches and deletes (default 200)
  --clock real|virtual
                     virtual: the cluster's time can pause, step and run at any speed
                     (fleetyard clock, docs/simulation.md); default real, the wall clock
  --clock-start TIME The virtual clock's start, RFC 3339 (default: the wall time at start)
  --speed N|max      The virtual clock's speed: N times the wall clock, 0 paused, or max
                     (jump to the next timer once the cluster is quiescent); default 1
  --seed N           Fix every source of randomness; with --clock virtual the cluster also
                     runs one step at a time, so two runs produce the same watch events
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
