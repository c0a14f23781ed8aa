/**
 * `fleetyard/testing`: start and drive a whole cluster from a test (node:test, vitest, jest).
 * See `start-cluster.ts` and docs/simulation.md.
 *
 * @module
 */

export type {
  ClusterChaos,
  ClusterClockHandle,
  ClusterOptions,
  TestCluster,
} from '../sim/cluster.js';
export type { ClockState, ClockStatus, Speed } from '../util/clock-control.js';
export { DEFAULT_CLUSTER_START, startCluster } from './start-cluster.js';
