/**
 * Runs the controller manager in a worker thread of `fleetyard up` (see `controller-worker.ts`)
 * and supervises it as a kubelet would kube-controller-manager: a thread that dies is logged
 * and started again after a back-off (1 s doubling to 30 s), and the controllers, being
 * level-triggered, pick up from what is stored.
 *
 * @module
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import type { VirtualClock } from '../sim/clock/virtual-clock.js';
import type { Logger } from '../util/log.js';
import type {
  ControllerWorkerData,
  FromControllerWorker,
  ToControllerWorker,
} from './controller-protocol.js';

/**
 * How long `stop` waits for in-flight reconciles before terminating the thread: a SIGTERM must
 * leave the API server time to drain within a supervisor's usual 10 s.
 */
const STOP_TIMEOUT_MS = 5_000;
const RESTART_MIN_MS = 1000;
const RESTART_MAX_MS = 30_000;

export interface ControllerThread {
  /** The controllers' Prometheus text ('' while the thread is (re)starting). */
  metrics(): Promise<string>;
  /** Stops the controllers (waiting for in-flight reconciles), then the thread. */
  stop(): Promise<void>;
}

/**
 * The worker's entry: the bundled `controller-worker.js` beside this code, or under tsx the
 * `.ts` source, which a worker can only import after registering tsx itself (Node 20 does not
 * pass the parent's `--import` hooks to a worker's entry).
 */
function spawn(data: ControllerWorkerData): Worker {
  const self = import.meta.url;
  const transferList = data.clock ? [data.clock.port] : [];
  if (!self.endsWith('.ts')) {
    return new Worker(new URL('./controller-worker.js', self), { workerData: data, transferList });
  }
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const entry = JSON.stringify(new URL('./controller-worker.ts', self).href);
  const boot = `import(${tsx}).then((t) => { t.register(); return import(${entry}); });`;
  return new Worker(boot, { eval: true, workerData: data, transferList });
}

/**
 * With a virtual clock, each start of the thread gets a fresh port to it; a thread that exits
 * is forgotten by the clock (nothing of it is waited for any more).
 */
export function startControllerThread(
  base: Omit<ControllerWorkerData, 'clock'>,
  log: Logger,
  clock?: VirtualClock,
): ControllerThread {
  const withClock = (): ControllerWorkerData => {
    if (clock === undefined) return base;
    const channel = new MessageChannel();
    clock.attachPeer(channel.port1);
    return {
      ...base,
      clock: {
        buffer: clock.shared.buffer,
        port: channel.port2,
        serial: clock.turns !== undefined,
      },
    };
  };
  let worker: Worker | undefined;
  let stopping = false;
  let restartDelay = RESTART_MIN_MS;
  let nextId = 1;
  const pendingMetrics = new Map<number, (text: string) => void>();
  let onStopped: (() => void) | undefined;

  const start = (): void => {
    const w = spawn(withClock());
    worker = w;
    w.on('message', (message: FromControllerWorker) => {
      if (message.type === 'started') {
        restartDelay = RESTART_MIN_MS;
        log.info({ controllers: message.controllers }, 'controller manager thread started');
      } else if (message.type === 'metrics') {
        pendingMetrics.get(message.id)?.(message.text);
        pendingMetrics.delete(message.id);
      } else if (message.type === 'stopped') {
        onStopped?.();
      } else {
        log.error({ reason: message.message }, 'controller manager failed');
      }
    });
    w.on('error', (err) => log.error({ err }, 'controller manager thread crashed'));
    w.on('exit', (code) => {
      worker = undefined;
      clock?.detachPeer();
      for (const answer of pendingMetrics.values()) answer('');
      pendingMetrics.clear();
      onStopped?.();
      if (stopping) return;
      log.error({ code, restartInMs: restartDelay }, 'controller manager thread exited');
      const timer = setTimeout(start, restartDelay);
      timer.unref();
      restartDelay = Math.min(restartDelay * 2, RESTART_MAX_MS);
    });
  };
  start();

  const send = (message: ToControllerWorker): void => worker?.postMessage(message);
  return {
    metrics: () =>
      new Promise((resolve) => {
        if (worker === undefined) {
          resolve('');
          return;
        }
        const id = nextId++;
        pendingMetrics.set(id, resolve);
        send({ type: 'metrics', id });
      }),
    stop: async () => {
      stopping = true;
      const w = worker;
      if (w === undefined) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          log.warn({ timeoutMs: STOP_TIMEOUT_MS }, 'controllers did not stop in time');
          resolve();
        }, STOP_TIMEOUT_MS);
        onStopped = () => {
          clearTimeout(timer);
          resolve();
        };
        send({ type: 'stop' });
      });
      await w.terminate();
    },
  };
}
