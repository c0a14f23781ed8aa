import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Node, Pod } from '../api/model/index.js';
import { FakeClock } from '../util/clock.js';
import {
  isOursToSchedule,
  nodeEventHandler,
  nodeSchedulingPropertiesChanged,
  podEventHandler,
} from './event-handlers.js';
import {
  NOTE_LENGTH_LIMIT,
  REASON_UNSCHEDULABLE,
  truncateMessage,
  unschedulablePatch,
} from './pod-status.js';
import { SchedulerCache } from './scheduler-cache.js';
import { SchedulingQueue } from './scheduling-queue.js';
import { makeNode, makePod } from './testing/fixtures.js';

describe('isOursToSchedule', () => {
  const table: [string, Pod, boolean][] = [
    ['unset schedulerName', makePod('a'), true],
    ['default-scheduler', makePod('a', { spec: { schedulerName: 'default-scheduler' } }), true],
    ['another scheduler', makePod('a', { spec: { schedulerName: 'other' } }), false],
    ['already bound', makePod('a', { node: 'n1' }), false],
    ['terminal', makePod('a', { phase: 'Failed' }), false],
    [
      'being deleted',
      { ...makePod('a'), metadata: { name: 'a', deletionTimestamp: '2026-01-01T00:00:00Z' } },
      false,
    ],
  ];
  for (const [name, pod, want] of table) it(name, () => assert.equal(isOursToSchedule(pod), want));
});

describe('nodeSchedulingPropertiesChanged', () => {
  const base = {
    ...makeNode('n1'),
    status: {
      allocatable: { cpu: '4' },
      conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:00Z' }],
    },
  };
  const table: [string, Node, boolean][] = [
    [
      'heartbeat only',
      {
        ...base,
        status: {
          ...base.status,
          conditions: [
            { type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:01:00Z' },
          ],
        },
      },
      false,
    ],
    ['allocatable', { ...base, status: { ...base.status, allocatable: { cpu: '8' } } }, true],
    ['unschedulable', { ...base, spec: { unschedulable: true } }, true],
    ['labels', { ...base, metadata: { name: 'n1', labels: { zone: 'a' } } }, true],
  ];
  for (const [name, node, want] of table) {
    it(name, () => assert.equal(nodeSchedulingPropertiesChanged(base, node), want));
  }
});

describe('event handlers', () => {
  it('wakes an unschedulable pod when a node is added, and not on a heartbeat', async () => {
    const queue = new SchedulingQueue({ clock: new FakeClock() });
    const cache = new SchedulerCache();
    const pods = podEventHandler(queue, cache);
    const nodes = nodeEventHandler(queue, cache);
    const node = makeNode('n1');
    nodes.onAdd?.(node, false);
    pods.onAdd?.(makePod('a'), false);
    const info = await queue.pop();
    assert.ok(info);
    queue.addUnschedulable(info);
    nodes.onUpdate?.(node, { ...node, metadata: { ...node.metadata, resourceVersion: '2' } });
    assert.equal(queue.where('default/a'), 'unschedulable');
    nodes.onAdd?.(makeNode('n2'), false);
    assert.equal(queue.where('default/a'), 'backoff');
    queue.close();
  });

  it('moves a pod from the queue into the cache when it is bound', async () => {
    const queue = new SchedulingQueue({ clock: new FakeClock() });
    const cache = new SchedulerCache();
    const pods = podEventHandler(queue, cache);
    const pod = makePod('a', { cpu: '1' });
    pods.onAdd?.(pod, false);
    pods.onUpdate?.(pod, makePod('a', { cpu: '1', node: 'n1' }));
    assert.equal(queue.where('default/a'), undefined);
    assert.equal(cache.nodeOf('default/a'), 'n1');
    pods.onDelete?.(makePod('a', { node: 'n1' }));
    assert.equal(cache.nodeOf('default/a'), undefined);
    queue.close();
  });
});

describe('unschedulablePatch', () => {
  const now = Date.UTC(2026, 0, 1, 12);
  it('sets PodScheduled=False with a new transition time', () => {
    const patch = unschedulablePatch(makePod('a'), REASON_UNSCHEDULABLE, 'msg', now);
    assert.deepEqual(patch, {
      status: {
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            lastProbeTime: null,
            lastTransitionTime: '2026-01-01T12:00:00Z',
            reason: 'Unschedulable',
            message: 'msg',
          },
        ],
      },
    });
  });

  it('writes nothing when the condition already says the same', () => {
    const cond = { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: 'msg' };
    const pod = { ...makePod('a'), status: { conditions: [cond] } };
    assert.equal(unschedulablePatch(pod, REASON_UNSCHEDULABLE, 'msg', now), null);
  });

  it('keeps the transition time when only the message changes', () => {
    const cond = {
      type: 'PodScheduled',
      status: 'False',
      reason: 'Unschedulable',
      message: 'old',
      lastTransitionTime: '2025-12-31T00:00:00Z',
    };
    const pod = { ...makePod('a'), status: { conditions: [cond] } };
    const patch = unschedulablePatch(pod, REASON_UNSCHEDULABLE, 'new', now) as {
      status: { conditions: { lastTransitionTime: string }[] };
    };
    assert.equal(patch.status.conditions[0]?.lastTransitionTime, '2025-12-31T00:00:00Z');
  });
});

describe('truncateMessage', () => {
  it('keeps short messages and cuts long ones to the event limit', () => {
    assert.equal(truncateMessage('short'), 'short');
    const long = truncateMessage('x'.repeat(2000));
    assert.equal(long.length, NOTE_LENGTH_LIMIT);
    assert.ok(long.endsWith(' ...'));
  });
});
