/**
 * The API-fault sweep's own tools, so the sweep can be trusted to fail: the fault client
 * really withholds a timed-out, throttled or conflicting request and really commits a "lost"
 * one before throwing, it counts only mutating calls, and the invariant checks flag an
 * unfenced delete and a delete of an incarnation the fault-free run never deleted.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import {
  isConflict,
  isNotFound,
  isTooManyRequests,
  RequestTimeoutError,
} from '../../client/api-client.js';
import { RESOURCES } from '../../controller/context.js';
import { type Harness, startHarness } from '../../controller/testing/harness.js';
import { type FaultKind, faultClient, type RecordedCall } from './testing/fault-client.js';
import { deleteViolations } from './testing/fault-invariants.js';
import type { PhaseStart } from './testing/fault-phases.js';
import type { RunRecord } from './testing/fault-run.js';

const CONFIGMAPS = { ...RESOURCES.configmaps, namespace: 'default' };

function configMap(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } };
}

describe('fault client', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h.close();
  });

  const withheld: [FaultKind, (err: unknown) => boolean][] = [
    ['timeout', (err) => err instanceof RequestTimeoutError],
    ['429', isTooManyRequests],
    ['conflict', isConflict],
  ];
  for (const [kind, classify] of withheld) {
    it(`${kind}: the planned call fails as the client would and is never sent`, async () => {
      const name = `withheld-${kind}`;
      const signature = `create configmaps/${name}`;
      const fc = faultClient(h.client, { at: 2, signature, occurrence: 1, kind });
      await fc.client.get({ ...CONFIGMAPS, name: 'absent' }).catch((err) => {
        assert.ok(isNotFound(err));
      });
      await fc.client.create(CONFIGMAPS, configMap(`${name}-a`));
      await assert.rejects(fc.client.create(CONFIGMAPS, configMap(name)), classify);
      assert.equal(await h.get({ ...CONFIGMAPS, name }), undefined);
      assert.equal((await fc.injected).name, name);
      assert.deepEqual(
        fc.mutations().map((c) => [c.index, c.name, c.fault]),
        [
          [1, `${name}-a`, undefined],
          [2, name, kind],
        ],
      );
    });
  }

  it('lost: the write commits, then the caller sees a timeout', async () => {
    const plan = { at: 1, signature: 'create configmaps/lost', occurrence: 1 } as const;
    const fc = faultClient(h.client, { ...plan, kind: 'lost' });
    await assert.rejects(
      fc.client.create(CONFIGMAPS, configMap('lost')),
      (err) => err instanceof RequestTimeoutError,
    );
    assert.ok(await h.get({ ...CONFIGMAPS, name: 'lost' }));
  });

  it('records delete preconditions', async () => {
    const created = await h.client.create(CONFIGMAPS, configMap('fenced'));
    const fc = faultClient(h.client);
    const { uid, resourceVersion } = created.metadata ?? {};
    await fc.client.delete(
      { ...CONFIGMAPS, name: 'fenced' },
      { preconditions: { uid: uid ?? '', resourceVersion: resourceVersion ?? '' } },
    );
    assert.deepEqual(fc.calls[0]?.preconditions, { uid, resourceVersion });
  });
});

describe('fault sweep invariants', () => {
  const start: PhaseStart = {
    uids: new Set(['claim-1-a']),
    fleetUid: 'fleet',
    reservation: undefined,
    claims: new Map([['data-orders-1', 'claim-1-a']]),
  };
  const del = (index: number, uid: string, rv?: string): RecordedCall => ({
    index,
    verb: 'delete',
    resource: 'persistentvolumeclaims',
    namespace: 'ns',
    name: 'data-orders-1',
    preconditions: { uid, ...(rv ? { resourceVersion: rv } : {}) },
    uid,
    outcome: 'ok',
  });
  const record = (calls: RecordedCall[]): RunRecord => ({
    phase: 'p',
    namespace: 'ns',
    start,
    calls,
    retries: 0,
    converged: true,
    durationMs: 0,
  });
  const allowed = new Set(['persistentvolumeclaims/data-orders-1#initial']);

  it('accepts the fault-free run’s deletes, repeated', () => {
    assert.deepEqual(
      deleteViolations(record([del(1, 'claim-1-a', '7'), del(2, 'claim-1-a', '9')]), allowed),
      [],
    );
  });

  it('flags a delete without a resourceVersion precondition', () => {
    assert.equal(deleteViolations(record([del(1, 'claim-1-a')]), allowed).length, 1);
  });

  it('flags a delete of an incarnation created during the phase', () => {
    const out = deleteViolations(record([del(3, 'claim-1-b', '12')]), allowed);
    assert.deepEqual(out, [
      'delete the fault-free run did not issue: persistentvolumeclaims/data-orders-1#new (#3)',
    ]);
  });
});
