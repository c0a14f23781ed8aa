/**
 * `fleetyard/testing`: start and drive a whole cluster from a test (node:test, vitest, jest).
 * See `start-cluster.ts` and docs/simulation.md.
 *
 * @module
 */
export type { ClockState, ClockStatus, Speed } from '../clock/control.js';
export { DEFAULT_CLUSTER_START, startCluster } from './start-cluster.js';
export type {
  ClusterChaos,
  ClusterClockHandle,
  ClusterOptions,
  TestCluster,
} from './types.js';
