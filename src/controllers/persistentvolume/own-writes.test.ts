/**
 * The binder reads its own writes (apply-writes.ts, OwnWrites): after it binds a claim, a
 * cache still holding the claim it replaced answers with the written claim, so the next sync
 * plans from `Bound` instead of writing the status again and earning a 409 (one per provisioned
 * claim before, seen in the audit log of an OrderedReady StatefulSet with zonal claims).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asKind } from '../../api/model/index.js';
import { RESOURCES } from '../../controller/context.js';
import { OwnWrites } from '../../controller/own-writes.js';
import { type Harness, startHarness } from '../../controller/testing/harness.js';
import { applyWrites, type BinderOwnWrites } from './apply-writes.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h.close();
});

describe('binder writes and its stale cache', () => {
  it('answers a cache behind the spec and status writes with the written claim', async () => {
    const ref = { ...RESOURCES.persistentvolumeclaims, namespace: 'default' };
    const created = asKind(
      await h.client.create(ref, {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      }),
      'PersistentVolumeClaim',
    );
    const own: BinderOwnWrites = { volumes: new OwnWrites(), claims: new OwnWrites() };
    const annotations = { 'pv.kubernetes.io/bind-completed': 'yes' };
    const written = await applyWrites(
      h.client,
      {
        claim: { ...created, metadata: { ...created.metadata, annotations } },
        claimStatus: { phase: 'Bound' },
      },
      undefined,
      created,
      own,
    );
    assert.equal(written.claim?.status?.phase, 'Bound');
    // The informer still has the created claim: the newest known is the binder's own write.
    const newest = own.claims.newest('default/data', created);
    assert.equal(newest?.status?.phase, 'Bound');
    assert.equal(newest?.metadata?.resourceVersion, written.claim?.metadata?.resourceVersion);
    // Once the cache has the write (or anything newer), the cache wins and the entry goes.
    assert.equal(own.claims.newest('default/data', written.claim), written.claim);
    assert.equal(own.claims.size, 0);
  });
});
