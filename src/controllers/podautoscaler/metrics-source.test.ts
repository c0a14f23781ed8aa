/**
 * Reading PodMetrics as upstream's resource metrics client does (`getPodMetrics`,
 * `getContainerMetrics`, `GetResourceMetric`'s errors) and parsing the wire shape.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  durationMs,
  type PodMetricsItem,
  podMetricsItem,
  resourceMetrics,
} from './metrics-source.js';

const item = (name: string, containers: [string, Record<string, string>][]): PodMetricsItem => ({
  name,
  timestampMs: 1000,
  windowMs: 60_000,
  containers: containers.map(([n, usage]) => ({ name: n, usage })),
});

describe('resourceMetrics', () => {
  const items = [
    item('a', [
      ['c1', { cpu: '100m' }],
      ['c2', { cpu: '250m', memory: '1Mi' }],
    ]),
    item('b', [
      ['c1', { cpu: '1' }],
      ['c2', { memory: '2Mi' }],
    ]),
    item('c', []),
  ];

  it("sums a pod's containers; a container without the resource drops the pod", () => {
    const r = resourceMetrics(items, 'cpu', '');
    assert.ok(r.ok);
    assert.deepEqual(
      [...r.metrics].map(([n, m]) => [n, m.value]),
      [['a', 350]],
    );
    assert.equal(r.timestampMs, 1000);
  });

  it('reads one container for ContainerResource metrics', () => {
    const r = resourceMetrics(items, 'cpu', 'c1');
    assert.ok(r.ok);
    assert.deepEqual(
      [...r.metrics].map(([n, m]) => [n, m.value]),
      [
        ['a', 100],
        ['b', 1000],
      ],
    );
    const mem = resourceMetrics(items, 'memory', 'c2');
    assert.ok(mem.ok);
    assert.deepEqual(
      [...mem.metrics].map(([n, m]) => [n, m.value]),
      [
        ['a', 1_048_576_000],
        ['b', 2_097_152_000],
      ],
    );
  });

  it('no PodMetrics at all is an error, as upstream', () => {
    assert.deepEqual(resourceMetrics([], 'cpu', ''), {
      ok: false,
      error: 'no metrics returned from resource metrics API',
    });
  });
});

describe('PodMetrics on the wire', () => {
  it('parses metrics-server shaped objects', () => {
    const parsed = podMetricsItem({
      apiVersion: 'metrics.k8s.io/v1beta1',
      kind: 'PodMetrics',
      metadata: { name: 'p', namespace: 'n' },
      timestamp: '2026-01-01T00:00:00Z',
      window: '10s',
      containers: [{ name: 'main', usage: { cpu: '3374249n', memory: '12345Ki' } }],
    });
    assert.deepEqual(parsed, {
      name: 'p',
      timestampMs: Date.parse('2026-01-01T00:00:00Z'),
      windowMs: 10_000,
      containers: [{ name: 'main', usage: { cpu: '3374249n', memory: '12345Ki' } }],
    });
    // 3374249n rounds up to 4m, as Quantity.MilliValue().
    const r = resourceMetrics([parsed], 'cpu', '');
    assert.ok(r.ok && r.metrics.get('p')?.value === 4);
  });

  it('reads Go durations', () => {
    assert.deepEqual(
      ['10s', '1m0s', '1m30.5s', '250ms', 'junk', undefined].map(durationMs),
      [10_000, 60_000, 90_500, 250, 60_000, 60_000],
    );
  });
});
