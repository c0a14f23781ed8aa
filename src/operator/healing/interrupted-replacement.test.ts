/**
 * A replacement interrupted between its deletes (operator crash, lost response before or after
 * the write committed): the plan computed from the resulting Kubernetes state alone finishes it
 * or leaves it safe. Replacement deletes the claim (uid+rv), then the pod (uid+rv); the claim's
 * deletionTimestamp is the durable record that a replacement began.
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planHealing } from './plan-healing.js';
import { claim, down, healthy, input, MIN, node, pod, SEC, T0 } from './testing/fixtures.js';
import type { MemberObservation } from './types.js';

const downSince = T0 - 60 * MIN;
const member = (o: Partial<MemberObservation>): MemberObservation => ({
  ordinal: 1,
  node: node(1),
  ...o,
});
const podDown = (o = {}) => pod(1, { ready: false, since: downSince, ...o });
const deletingClaim = (o = {}) =>
  claim(1, { deletionAt: T0 - 5 * SEC, resourceVersion: '300', ...o });

interface Row {
  state: string;
  m: MemberObservation;
  kind?: string;
  deletes?: string[];
  settled?: boolean;
  otherPending?: boolean;
}

const rows: Row[] = [
  {
    state: 'nothing committed (both writes lost): plan again',
    m: down(1, downSince),
    kind: 'replaceMember',
    deletes: ['PersistentVolumeClaim', 'Pod'],
  },
  {
    state: 'claim delete committed, pod delete never sent: release the pod',
    m: member({ pod: podDown(), claim: deletingClaim() }),
    kind: 'releaseDisk',
    deletes: ['Pod'],
  },
  {
    state:
      'claim delete committed, pod recovered meanwhile (Ready): still release, the claim is going',
    m: member({ pod: pod(1, { since: T0 }), claim: deletingClaim() }),
    kind: 'releaseDisk',
    deletes: ['Pod'],
  },
  {
    state: 'claim deleting, another member awaits the scheduler: wait (#79)',
    m: member({ pod: podDown(), claim: deletingClaim() }),
    otherPending: true,
  },
  {
    state: 'claim deleting, workload unsettled: wait',
    m: member({ pod: podDown(), claim: deletingClaim() }),
    settled: false,
  },
  {
    state: 'claim gone (pod was unscheduled), pod pending: the StatefulSet recreates the claim',
    m: member({ pod: podDown({ nodeName: null }) }),
  },
  {
    state: 'claim deleting, pod pending unscheduled: protection releases it; nothing to do',
    m: member({ pod: podDown({ nodeName: null }), claim: deletingClaim() }),
  },
  {
    state: 'both deletes committed: pod terminating within grace',
    m: member({ pod: podDown({ deletionAt: T0 + 30 * SEC }), claim: deletingClaim() }),
  },
  {
    state: 'both committed, pod stuck past grace + 2 min: force-delete it',
    m: member({ pod: podDown({ deletionAt: T0 - 2 * MIN }), claim: deletingClaim() }),
    kind: 'forceDeletePod',
    deletes: ['Pod'],
  },
  {
    state: 'pod gone, claim still terminating: wait for the StatefulSet',
    m: member({ claim: deletingClaim() }),
  },
  { state: 'pod gone, claim gone: the StatefulSet makes both anew', m: member({}) },
  {
    state: 'new pod on its fresh disk, down past the delay: not replaced again',
    m: member({
      pod: podDown({ createdAt: T0 - 61 * MIN, uid: 'pod-uid-new' }),
      claim: claim(1, { createdAt: T0 - 61 * MIN + SEC, uid: 'claim-uid-new' }),
    }),
  },
  {
    state: 'Lost replacement interrupted after the claim delete: release, not replace twice',
    m: member({ pod: podDown(), claim: deletingClaim({ phase: 'Lost' }) }),
    kind: 'releaseDisk',
    deletes: ['Pod'],
  },
];

describe('interrupted replacement resumes from Kubernetes state alone', () => {
  for (const r of rows) {
    it(r.state, () => {
      const other = r.otherPending ? down(2, T0, { nodeName: null }) : healthy(2);
      const plan = planHealing(input([healthy(0), r.m, other], { settled: r.settled ?? true }));
      assert.equal(plan.action?.kind, r.kind);
      if (r.deletes !== undefined) {
        assert.deepEqual(
          plan.action?.deletes.map((d) => d.kind),
          r.deletes,
        );
        for (const d of plan.action?.deletes ?? []) {
          const obj = d.kind === 'Pod' ? r.m.pod : r.m.claim;
          assert.equal(d.uid, obj?.metadata?.uid);
          assert.equal(d.resourceVersion, obj?.metadata?.resourceVersion);
        }
      }
      // Whatever the state, no plan deletes a claim that is already being deleted.
      assert.ok(
        !(
          plan.action?.deletes.some((d) => d.kind === 'PersistentVolumeClaim') &&
          r.m.claim?.metadata?.deletionTimestamp
        ),
      );
    });
  }

  it('the terminating pod within grace wakes the reconcile at grace end + 2 min', () => {
    const m = member({ pod: podDown({ deletionAt: T0 + 30 * SEC }), claim: deletingClaim() });
    const plan = planHealing(input([healthy(0), m, healthy(2)]));
    assert.equal(plan.requeueAfterMs, 30 * SEC + 2 * MIN);
  });
});
