import assert from 'node:assert/strict';
import { test } from 'node:test';
import { difference, histogramQuantile, parsePrometheus, sumBy } from './prom-text.js';

const TEXT = `# HELP apiserver_request_total Requests.
# TYPE apiserver_request_total counter
apiserver_request_total{verb="create",resource="pods",code="201"} 1000
apiserver_request_total{verb="update",resource="pods/status",code="200"} 990
apiserver_request_total{verb="update",resource="pods/status",code="409"} 10
apiserver_request_total{verb="get",resource="pods",code="200"} 5
# TYPE controller_runtime_reconcile_time_seconds histogram
controller_runtime_reconcile_time_seconds_bucket{le="0.005",controller="a"} 90
controller_runtime_reconcile_time_seconds_bucket{le="0.01",controller="a"} 98
controller_runtime_reconcile_time_seconds_bucket{le="0.025",controller="a"} 99
controller_runtime_reconcile_time_seconds_bucket{le="+Inf",controller="a"} 100
controller_runtime_reconcile_time_seconds_sum{controller="a"} 0.5
controller_runtime_reconcile_time_seconds_count{controller="a"} 100
controller_runtime_reconcile_time_seconds_bucket{le="0.005",controller="b"} 0
controller_runtime_reconcile_time_seconds_bucket{le="+Inf",controller="b"} 2
controller_runtime_reconcile_time_seconds_count{controller="b"} 2
`;

test('parses samples with labels and sums by a key', () => {
  const samples = parsePrometheus(TEXT);
  const byResource = sumBy(samples, 'apiserver_request_total', (l) =>
    l.verb === 'get' ? undefined : l.resource,
  );
  assert.deepEqual(
    [...byResource],
    [
      ['pods', 1000],
      ['pods/status', 1000],
    ],
  );
});

test('difference keeps changed keys only, new keys count from zero', () => {
  const d = difference(
    new Map([
      ['a', 1],
      ['b', 2],
    ]),
    new Map([
      ['a', 1],
      ['b', 5],
      ['c', 3],
    ]),
  );
  assert.deepEqual(
    [...d],
    [
      ['b', 3],
      ['c', 3],
    ],
  );
});

test('histogram quantile is the first bucket bound holding q × count', () => {
  const samples = parsePrometheus(TEXT);
  const name = 'controller_runtime_reconcile_time_seconds';
  const cases: Array<[string, number, number]> = [
    ['a', 0.5, 0.005],
    ['a', 0.9, 0.005],
    ['a', 0.95, 0.01],
    ['a', 0.99, 0.025],
    ['a', 1, Number.POSITIVE_INFINITY],
    ['b', 0.99, Number.POSITIVE_INFINITY],
  ];
  for (const [controller, q, bound] of cases) {
    const h = histogramQuantile(samples, name, (l) => l.controller === controller, q);
    assert.equal(h?.upperBound, bound, `${controller} q=${q}`);
  }
  assert.equal(
    histogramQuantile(samples, name, (l) => l.controller === 'none', 0.99),
    undefined,
  );
});
