/**
 * Prometheus metrics of the API server and its storage. Names follow kube-apiserver's where
 * one exists.
 *
 * The handlers record through {@link ApiMetrics}' methods, not prom-client's objects:
 * prom-client (and the OpenTelemetry API it pulls in) costs ~25 ms to load, a sixth of a
 * `fleetyard up` start, so it is loaded right after the server listens, and what is
 * recorded before that (the first few requests) is replayed into it. Each server has a
 * registry of its own, so two servers in one test process do not collide.
 *
 * @module
 */
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Backend } from '../storage/backend.js';

export interface ApiMetrics {
  /** One finished request (watches: `seconds` undefined, they are counted but not timed). */
  request(verb: string, resource: string, code: number, seconds: number | undefined): void;
  /** One request refused 429 by the max-in-flight limit (`readOnly` or `mutating`). */
  droppedRequest(kind: 'readOnly' | 'mutating'): void;
  watcherOpened(resource: string): void;
  watcherClosed(resource: string): void;
  /** One storage commit: how many writes it made durable, and how long it took. */
  commit(batchSize: number, seconds: number): void;
  /** Loads the metrics library (idempotent); recording works before it resolves. */
  load(): Promise<void>;
  /** The exposition text and its content type (loads the library if needed). */
  render(): Promise<{ text: string; contentType: string }>;
  /**
   * Adds other components' metrics to this server's `/metrics`: `exposition` answers their
   * Prometheus text (the controller manager's thread, asked on each scrape); a failure or a
   * silence longer than a second leaves them out of that scrape.
   */
  include(exposition: () => Promise<string>): void;
}

interface Instruments {
  readonly registry: Registry;
  readonly requests: Counter<'verb' | 'resource' | 'code'>;
  readonly requestDuration: Histogram<'verb' | 'resource'>;
  readonly watchers: Gauge<'resource'>;
  readonly dropped: Counter<'request_kind'>;
  readonly commitBatchSize: Histogram;
  readonly commitDuration: Histogram;
}

type Recording = (i: Instruments) => void;

export function createApiMetrics(backend: () => Backend | undefined): ApiMetrics {
  let instruments: Instruments | undefined;
  let loading: Promise<Instruments> | undefined;
  const pending: Recording[] = [];
  const others: (() => Promise<string>)[] = [];
  const record = (r: Recording): void => {
    if (instruments) r(instruments);
    else pending.push(r);
  };
  const loaded = (): Promise<Instruments> => {
    loading ??= import('prom-client').then((mod) => {
      const created = createInstruments(promClientOf(mod), backend);
      instruments = created;
      for (const r of pending.splice(0)) r(created);
      return created;
    });
    return loading;
  };
  return {
    request: (verb, resource, code, seconds) =>
      record((i) => {
        i.requests.inc({ verb, resource, code: String(code) });
        if (seconds !== undefined) i.requestDuration.observe({ verb, resource }, seconds);
      }),
    droppedRequest: (kind) => record((i) => i.dropped.inc({ request_kind: kind })),
    watcherOpened: (resource) => record((i) => i.watchers.inc({ resource })),
    watcherClosed: (resource) => record((i) => i.watchers.dec({ resource })),
    commit: (batchSize, seconds) =>
      record((i) => {
        i.commitBatchSize.observe(batchSize);
        i.commitDuration.observe(seconds);
      }),
    load: async () => {
      await loaded();
    },
    include: (exposition) => {
      others.push(exposition);
    },
    render: async () => {
      const { registry } = await loaded();
      const parts = await Promise.all([registry.metrics(), ...others.map(withinASecond)]);
      return { text: parts.filter((t) => t !== '').join('\n'), contentType: registry.contentType };
    },
  };
}

type PromClient = typeof import('prom-client');

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
  const classes = ['Registry', 'Counter', 'Gauge', 'Histogram'];
  return classes.every((name) => typeof Reflect.get(v, name) === 'function');
}

/** Another component's exposition text, or '' when it fails or takes over a second. */
function withinASecond(exposition: () => Promise<string>): Promise<string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(''), 1000);
    exposition().then(
      (text) => {
        clearTimeout(timer);
        resolve(text);
      },
      () => {
        clearTimeout(timer);
        resolve('');
      },
    );
  });
}

