/**
 * The programmatic test API's types: start a whole cluster from a test, drive its clock,
 * inject faults, stop it. Implemented by `startCluster` (`src/harness/start-cluster.ts`), and
 * driven by scenarios (`scenario/`).
 *
 * @module
 */
import type { ApiClient } from '../client/api-client.js';
import type { ClockStatus, Speed } from '../util/clock-control.js';

export interface ClusterOptions {
  /** Simulated nodes. @default 3 (`DEFAULT_NODE_COUNT`, `src/sim/kubelet/node-config.ts`) */
  readonly nodes?: number;
  /** Zones the nodes are spread over, round-robin. @default ['a', 'b', 'c'] (`DEFAULT_ZONES`) */
  readonly zones?: readonly string[];
  /** `virtual`: time that can pause, step and run at any speed. @default 'virtual' */
  readonly clock?: 'real' | 'virtual';
  /** The virtual clock's speed at start. @default 0 (paused: time moves when told to) */
  readonly speed?: Speed;
  /** The virtual clock's start (ms since the epoch, or an RFC 3339 time). @default 2026-01-01T00:00:00Z */
  readonly start?: number | string;
  /** Fixes every source of randomness (UIDs, names, IPs, tie-breaks, jitter). */
  readonly seed?: number;
  /** `--controllers` selection. @default '*' */
  readonly controllers?: string;
  /** Extra `fleetyard up` flags, e.g. `['--member-replacement-delay', '10m']`. */
  readonly flags?: readonly string[];
  /** Log level of the cluster's components (to stderr). @default 'silent' */
  readonly logLevel?: 'debug' | 'info' | 'warn' | 'error' | 'silent';
}

/** Fault injection, as `fleetyard chaos` does it (the same API writes). */
export interface ClusterChaos {
  nodeDown(node: string): Promise<void>;
  nodeUp(node: string): Promise<void>;
  crash(pod: string, options?: { namespace?: string; exitCode?: number }): Promise<void>;
  breakReadiness(pod: string, namespace?: string): Promise<void>;
  restoreReadiness(pod: string, namespace?: string): Promise<void>;
  loseVolume(claim: string, namespace?: string): Promise<void>;
  failZone(zone: string): Promise<void>;
  restoreZone(zone: string): Promise<void>;
  failNodeStorage(node: string): Promise<void>;
  restoreNodeStorage(node: string): Promise<void>;
}

export interface ClusterClockHandle {
  /** The cluster's time. */
  now(): Date;
  status(): ClockStatus;
  /** Runs the cluster through the next `duration` (ms or a Go duration, e.g. `15m`). */
  advance(duration: number | string): Promise<void>;
  /** Runs the cluster until `time` (a Date, ms or RFC 3339). */
  until(time: Date | number | string): Promise<void>;
  pause(): void;
  resume(): void;
  setSpeed(speed: Speed): void;
}

export interface TestCluster {
  /** The API server's URL. */
  readonly url: string;
  /** A kubeconfig file for kubectl and client libraries (mode 0600). */
  readonly kubeconfigPath: string;
  /** A client of this cluster (closed by {@link TestCluster.stop}). */
  readonly client: ApiClient;
  readonly clock: ClusterClockHandle;
  readonly chaos: ClusterChaos;
  /** Stops everything it started and removes its temporary files; idempotent. */
  stop(): Promise<void>;
}
