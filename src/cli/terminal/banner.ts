/**
 * What `fleetyard up` prints on stdout once it is ready: for a program (stdout not a
 * terminal) the machine-readable lines tests and scripts parse, unchanged since they were
 * first printed; for a person, a short banner with the same facts, aligned, and how to stop.
 *
 * Pure: the command (up-command.ts) decides which, and mints the one-time login link once
 * (each `loginUrl()` call makes a new code, so the link printed is the one that works).
 *
 * @module
 */
import { paint } from '../../util/log-format.js';

/** The dashboard `up` serves (RunningCluster.dashboard, src/cluster/up.ts). */
export interface DashboardLink {
  readonly url: string;
  /** A fresh one-time login link each call. */
  loginUrl(): string;
}

/** What `up` says it is ready with. */
export interface ReadyFacts {
  readonly url: string;
  readonly kubeconfigPath: string;
  /** The dashboard's page and its one-time login link; absent with the dashboard off. */
  readonly dashboard?: { readonly url: string; readonly login: string } | undefined;
}

/** The cluster, as the banner's first line sums it up. */
export interface ClusterSummary {
  /** Simulated nodes (0: none, the kubelet controller off). */
  readonly nodes: number;
  /** Zones they are spread over, round-robin: at most `nodes` of them hold one. */
  readonly zones: number;
  readonly clock: 'real' | 'virtual';
  /** The virtual clock's speed at start. */
  readonly speed?: number | 'max' | undefined;
}

/**
 * For a program: `fleetyard ready url=… kubeconfig=…`, then (with the dashboard)
 * `fleetyard dashboard url=… login=…`, then `  export KUBECONFIG=…`. Tests parse these:
 * change nothing here without them.
 */
export function readyLines(facts: ReadyFacts): string {
  const lines = [`fleetyard ready url=${facts.url} kubeconfig=${facts.kubeconfigPath}`];
  if (facts.dashboard !== undefined) {
    lines.push(`fleetyard dashboard url=${facts.dashboard.url} login=${facts.dashboard.login}`);
  }
  lines.push(`  export KUBECONFIG=${facts.kubeconfigPath}`);
  return `${lines.join('\n')}\n`;
}

/** The label column: the longest label (`kubeconfig`) and two blanks. */
const LABEL_WIDTH = 12;

/**
 * For a person:
 *
 *     fleetyard is up  (3 nodes in 3 zones, clock real)
 *       API         https://127.0.0.1:6443
 *       kubeconfig  export KUBECONFIG=/home/me/.fleetyard/kubeconfig
 *       dashboard   https://127.0.0.1:6443/ui/login?code=…   (one-time link; `fleetyard …)
 *       stop        Ctrl-C
 */
export function upBanner(facts: ReadyFacts, cluster: ClusterSummary, colors: boolean): string {
  const row = (label: string, value: string, note = ''): string => {
    const after = note === '' ? '' : `   ${paint(colors, 'dim', note)}`;
    return `  ${paint(colors, 'dim', label.padEnd(LABEL_WIDTH))}${value}${after}`;
  };
  const title = `${paint(colors, 'bold', 'fleetyard is up')}  (${summary(cluster)})`;
  const rows = [
    row('API', facts.url),
    row('kubeconfig', `export KUBECONFIG=${shellWord(facts.kubeconfigPath)}`),
  ];
  if (facts.dashboard !== undefined) {
    rows.push(
      row(
        'dashboard',
        paint(colors, 'underline', facts.dashboard.login),
        '(one-time link; `fleetyard dashboard` for another)',
      ),
    );
  }
  rows.push(row('stop', 'Ctrl-C'));
  return `${[title, ...rows].join('\n')}\n`;
}

/** `3 nodes in 3 zones, clock real`. */
export function summary(cluster: ClusterSummary): string {
  const zones = Math.min(cluster.zones, cluster.nodes);
  const nodes =
    cluster.nodes === 0
      ? 'no simulated nodes'
      : `${plural(cluster.nodes, 'node')}${zones > 1 ? ` in ${plural(zones, 'zone')}` : ''}`;
  return `${nodes}, ${clockText(cluster)}`;
}

function clockText(cluster: ClusterSummary): string {
  if (cluster.clock === 'real') return 'clock real';
  const { speed = 1 } = cluster;
  if (speed === 1) return 'clock virtual';
  if (speed === 0) return 'clock virtual, paused';
  return speed === 'max' ? 'clock virtual, speed max' : `clock virtual, speed ×${speed}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `path` as one shell word: as is when it is safe, else in single quotes. */
export function shellWord(path: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
