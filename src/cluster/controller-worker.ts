/**
 * The controller manager's thread: builds the selected controllers and runs them against the
 * API server over HTTPS (ADR 0008), answering the main thread's `metrics` and `stop` messages.
 * A thread of its own lets the controllers' work (watch decoding, caches, planning, their half
 * of every request) use the machine's second core while the API server keeps the first.
 *
 * @module
 */

import { parentPort, workerData } from 'node:worker_threads';
import { startControllerManager } from '../controller/manager.js';
import { ReplicaClock } from '../sim/clock/replica-clock.js';
import { realClock } from '../util/clock.js';
import { addLogSecret, createLogger } from '../util/log.js';
import { clusterControllers, selectControllers } from './cluster-controllers.js';
import { withIdentity } from './component-identities.js';
import {
  type FromControllerWorker,
  isControllerWorkerData,
  type ToControllerWorker,
} from './controller-protocol.js';

const port = parentPort;
if (port === null) throw new Error('controller-worker must run in a worker thread');
const data: unknown = workerData;
if (!isControllerWorkerData(data))
  throw new Error('controller-worker: workerData is not a ControllerWorkerData');
const post = (message: FromControllerWorker): void => port.postMessage(message);

// This thread's loggers know the token too (module state is per thread): never logged.
addLogSecret(data.connection.token);
for (const token of Object.values(data.credentials ?? {})) addLogSecret(token);
const log = createLogger(data.logLevel, 'controller-manager');
try {
  // Each as its upstream identity when `up` handed over credentials (component-identities.ts).
  const controllers = selectControllers(clusterControllers(data.cluster), data.controllers).map(
    (def) => (data.credentials === undefined ? def : withIdentity(def)),
  );
  // Under --clock virtual, the cluster's time is the main thread's (src/sim/clock/); requests and
  // watch reconnects stay on the wall clock.
  const clock = data.clock
    ? new ReplicaClock(data.clock.buffer, data.clock.port, { serial: data.clock.serial })
    : realClock;
  const manager = startControllerManager({
    connection: data.connection,
    controllers,
    clock,
    transportClock: realClock,
    ...(data.seed !== undefined ? { seed: data.seed } : {}),
    ...(data.credentials !== undefined ? { credentials: data.credentials } : {}),
    ...(data.informerIdentity !== undefined ? { informerIdentity: data.informerIdentity } : {}),
    log,
  });
  // A CommonJS module: its exports are `default` under Node and bundled (where the chunk
  // exports nothing else).
  const { default: prom } = await import('prom-client');
  const registry = new prom.Registry();
  await manager.registerMetrics(registry);
  post({ type: 'started', controllers: controllers.map((c) => c.name) });
  port.on('message', (message: ToControllerWorker) => {
    if (message.type === 'metrics') {
      registry.metrics().then(
        (text) => post({ type: 'metrics', id: message.id, text }),
        () => post({ type: 'metrics', id: message.id, text: '' }),
      );
    } else if (message.type === 'stop') {
      manager.stop().then(
        () => {
          log.flush();
          post({ type: 'stopped' });
          port.close();
        },
        (err: unknown) => post({ type: 'failed', message: String(err) }),
      );
    }
  });
} catch (err) {
  post({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
}
