import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { EventBuffer } from './event-buffer.js';
import { InvariantEngine } from './invariants.js';
import { type EventDetail, Timeline } from './timeline.js';
import type { WatchedEvent } from './watchers.js';

const T0 = Date.UTC(2026, 0, 1);

function node(rv: number, ready: string, extra: Record<string, unknown> = {}): KubeObject {
  return {
    kind: 'Node',
    metadata: { name: 'fleetyard-node-1', resourceVersion: String(rv) },
    spec: extra,
    status: { conditions: [{ type: 'Ready', status: ready }] },
  };
}

function pod(rv: number, phase: string): KubeObject {
  return {
    kind: 'Pod',
    metadata: { name: 'web-0', namespace: 'default', resourceVersion: String(rv) },
    spec: { nodeName: 'fleetyard-node-1' },
    status: { phase },
  };
}

function watched(
  key: string,
  object: KubeObject,
  time: number,
  type: WatchedEvent['type'] = 'MODIFIED',
): WatchedEvent {
  return { type, key, kind: object.kind ?? '', object, time };
}

describe('EventBuffer', () => {
  test('puts a batch from several streams back into resourceVersion order, times non-decreasing', () => {
    const out: WatchedEvent[] = [];
    const buffer = new EventBuffer((e) => out.push(e));
    buffer.push(watched('/pods', pod(12, 'Running'), T0 + 2000));
    buffer.push(watched('/nodes', node(11, 'True'), T0 + 3000));
    buffer.push(watched('/pods', pod(13, 'Failed'), T0 + 1000));
    buffer.flush();
    assert.deepEqual(
      out.map((e) => [e.object.metadata?.resourceVersion, e.time - T0]),
      [
        ['11', 3000],
        ['12', 3000],
        ['13', 3000],
      ],
    );
  });
});

describe('Timeline', () => {
  function lines(events: EventDetail): string[] {
    const out: string[] = [];
    const t = new Timeline((l) => out.push(l), { events });
    const scenario = {
      name: 's',
      file: 's.yaml',
      cluster: {},
      watch: [],
      invariants: [],
      steps: [],
    };
    t.record({ type: 'scenario-start', scenario, startTime: T0 });
    const engine = new InvariantEngine([]);
    engine.sync('/nodes', [node(1, 'True')], T0);
    t.record({ type: 'sync', key: '/nodes', objects: [node(1, 'True')], time: T0 });
    const feed = (object: KubeObject, at: number): void => {
      t.record({
        type: 'event',
        event: engine.observe({ time: T0 + at, type: 'MODIFIED', key: '/nodes', object }).event,
      });
    };
    feed(node(2, 'True'), 10_000); // a heartbeat: nothing a reader sees changed
    feed(node(3, 'Unknown'), 50_000);
    feed(node(4, 'Unknown', { unschedulable: true }), 60_000);
    return out.filter((l) => l.startsWith('['));
  }

  test('changes: updates whose summary did not change are left out, the first list is the baseline', () => {
    assert.deepEqual(lines('changes'), [
      '[+00:00:50.000]   MODIFIED Node fleetyard-node-1 rv=3: Ready=Unknown',
      '[+00:01:00.000]   MODIFIED Node fleetyard-node-1 rv=4: Ready=Unknown, cordoned',
    ]);
  });

  test('all and none', () => {
    assert.equal(lines('all').length, 3);
    assert.deepEqual(lines('none'), []);
  });
});
