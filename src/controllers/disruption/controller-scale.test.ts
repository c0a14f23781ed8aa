/**
 * Tests of the workload finders (upstream TestBasicFinderFunctions, TestDeploymentFinder) and of
 * the pod DisruptionTarget condition update.
 *
 * @module
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { controllerScaleFromObjects } from './controller-scale.js';
import { NS, refTo, workload } from './testing/fixtures.js';

describe('controllerScaleFromObjects', () => {
  const dep = workload('Deployment', 'd', 4);
  const depRs = workload('ReplicaSet', 'd-rs', 2, refTo(dep));
  const rs = workload('ReplicaSet', 'rs', 3);
  const rc = workload('ReplicationController', 'rc', 5);
  const ss = workload('StatefulSet', 'ss', 6);
  const orphanRs = workload('ReplicaSet', 'o-rs', 7, refTo(workload('Deployment', 'gone', 1)));
  const lookup = controllerScaleFromObjects({
    deployments: [dep],
    replicaSets: [depRs, rs, orphanRs],
    replicationControllers: [rc],
    statefulSets: [ss],
    scaleSubresource: (ref) => (ref.kind === 'Foo' ? { uid: ref.uid, scale: 9 } : undefined),
  });
  const cases: { name: string; ref: ReturnType<typeof refTo>; want: unknown }[] = [
    {
      name: 'ReplicaSet of a Deployment → Deployment',
      ref: refTo(depRs),
      want: { uid: 'uid-Deployment-d', scale: 4 },
    },
    { name: 'bare ReplicaSet', ref: refTo(rs), want: { uid: 'uid-ReplicaSet-rs', scale: 3 } },
    {
      name: 'ReplicationController',
      ref: refTo(rc),
      want: { uid: 'uid-ReplicationController-rc', scale: 5 },
    },
    { name: 'StatefulSet', ref: refTo(ss), want: { uid: 'uid-StatefulSet-ss', scale: 6 } },
    {
      name: 'UID mismatch (recreated object)',
      ref: { ...refTo(rs), uid: 'other' },
      want: undefined,
    },
    { name: 'wrong group', ref: { ...refTo(ss), apiVersion: 'example.com/v1' }, want: undefined },
    { name: 'ReplicaSet whose Deployment is gone', ref: refTo(orphanRs), want: undefined },
    {
      name: 'custom kind via scale subresource',
      ref: { ...refTo(rs), kind: 'Foo' },
      want: { uid: 'uid-ReplicaSet-rs', scale: 9 },
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(lookup(c.ref, NS), c.want));
  }
  it('other namespaces do not resolve', () =>
    assert.equal(lookup(refTo(rs), 'elsewhere'), undefined));
});
