/**
 * `fleetyard --help` (and `fleetyard up --help`): the commands, then `up`'s options printed
 * from its flag table (src/cluster/up-flag-table.ts), so the help cannot drift from the
 * parser's defaults.
 *
 * @module
 */
import { flagUsage } from '../cluster/flag-table.js';
import { UP_FLAGS } from '../cluster/up-flag-table.js';

/** Where the help of `up`'s options starts and where lines end. */
const UP_USAGE_LAYOUT = { column: 21, width: 96 } as const;

export const USAGE = `Usage: fleetyard <command> [options]

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
  dashboard  Print a new one-time login link to the dashboard of a running up
             (fleetyard dashboard --help).
  version    Print the version.

Options for up:
${flagUsage(UP_FLAGS, UP_USAGE_LAYOUT)}`;
