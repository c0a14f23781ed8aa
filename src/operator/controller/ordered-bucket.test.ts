/**
 * `ungatedPod`, table-driven: an Ordered Bucket member `<f>-<n>` that still carries the
 * bucket-zone scheduling gate gets the nodeSelector `zones[n % len]` and loses that gate (and
 * only that gate); a pod without the gate, a terminating pod, or a name without an ordinal
 * needs nothing.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { formatTime } from '../../api/time.js';
import { type FleetSpecView, resolveFleet } from '../render/fleet-view.js';
import { SCHEDULING_GATE_BUCKET_ZONE } from '../render/metadata.js';
import { ungatedPod } from './ordered-bucket.js';

const ZONE = 'topology.kubernetes.io/zone';
const fleet = resolveFleet({
  metadata: { name: 'cells', namespace: 'default', uid: 'u1' },
  spec: {
    profile: 'Bucket',
    bucketWorkload: 'Ordered',
    replicas: 4,
    runtimeImage: 'img',
    serviceAccountName: 'cells',
    storage: { bucket: 'b', region: 'r' },
    placement: { zones: ['local-a', 'local-b', 'local-c'] },
  },
} as FleetSpecView);

function pod(
  name: string,
  gates: string[],
  extra: { nodeSelector?: Record<string, string>; deleting?: boolean } = {},
): KubeObject {
  return {
    metadata: {
      name,
      resourceVersion: '7',
      ...(extra.deleting ? { deletionTimestamp: formatTime(Date.UTC(2026, 0, 1)) } : {}),
    },
    spec: {
      containers: [{ name: 'celld', image: 'x' }],
      ...(gates.length > 0 ? { schedulingGates: gates.map((name) => ({ name })) } : {}),
      ...(extra.nodeSelector ? { nodeSelector: extra.nodeSelector } : {}),
    },
  };
}

type Spec = { nodeSelector?: Record<string, string>; schedulingGates?: { name: string }[] };

describe('ungatedPod', () => {
  const table: {
    name: string;
    pod: KubeObject;
    /** Expected zone and remaining gates, or undefined when nothing is written. */
    want?: { zone: string; gates?: string[]; selector?: Record<string, string> };
  }[] = [
    {
      name: 'member 0 → zone a',
      pod: pod('cells-0', [SCHEDULING_GATE_BUCKET_ZONE]),
      want: { zone: 'local-a' },
    },
    {
      name: 'member 2 → zone c',
      pod: pod('cells-2', [SCHEDULING_GATE_BUCKET_ZONE]),
      want: { zone: 'local-c' },
    },
    {
      name: 'member 4 wraps to zone b',
      pod: pod('cells-4', [SCHEDULING_GATE_BUCKET_ZONE]),
      want: { zone: 'local-b' },
    },
    {
      name: 'other gates stay',
      pod: pod('cells-1', ['example.com/other', SCHEDULING_GATE_BUCKET_ZONE]),
      want: { zone: 'local-b', gates: ['example.com/other'] },
    },
    {
      name: 'an existing nodeSelector is kept',
      pod: pod('cells-0', [SCHEDULING_GATE_BUCKET_ZONE], { nodeSelector: { disk: 'ssd' } }),
      want: { zone: 'local-a', selector: { disk: 'ssd' } },
    },
    { name: 'no gate: nothing', pod: pod('cells-0', []) },
    { name: 'another gate only: nothing', pod: pod('cells-0', ['example.com/other']) },
    {
      name: 'terminating: nothing',
      pod: pod('cells-0', [SCHEDULING_GATE_BUCKET_ZONE], { deleting: true }),
    },
    { name: 'not a member name: nothing', pod: pod('other-0', [SCHEDULING_GATE_BUCKET_ZONE]) },
    { name: 'no ordinal: nothing', pod: pod('cells-x', [SCHEDULING_GATE_BUCKET_ZONE]) },
  ];
  for (const row of table) {
    it(row.name, () => {
      const got = ungatedPod(fleet, row.pod);
      if (row.want === undefined) {
        assert.equal(got, undefined);
        return;
      }
      assert.ok(got);
      assert.equal(got.apiVersion, 'v1');
      assert.equal(got.kind, 'Pod');
      assert.equal(got.metadata?.resourceVersion, '7', 'the update is fenced by the read version');
      const spec = got.spec as Spec;
      assert.deepEqual(spec.nodeSelector, { ...row.want.selector, [ZONE]: row.want.zone });
      assert.deepEqual(
        spec.schedulingGates?.map((g) => g.name),
        row.want.gates,
      );
      assert.ok(
        (row.pod.spec as Spec).schedulingGates?.some((g) => g.name === SCHEDULING_GATE_BUCKET_ZONE),
        'the input pod is not mutated',
      );
    });
  }
});
