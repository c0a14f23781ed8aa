/**
 * Prometheus series of the controllers and their work queues, under controller-runtime's and
 * kube-controller-manager's names:
 *
 * | series                                              | type      | labels               |
 * |-----------------------------------------------------|-----------|----------------------|
 * | `controller_runtime_reconcile_total`                | counter   | controller, result   |
 * | `controller_runtime_reconcile_errors_total`         | counter   | controller           |
 * | `controller_runtime_terminal_reconcile_errors_total`| counter   | controller           |
 * | `controller_runtime_reconcile_time_seconds`         | histogram | controller           |
 * | `controller_runtime_active_workers`                 | gauge     | controller           |
 * | `workqueue_depth`                                   | gauge     | name                 |
 * | `workqueue_adds_total`                              | counter   | name                 |
 * | `workqueue_retries_total`                           | counter   | name                 |
 * | `workqueue_queue_duration_seconds`                  | histogram | name                 |
 *
 * `result` is one of controller-runtime's `success`, `error`, `requeue`, `requeue_after`; a
 * terminal error counts as `error` plus the terminal counter, as upstream.
 *
 * As in `src/apiserver/metrics.ts`, prom-client is loaded lazily (it costs ~25 ms): the hooks
 * record from the start, and what they record before {@link ControllerMetricsSet.register}
 * has loaded prom-client is replayed into the instruments. The pending list is bounded (50,000
 * recordings, later ones are dropped) so a process that never registers does not grow.
 *
 * @module
 */
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ControllerMetrics, ReconcileOutcome } from './controller.js';
import type { WorkQueueMetrics } from './workqueue.js';

/** The hooks, plus the way into a server's registry. */
export interface ControllerMetricsSet {
  readonly controller: ControllerMetrics;
  readonly queue: WorkQueueMetrics;
  /**
   * Loads prom-client (once), registers the instruments into `registry` and replays what was
   * recorded so far. Registering into a second registry adds the same instruments there too.
   */
  register(registry: Registry): Promise<void>;
}

interface Instruments {
  readonly reconcileTotal: Counter<'controller' | 'result'>;
  readonly reconcileErrors: Counter<'controller'>;
  readonly terminalErrors: Counter<'controller'>;
  readonly reconcileTime: Histogram<'controller'>;
  readonly activeWorkers: Gauge<'controller'>;
  readonly depth: Gauge<'name'>;
  readonly adds: Counter<'name'>;
  readonly retries: Counter<'name'>;
  readonly queueDuration: Histogram<'name'>;
}

type Recording = (i: Instruments) => void;
type PromClient = typeof import('prom-client');

const MAX_PENDING = 50_000;

/** controller-runtime's reconcile_time_seconds buckets (5 ms … 60 s). */
const RECONCILE_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1,
  1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];
/** client-go's queue_duration buckets: 10 ns × 10^0…10^9 (up to 10 s). */
const QUEUE_BUCKETS = Array.from({ length: 10 }, (_, i) => 1e-8 * 10 ** i);

const RESULT: Readonly<Record<ReconcileOutcome, string>> = {
  success: 'success',
  requeue: 'requeue',
  requeue_after: 'requeue_after',
  error: 'error',
  terminal_error: 'error',
};

export function createControllerMetrics(): ControllerMetricsSet {
  let instruments: Instruments | undefined;
  let loading: Promise<Instruments> | undefined;
  const pending: Recording[] = [];
  const record = (r: Recording): void => {
    if (instruments) r(instruments);
    else if (pending.length < MAX_PENDING) pending.push(r);
  };
  const load = (): Promise<Instruments> => {
    loading ??= import('prom-client').then((mod) => {
      const created = createInstruments(promClientOf(mod));
      instruments = created;
      for (const r of pending.splice(0)) r(created);
      return created;
    });
    return loading;
  };
  return {
    controller: {
      reconciled: (controller, outcome, durationMs) =>
        record((i) => {
          i.reconcileTotal.inc({ controller, result: RESULT[outcome] });
          if (outcome === 'error' || outcome === 'terminal_error') {
            i.reconcileErrors.inc({ controller });
          }
          if (outcome === 'terminal_error') i.terminalErrors.inc({ controller });
          i.reconcileTime.observe({ controller }, durationMs / 1000);
        }),
      activeWorkers: (controller, active) =>
        record((i) => i.activeWorkers.set({ controller }, active)),
    },
    queue: {
      depth: (name, depth) => record((i) => i.depth.set({ name }, depth)),
      add: (name) => record((i) => i.adds.inc({ name })),
      retry: (name) => record((i) => i.retries.inc({ name })),
      latency: (name, ms) => record((i) => i.queueDuration.observe({ name }, ms / 1000)),
    },
    register: async (registry) => {
      const i = await load();
      for (const metric of Object.values(i)) {
        // prom-client's typings leave the metric's `name` out; every metric has one.
        const name: unknown = Reflect.get(metric, 'name');
        if (typeof name === 'string' && registry.getSingleMetric(name) === undefined) {
          registry.registerMetric(metric);
        }
      }
    },
  };
}

/**
 * prom-client's exports. A CommonJS module: bundled, its exports arrive as `default`; under
 * Node, named (and as `default` too).
 */
function promClientOf(mod: PromClient): PromClient {
  const exports: unknown = 'default' in mod ? mod.default : undefined;
  return isPromClient(exports) ? exports : mod;
}

/** Whether `v` has the classes {@link createInstruments} builds on. */
function isPromClient(v: unknown): v is PromClient {
  if (typeof v !== 'object' || v === null) return false;
  return ['Counter', 'Gauge', 'Histogram'].every(
    (name) => typeof Reflect.get(v, name) === 'function',
  );
}

function createInstruments(prom: PromClient): Instruments {
  // No default registry: each server's registry gets them through register().
  const registers: Registry[] = [];
  return {
    reconcileTotal: new prom.Counter({
      name: 'controller_runtime_reconcile_total',
      help: 'Total number of reconciliations per controller',
      labelNames: ['controller', 'result'] as const,
      registers,
    }),
    reconcileErrors: new prom.Counter({
      name: 'controller_runtime_reconcile_errors_total',
      help: 'Total number of reconciliation errors per controller',
      labelNames: ['controller'] as const,
      registers,
    }),
    terminalErrors: new prom.Counter({
      name: 'controller_runtime_terminal_reconcile_errors_total',
      help: 'Total number of terminal reconciliation errors per controller',
      labelNames: ['controller'] as const,
      registers,
    }),
    reconcileTime: new prom.Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Length of time per reconciliation per controller',
      labelNames: ['controller'] as const,
      buckets: RECONCILE_BUCKETS,
      registers,
    }),
    activeWorkers: new prom.Gauge({
      name: 'controller_runtime_active_workers',
      help: 'Number of currently used workers per controller',
      labelNames: ['controller'] as const,
      registers,
    }),
    depth: new prom.Gauge({
      name: 'workqueue_depth',
      help: 'Current depth of workqueue',
      labelNames: ['name'] as const,
      registers,
    }),
    adds: new prom.Counter({
      name: 'workqueue_adds_total',
      help: 'Total number of adds handled by workqueue',
      labelNames: ['name'] as const,
      registers,
    }),
    retries: new prom.Counter({
      name: 'workqueue_retries_total',
      help: 'Total number of retries handled by workqueue',
      labelNames: ['name'] as const,
      registers,
    }),
    queueDuration: new prom.Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: 'How long in seconds an item stays in workqueue before being requested.',
      labelNames: ['name'] as const,
      buckets: QUEUE_BUCKETS,
      registers,
    }),
  };
}
