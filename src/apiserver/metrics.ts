/**
 * Prometheus metrics of the API server and its storage, on a registry of its own (so two
 * servers in one test process do not collide). Names follow kube-apiserver's where one exists.
 *
 * @module
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Backend } from '../storage/backend.js';

export interface ApiMetrics {
  readonly registry: Registry;
  readonly requests: Counter<'verb' | 'resource' | 'code'>;
  readonly requestDuration: Histogram<'verb' | 'resource'>;
  readonly watchers: Gauge<'resource'>;
  readonly commitBatchSize: Histogram;
  readonly commitDuration: Histogram;
}

export function createApiMetrics(backend: () => Backend | undefined): ApiMetrics {
  const registry = new Registry();
  const requests = new Counter({
    name: 'apiserver_request_total',
    help: 'Requests by verb, resource and HTTP code.',
    labelNames: ['verb', 'resource', 'code'] as const,
    registers: [registry],
  });
  const requestDuration = new Histogram({
    name: 'apiserver_request_duration_seconds',
    help: 'Request latency by verb and resource (watches excluded).',
    labelNames: ['verb', 'resource'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const watchers = new Gauge({
    name: 'apiserver_registered_watchers',
    help: 'Open watch streams by resource.',
    labelNames: ['resource'] as const,
    registers: [registry],
  });
  const commitBatchSize = new Histogram({
    name: 'fleetyard_storage_commit_batch_size',
    help: 'Writes made durable together by one commit (group commit).',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
    registers: [registry],
  });
  const commitDuration = new Histogram({
    name: 'fleetyard_storage_commit_duration_seconds',
    help: 'Time to make one batch durable (transaction and fsync).',
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1],
    registers: [registry],
  });
  new Gauge({
    name: 'fleetyard_storage_event_history_size',
    help: 'Events kept for watch resume.',
    registers: [registry],
    collect() {
      this.set(backend()?.stats().historySize ?? 0);
    },
  });
  new Gauge({
    name: 'fleetyard_storage_current_revision',
    help: 'The newest durable revision (resourceVersion).',
    registers: [registry],
    collect() {
      this.set(backend()?.currentRevision() ?? 0);
    },
  });
  new Gauge({
    name: 'fleetyard_storage_objects',
    help: 'Objects stored.',
    registers: [registry],
    collect() {
      this.set(backend()?.stats().keys ?? 0);
    },
  });
  return { registry, requests, requestDuration, watchers, commitBatchSize, commitDuration };
}
