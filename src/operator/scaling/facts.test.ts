/**
 * Table tests for the fact builders: claim names, ownership, binding and selected node; pod
 * placement from `spec.nodeName` and the `PodScheduled` condition; member pods by controller,
 * with the operator's gate; and node eligibility.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { claimFacts, memberPodFacts, nodeFacts, ordinalOf, podPlacement } from './facts.js';

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
      want: [{ ordinal: 2, ours: true, terminating: false, bound: false }],
    },
    {
      name: 'another fleet UID (a recreated fleet of the same name) is foreign',
      claim: claim('data-web-2', { labels: { [OWNERSHIP.labelKey]: 'u-0' } }),
      want: [{ ordinal: 2, ours: false, terminating: false, bound: false }],
    },
    {
      name: 'no label: foreign',
      claim: claim('data-web-2', { labels: {} }),
      want: [{ ordinal: 2, ours: false, terminating: false, bound: false }],
    },
    {
      name: 'our label but owned by something: foreign (never adopted)',
      claim: claim('data-web-2', {
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'x', uid: 'p' }],
      }),
      want: [{ ordinal: 2, ours: false, terminating: false, bound: false }],
    },
    {
      name: 'terminating',
      claim: claim('data-web-0', { deletionTimestamp: '2026-01-01T00:00:00Z' }),
      want: [{ ordinal: 0, ours: true, terminating: true, bound: false }],
    },
    {
      name: 'bound, with the node the scheduler selected for its disk',
      claim: {
        ...claim('data-web-1', {
          annotations: { 'volume.kubernetes.io/selected-node': 'node-3' },
        }),
        spec: { volumeName: 'pvc-1' },
      },
      want: [{ ordinal: 1, ours: true, terminating: false, bound: true, node: 'node-3' }],
    },
    {
      name: 'Lost: its volume is gone, so it pins nothing',
      claim: { ...claim('data-web-1'), spec: { volumeName: 'pvc-1' }, status: { phase: 'Lost' } },
      want: [{ ordinal: 1, ours: true, terminating: false, bound: false }],
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

describe('memberPodFacts', () => {
  const GATE = 'celld.fleetyard.dev/disk-placement';
  const owned = (name: string, uid: string, spec: object = {}, deleting = false): KubeObject => ({
    metadata: {
      name,
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid, controller: true },
      ],
      ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec,
  });
  it('reads ordinal, gate, deletion, placement and node; ignores pods another controller owns', () => {
    const pods = [
      owned('web-0', 's1', { nodeName: 'n1' }),
      owned('web-1', 'other', { nodeName: 'n2' }),
      owned('web-2', 's1', { schedulingGates: [{ name: GATE }] }),
      owned('web-3', 's1', { schedulingGates: [{ name: 'someone-else' }] }, true),
      owned('stray', 's1'),
    ];
    assert.deepEqual(memberPodFacts(pods, 'web', 's1', GATE), [
      { ordinal: 0, gated: false, terminating: false, placement: 'scheduled', node: 'n1' },
      { ordinal: 2, gated: true, terminating: false, placement: 'awaiting' },
      { ordinal: 3, gated: false, terminating: true, placement: 'awaiting' },
    ]);
  });
});

describe('nodeFacts', () => {
  const node = (over: { labels?: object; spec?: object; ready?: string }): KubeObject => ({
    metadata: {
      name: 'n1',
      labels: { 'topology.kubernetes.io/zone': 'a', 'kubernetes.io/os': 'linux', ...over.labels },
    },
    spec: over.spec ?? {},
    status: { conditions: [{ type: 'Ready', status: over.ready ?? 'True' }] },
  });
  const cases: Array<{ name: string; node: KubeObject; eligible: boolean }> = [
    { name: 'Ready, Linux, in a fleet zone', node: node({}), eligible: true },
    { name: 'not Ready', node: node({ ready: 'Unknown' }), eligible: false },
    { name: 'cordoned', node: node({ spec: { unschedulable: true } }), eligible: false },
    {
      name: 'a NoSchedule taint',
      node: node({ spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } }),
      eligible: false,
    },
    {
      name: 'a PreferNoSchedule taint only',
      node: node({ spec: { taints: [{ key: 'k', effect: 'PreferNoSchedule' }] } }),
      eligible: true,
    },
    {
      name: 'another zone',
      node: node({ labels: { 'topology.kubernetes.io/zone': 'z' } }),
      eligible: false,
    },
    {
      name: 'not Linux',
      node: node({ labels: { 'kubernetes.io/os': 'windows' } }),
      eligible: false,
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(nodeFacts(c.node, ['a', 'b']).eligible, c.eligible));
  }
  it('carries the zone label', () => {
    assert.deepEqual(nodeFacts(node({}), ['a']), { name: 'n1', zone: 'a', eligible: true });
  });
});
