/**
 * Messages between `fleetyard up`'s main thread (the API server) and its controller-manager
 * thread (`controller-worker.ts`). Structured-clone data only.
 *
 * @module
 */
import { MessagePort } from 'node:worker_threads';
import { isJsonObject } from '../api/object.js';
import type { ConnectionOptions } from '../client/http-lister-watcher.js';
import type { LogLevel } from '../util/log.js';
import type { ClusterShape } from './cluster-controllers.js';
import { isOneOf } from './flag-table.js';
import { LOG_LEVELS, STORAGE_CLASSES } from './up-flag-values.js';

/** What the worker starts with (`workerData`). */
export interface ControllerWorkerData {
  readonly connection: ConnectionOptions;
  /** `--controllers` selection. */
  readonly controllers: string;
  readonly cluster: ClusterShape;
  readonly logLevel: LogLevel;
  /** `--clock virtual`: the cluster clock's shared state and a port to it (ReplicaClock). */
  readonly clock?: {
    readonly buffer: SharedArrayBuffer;
    readonly port: MessagePort;
    /** Serial runs (`--seed`, `src/sim/clock/turns.ts`). */
    readonly serial: boolean;
  };
  /** `--seed`. */
  readonly seed?: number;
  /**
   * Bearer tokens by username: each component's own identity (`cluster/component-identities.ts`),
   * in memory only, never written. Absent: every controller uses `connection.token`.
   */
  readonly credentials?: Readonly<Record<string, string>>;
  /** The user the shared informers act as (a key of `credentials`). */
  readonly informerIdentity?: string;
}

export type ToControllerWorker =
  | { readonly type: 'stop' }
  | { readonly type: 'metrics'; readonly id: number };

export type FromControllerWorker =
  | { readonly type: 'started'; readonly controllers: readonly string[] }
  | { readonly type: 'stopped' }
  | { readonly type: 'metrics'; readonly id: number; readonly text: string }
  | { readonly type: 'failed'; readonly message: string };

/**
 * Whether `data` (a worker's `workerData`, typed `any` by Node) is what `up` sends: checked
 * field by field, so the thread fails at once on a mismatch rather than on first use.
 */
export function isControllerWorkerData(data: unknown): data is ControllerWorkerData {
  if (!isJsonObject(data)) return false;
  const { connection, controllers, cluster, logLevel, clock, seed, credentials } = data;
  return (
    isConnection(connection) &&
    typeof controllers === 'string' &&
    isClusterShape(cluster) &&
    typeof logLevel === 'string' &&
    isOneOf(LOG_LEVELS, logLevel) &&
    (clock === undefined || isClockShare(clock)) &&
    (seed === undefined || typeof seed === 'number') &&
    (credentials === undefined || isStringRecord(credentials)) &&
    (data.informerIdentity === undefined || typeof data.informerIdentity === 'string')
  );
}

function isStringRecord(v: unknown): v is Record<string, string> {
  return isJsonObject(v) && Object.values(v).every((x) => typeof x === 'string');
}

function isConnection(v: unknown): v is ConnectionOptions {
  if (!isJsonObject(v)) return false;
  const { server, token, ca, insecureSkipTlsVerify, socketPath } = v;
  return (
    typeof server === 'string' &&
    (socketPath === undefined || typeof socketPath === 'string') &&
    (token === undefined || typeof token === 'string') &&
    (ca === undefined || typeof ca === 'string' || ca instanceof Uint8Array) &&
    (insecureSkipTlsVerify === undefined || typeof insecureSkipTlsVerify === 'boolean')
  );
}

function isClusterShape(v: unknown): v is ClusterShape {
  if (!isJsonObject(v)) return false;
  const { nodes, zones, defaultStorageClass, gates } = v;
  const optionalNumbers = [
    v.nodeMonitorGracePeriodMs,
    v.nodeLeaseDurationSeconds,
    v.memberReplacementDelayMs,
  ];
  return (
    typeof nodes === 'number' &&
    Array.isArray(zones) &&
    zones.every((z) => typeof z === 'string') &&
    typeof defaultStorageClass === 'string' &&
    isOneOf(STORAGE_CLASSES, defaultStorageClass) &&
    optionalNumbers.every((n) => n === undefined || typeof n === 'number') &&
    (v.signingCaDir === undefined || typeof v.signingCaDir === 'string') &&
    (gates === undefined ||
      (isJsonObject(gates) &&
        typeof gates.maxUnavailableStatefulSet === 'boolean' &&
        typeof gates.statefulSetRecreateStrategy === 'boolean'))
  );
}

function isClockShare(v: unknown): v is NonNullable<ControllerWorkerData['clock']> {
  return (
    isJsonObject(v) &&
    v.buffer instanceof SharedArrayBuffer &&
    v.port instanceof MessagePort &&
    typeof v.serial === 'boolean'
  );
}