function createInstruments(prom: PromClient, backend: () => Backend | undefined): Instruments {
  const registry = new prom.Registry();
  const registers = [registry];
  const instruments: Instruments = {
    registry,
    requests: new prom.Counter({
      name: 'apiserver_request_total',
      help: 'Requests by verb, resource and HTTP code.',
      labelNames: ['verb', 'resource', 'code'] as const,
      registers,
    }),
    requestDuration: new prom.Histogram({
      name: 'apiserver_request_duration_seconds',
      help: 'Request latency by verb and resource (watches excluded).',
      labelNames: ['verb', 'resource'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    watchers: new prom.Gauge({
      name: 'apiserver_registered_watchers',
      help: 'Open watch streams by resource.',
      labelNames: ['resource'] as const,
      registers,
    }),
    // Upstream's name and label values (k8s.io/apiserver/pkg/endpoints/metrics).
    dropped: new prom.Counter({
      name: 'apiserver_dropped_requests_total',
      help: 'Requests refused 429 by the max-in-flight limits, by kind (readOnly, mutating).',
      labelNames: ['request_kind'] as const,
      registers,
    }),
    commitBatchSize: new prom.Histogram({
      name: 'fleetyard_storage_commit_batch_size',
      help: 'Writes made durable together by one commit (group commit).',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
      registers,
    }),
    commitDuration: new prom.Histogram({
      name: 'fleetyard_storage_commit_duration_seconds',
      help: 'Time to make one batch durable (transaction and fsync).',
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
      registers,
    }),
  };
  addStorageGauges(prom, registers, backend);
  return instruments;
}

function addStorageGauges(
  prom: PromClient,
  registers: Registry[],
  backend: () => Backend | undefined,
): void {
  const gauges: Array<[string, string, (b: Backend) => number]> = [
    [
      'fleetyard_storage_event_history_size',
      'Events kept for watch resume.',
      (b) => b.stats().historySize,
    ],
    [
      'fleetyard_storage_current_revision',
      'The newest durable revision (resourceVersion).',
      (b) => b.currentRevision(),
    ],
    ['fleetyard_storage_objects', 'Objects stored.', (b) => b.stats().keys],
    [
      'fleetyard_storage_file_bytes',
      'Size of the store file (SQLite), bytes; 0 for the memory backend.',
      (b) => b.stats().fileBytes ?? 0,
    ],
    [
      'fleetyard_storage_wal_bytes',
      'Size of the store write-ahead log, bytes; 0 for the memory backend.',
      (b) => b.stats().walBytes ?? 0,
    ],
    [
      'fleetyard_storage_compacted_revision',
      'History at or below this revision is gone (a watch from it gets 410).',
      (b) => b.compactedRevision(),
    ],
  ];
  for (const [name, help, read] of gauges) {
    new prom.Gauge({
      name,
      help,
      registers,
      collect() {
        const b = backend();
        this.set(b === undefined ? 0 : read(b));
      },
    });
  }
  addWritableMetrics(prom, registers, backend);
}

/**
 * Whether the store takes writes, for alerting: etcd raises a NOSPACE alarm (seen as
 * `etcd_server_quota_backend_bytes` against `etcd_mvcc_db_total_size_in_bytes`, and in
 * `etcdctl alarm list`); here the store says it directly. 0 while the disk is full, read-only
 * or failing (or the store stopped), 1 otherwise; the counter counts the episodes.
 */
function addWritableMetrics(
  prom: PromClient,
  registers: Registry[],
  backend: () => Backend | undefined,
): void {
  new prom.Gauge({
    name: 'fleetyard_storage_writable',
    help: 'Whether the store accepts writes (0 while its disk is full, read-only or failing).',
    registers,
    collect() {
      const state = backend()?.health().state;
      this.set(state === 'ok' ? 1 : 0);
    },
  });
  new prom.Counter({
    name: 'fleetyard_storage_unwritable_total',
    help: 'Times the store turned unwritable (a full, read-only or failing disk) since start.',
    registers,
    collect() {
      // Read from the store at each scrape: reset, then add the store's own count.
      this.reset();
      this.inc(backend()?.health().unwritableCount ?? 0);
    },
  });
}
