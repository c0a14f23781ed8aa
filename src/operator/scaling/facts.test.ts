/**
 * Table tests for the fact builders: claim names and ownership, pod placement from
 * `spec.nodeName` and the `PodScheduled` condition, and member pods by controller.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { claimFacts, memberPlacements, ordinalOf, podPlacement } from './facts.js';

const OWNERSHIP = { labelKey: 'celld.fleetyard.dev/fleet-uid', fleetUid: 'u-1' };

describe('ordinalOf', () => {
  const cases: Array<[string, number | undefined]> = [
    ['data-web-0', 0],
    ['data-web-12', 12],
    ['data-web-07', undefined],
    ['data-web--1', undefined],
    ['data-web-1a', undefined],
    ['data-web-', undefined],
    ['data-webx-1', undefined],
    ['data-web-x-1', undefined],
  ];
  for (const [name, want] of cases) {
    it(`${name} → ${want}`, () => assert.equal(ordinalOf(name, 'data-web-'), want));
  }
});

describe('claimFacts', () => {
  const claim = (name: string, meta: Record<string, unknown> = {}): KubeObject => ({
    metadata: { name, labels: { [OWNERSHIP.labelKey]: 'u-1' }, ...meta },
  });
  const cases: Array<{ name: string; claim: KubeObject; want: unknown }> = [
    {
      name: 'ours',
      claim: claim('data-web-2'),
      want: [{ ordinal: 2, ours: true, terminating: false }],
    },
    {
      name: 'another fleet UID (a recreated fleet of the same name) is foreign',
      claim: claim('data-web-2', { labels: { [OWNERSHIP.labelKey]: 'u-0' } }),
      want: [{ ordinal: 2, ours: false, terminating: false }],
    },
    {
      name: 'no label: foreign',
      claim: claim('data-web-2', { labels: {} }),
      want: [{ ordinal: 2, ours: false, terminating: false }],
    },
    {
      name: 'our label but owned by something: foreign (never adopted)',
      claim: claim('data-web-2', {
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'x', uid: 'p' }],
      }),
      want: [{ ordinal: 2, ours: false, terminating: false }],
    },
    {
      name: 'terminating',
      claim: claim('data-web-0', { deletionTimestamp: '2026-01-01T00:00:00Z' }),
      want: [{ ordinal: 0, ours: true, terminating: true }],
    },
    { name: 'another set’s claim is skipped', claim: claim('data-webby-0'), want: [] },
    { name: 'another template’s claim is skipped', claim: claim('logs-web-0'), want: [] },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(claimFacts([c.claim], 'web', OWNERSHIP), c.want));
  }
});

describe('podPlacement', () => {
  const pod = (spec: object, conditions?: object[]): KubeObject => ({
    metadata: { name: 'web-0' },
    spec,
    status: conditions ? { conditions } : {},
  });
  const cases: Array<{ name: string; pod: KubeObject | undefined; want: string }> = [
    { name: 'no pod', pod: undefined, want: 'absent' },
    { name: 'on a node', pod: pod({ nodeName: 'n1' }), want: 'scheduled' },
    {
      name: 'on a node with a stale Unschedulable condition',
      pod: pod({ nodeName: 'n1' }, [
        { type: 'PodScheduled', status: 'False', reason: 'Unschedulable' },
      ]),
      want: 'scheduled',
    },
    { name: 'new, no conditions', pod: pod({}), want: 'awaiting' },
    {
      name: 'Unschedulable',
      pod: pod({}, [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }]),
      want: 'unschedulable',
    },
    {
      name: 'scheduling gated is not a decision',
      pod: pod({}, [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }]),
      want: 'awaiting',
    },
  ];
  for (const c of cases) it(c.name, () => assert.equal(podPlacement(c.pod), c.want));
});

describe('memberPlacements', () => {
  const owned = (name: string, uid: string, nodeName?: string): KubeObject => ({
    metadata: {
      name,
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid, controller: true },
      ],
    },
    spec: nodeName ? { nodeName } : {},
  });
  it('keys by ordinal and, with the set UID, ignores pods another controller owns', () => {
    const pods = [owned('web-0', 's1', 'n1'), owned('web-1', 'other', 'n2'), owned('web-2', 's1')];
    assert.deepEqual(
      [...memberPlacements(pods, 'web', 's1')],
      [
        [0, 'scheduled'],
        [2, 'awaiting'],
      ],
    );
    assert.equal(memberPlacements(pods, 'web').size, 3);
  });
});
