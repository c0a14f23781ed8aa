/**
 * Messages between `fleetyard up`'s main thread (the API server) and its controller-manager
 * thread (`controller-worker.ts`). Structured-clone data only.
 *
 * @module
 */
import type { MessagePort } from 'node:worker_threads';
import type { ConnectionOptions } from '../client/http-lister-watcher.js';
import type { LogLevel } from '../util/log.js';
import type { ClusterShape } from './cluster-controllers.js';

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
    /** Serial runs (`--seed`, `src/clock/turns.ts`). */
    readonly serial: boolean;
  };
  /** `--seed`. */
  readonly seed?: number;
}

export type ToControllerWorker =
  | { readonly type: 'stop' }
  | { readonly type: 'metrics'; readonly id: number };

export type FromControllerWorker =
  | { readonly type: 'started'; readonly controllers: readonly string[] }
  | { readonly type: 'stopped' }
  | { readonly type: 'metrics'; readonly id: number; readonly text: string }
  | { readonly type: 'failed'; readonly message: string };
