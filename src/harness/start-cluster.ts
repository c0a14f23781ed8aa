/**
 * The programmatic test API: a whole cluster in the test's own process, on a virtual clock
 * that stands still until the test moves it (see docs/simulation.md, "Testing from code").
 *
 * ```ts
 * const cluster = await startCluster({ nodes: 3, seed: 1 });
 * try {
 *   await cluster.client.create(...);
 *   await cluster.clock.advance('15m');
 * } finally {
 *   await cluster.stop();
 * }
 * ```
 *
 * `stop()` stops every thread, timer, socket and file the cluster made (its data dir is a
 * temporary directory, removed), so a test runner exits on its own afterwards.
 *
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../client/api-client.js';
import { type RunningCluster, up } from '../cluster/up.js';
import { parseUpArgs } from '../cluster/up-flags.js';
import { runChaos } from '../sim/chaos/chaos.js';
import type {
  ClusterChaos,
  ClusterClockHandle,
  ClusterOptions,
  TestCluster,
} from '../sim/cluster.js';
import { parseGoDuration } from '../sim/kubelet/annotations.js';
import type { ClockControl, Speed } from '../util/clock-control.js';

/** Where a virtual clock starts unless told otherwise: runs repeat to the millisecond. */
export const DEFAULT_CLUSTER_START = '2026-01-01T00:00:00Z';

export async function startCluster(options: ClusterOptions = {}): Promise<TestCluster> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fleetyard-'));
  let running: RunningCluster | undefined;
  let client: ApiClient | undefined;
  try {
    running = await up(parseUpArgs(clusterArgs(options, dataDir)));
    client = await ApiClient.fromKubeconfig(running.kubeconfigPath);
    const cluster = running;
    const clock = clockHandle(cluster.clock);
    // Quiescent at the start: nodes registered, CRDs established, nothing in flight.
    if (cluster.clock.status().mode === 'virtual') await clock.advance(0);
    let stopped: Promise<void> | undefined;
    const ownClient = client;
    return {
      url: cluster.url,
      kubeconfigPath: cluster.kubeconfigPath,
      client: ownClient,
      clock,
      chaos: chaosOf(ownClient),
      stop: () => {
        stopped ??= (async () => {
          ownClient.close();
          await cluster.stop();
          await rm(dataDir, { recursive: true, force: true });
        })();
        return stopped;
      },
    };
  } catch (err) {
    client?.close();
    await running?.stop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * The `fleetyard up` flags for `options` (the caller's own flags last: they win). Nodes and
 * zones not given are `fleetyard up`'s defaults (src/cluster/up-flag-table.ts); the clock,
 * its start and speed and the log level are the harness's own: a paused, silent cluster.
 */
function clusterArgs(options: ClusterOptions, dataDir: string): string[] {
  const mode = options.clock ?? 'virtual';
  const args = [
    '--data-dir',
    dataDir,
    '--ephemeral',
    '--port',
    '0',
    '--clock',
    mode,
    '--log-level',
    options.logLevel ?? 'silent',
  ];
  if (options.nodes !== undefined) args.push('--nodes', String(options.nodes));
  if (options.zones !== undefined) args.push('--zones', options.zones.join(','));
  if (mode === 'virtual') {
    const start = options.start ?? DEFAULT_CLUSTER_START;
    const at = typeof start === 'number' ? new Date(start).toISOString() : start;
    args.push('--clock-start', at, '--speed', String(options.speed ?? 0));
  }
  if (options.seed !== undefined) args.push('--seed', String(options.seed));
  if (options.controllers !== undefined) args.push('--controllers', options.controllers);
  return [...args, ...(options.flags ?? [])];
}

function clockHandle(control: ClockControl): ClusterClockHandle {
  return {
    now: () => new Date(control.status().now),
    status: () => control.status(),
    advance: (duration) => control.runUntil(control.status().now + durationMs(duration)),
    until: (time) => control.runUntil(timeMs(time)),
    pause: () => control.setPaused(true),
    resume: () => control.setPaused(false),
    setSpeed: (speed: Speed) => control.setSpeed(speed),
  };
}

function durationMs(duration: number | string): number {
  if (typeof duration === 'number') return duration;
  const ms = parseGoDuration(duration);
  if (ms === undefined) throw new RangeError(`invalid duration ${JSON.stringify(duration)}`);
  return ms;
}

function timeMs(time: Date | number | string): number {
  const ms =
    time instanceof Date ? time.getTime() : typeof time === 'number' ? time : Date.parse(time);
  if (!Number.isFinite(ms)) throw new RangeError(`invalid time ${String(time)}`);
  return ms;
}

/** Each fault is `fleetyard chaos`'s write; a failure rejects with its message. */
function chaosOf(client: ApiClient): ClusterChaos {
  const run = async (...argv: string[]): Promise<void> => {
    let error = '';
    const code = await runChaos(argv, {
      client,
      stdout: () => undefined,
      stderr: (line) => {
        error += line;
      },
    });
    if (code !== 0) throw new Error(`chaos ${argv.join(' ')}: ${error.trim()}`);
  };
  const ns = (namespace = 'default'): string[] => ['-n', namespace];
  return {
    nodeDown: (node) => run('node-down', node),
    nodeUp: (node) => run('node-up', node),
    crash: (pod, o = {}) =>
      run('crash', pod, ...ns(o.namespace), '--exit-code', String(o.exitCode ?? 1)),
    breakReadiness: (pod, namespace) => run('break-readiness', pod, ...ns(namespace)),
    restoreReadiness: (pod, namespace) => run('restore-readiness', pod, ...ns(namespace)),
    loseVolume: (claim, namespace) => run('lose-volume', claim, ...ns(namespace)),
    failZone: (zone) => run('fail-zone', zone),
    restoreZone: (zone) => run('restore-zone', zone),
    failNodeStorage: (node) => run('fail-node-storage', node),
    restoreNodeStorage: (node) => run('restore-node-storage', node),
  };
}
