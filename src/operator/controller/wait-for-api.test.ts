/**
 * An operator started before its CRDs exist (a standalone operator installed first, or
 * `fleetyard up` installing the CRDs while the controllers boot) waits for its API group and
 * then reconciles: the first fleet created afterwards gets the operator's finalizer.
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { installCrds } from '../../client/install-crds.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { realClock } from '../../util/clock.js';
import { celldCrds } from '../api/crds.js';
import { celldOperator } from './fleet-controller.js';
import { FLEET_FINALIZER, FLEETS, SERVICE_ACCOUNTS } from './resources.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h.close();
});

const fleet = {
  apiVersion: 'celld.fleetyard.dev/v1alpha1',
  kind: 'CelldFleet',
  metadata: { name: 'early', namespace: 'default' },
  spec: {
    profile: 'Bucket',
    runtimeImage: `ghcr.io/ewhauser/celld@sha256:${'ab'.repeat(32)}`,
    serviceAccountName: 'early',
    storage: { bucket: 'early-bucket', region: 'us-east-1' },
    placement: { zones: ['local-a'] },
  },
};

it('started before its CRDs exist, reconciles the first fleet once they are installed', async () => {
  h.run(celldOperator({ networkPolicyEnforced: true, localTest: true }));
  // Long enough for several 100 ms polls of the missing group.
  await new Promise((r) => setTimeout(r, 350));
  await installCrds(h.client, celldCrds() as KubeObject[], realClock);
  await h.client.create(
    { ...SERVICE_ACCOUNTS, namespace: 'default' },
    {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'early' },
    },
  );
  await h.client.create({ ...FLEETS, namespace: 'default' }, fleet);
  const finalizers = await eventually(async () => {
    const f = await h.get({ ...FLEETS, namespace: 'default', name: 'early' });
    const list = f?.metadata?.finalizers ?? [];
    return list.includes(FLEET_FINALIZER) && list;
  });
  assert.deepEqual(finalizers, [FLEET_FINALIZER]);
});
