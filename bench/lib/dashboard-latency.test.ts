import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Latencies, type PodChange, pageLatencies } from './dashboard-latency.js';

const c = (at: number, pod: string, phase: string, ready = false, node = 'n1'): PodChange => ({
  at,
  pod,
  phase,
  ready,
  node,
});

const CASES: readonly {
  name: string;
  api: PodChange[];
  page: PodChange[];
  want: Latencies;
}[] = [
  {
    name: 'every state shown',
    api: [
      c(0, 'a', 'Pending'),
      c(10, 'a', 'Running'),
      c(20, 'a', 'Running', true),
      c(30, 'a', 'DELETED'),
    ],
    page: [
      c(5, 'a', 'Pending'),
      c(15, 'a', 'Running'),
      c(21, 'a', 'Running', true),
      c(100, 'a', 'DELETED'),
    ],
    want: { ms: [5, 5, 1, 70], superseded: 0, missing: 0, unscheduledSkipped: 0 },
  },
  {
    name: 'a skipped state counts until a later one is shown',
    api: [c(0, 'a', 'Pending'), c(10, 'a', 'Running', true)],
    page: [c(15, 'a', 'Running', true)],
    want: { ms: [15, 5], superseded: 1, missing: 0, unscheduledSkipped: 0 },
  },
  {
    name: 'a change never shown is missing',
    api: [c(0, 'a', 'Pending'), c(0, 'b', 'Pending')],
    page: [c(3, 'a', 'Pending')],
    want: { ms: [3], superseded: 0, missing: 1, unscheduledSkipped: 0 },
  },
  {
    name: 'unscheduled states are left out when the page shows none',
    api: [c(0, 'a', 'Pending', false, ''), c(10, 'a', 'Pending')],
    page: [c(12, 'a', 'Pending')],
    want: { ms: [2], superseded: 0, missing: 0, unscheduledSkipped: 1 },
  },
  {
    name: 'unscheduled states count when the page shows them',
    api: [c(0, 'a', 'Pending', false, ''), c(10, 'a', 'Pending')],
    page: [c(4, 'a', 'Pending', false, ''), c(12, 'a', 'Pending')],
    want: { ms: [4, 2], superseded: 0, missing: 0, unscheduledSkipped: 0 },
  },
  {
    name: 'a state that returns is matched in order',
    api: [c(0, 'a', 'Running', true), c(10, 'a', 'Running', false), c(20, 'a', 'Running', true)],
    page: [c(1, 'a', 'Running', true), c(11, 'a', 'Running', false), c(25, 'a', 'Running', true)],
    want: { ms: [1, 1, 5], superseded: 0, missing: 0, unscheduledSkipped: 0 },
  },
];

describe('pageLatencies', () => {
  for (const t of CASES) {
    it(t.name, () => {
      assert.deepEqual(pageLatencies(t.api, t.page), t.want);
    });
  }
});
