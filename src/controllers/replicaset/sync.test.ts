/**
 * `syncReplicaSet` against a real API server but a STALE cache (snapshot listers), so the role
 * of expectations is deterministic: no second round of creates until the first is observed or
 * the expectations expire (5 min).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { parseLabelSelector } from '../../api/labels/selector.js';
import { asKind } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import type { Lister } from '../../client/shared-informer.js';
import { RESOURCES } from '../../controller/context.js';
import { discardEvents } from '../../controller/events.js';
import { EXPECTATIONS_TIMEOUT_MS, UIDTrackingExpectations } from '../../controller/expectations.js';
import { OwnWrites } from '../../controller/own-writes.js';
import { CountingClient } from '../../controller/testing/counting-client.js';
import { type Harness, startHarness } from '../../controller/testing/harness.js';
import { FakeClock, realClock } from '../../util/clock.js';
import { apiPodControl } from './pod-control.js';
import { type SyncDeps, syncReplicaSet } from './sync.js';
import { createNamespace, createReplicaSet } from './testing/fixtures.js';

/** A lister over a fixed list of objects (a cache that never catches up). */
function snapshotLister<T extends KubeObject>(items: readonly T[]): Lister<T> {
  const inNs = (ns: string) => items.filter((o) => (o.metadata?.namespace ?? '') === ns);
  return {
    get: (ns, name) => inNs(ns).find((o) => o.metadata?.name === name),
    list: (sel) =>
      items.filter((o) =>
        sel === undefined ? true : parseLabelSelector(String(sel)).matches(o.metadata?.labels),
      ),
    listInNamespace: (ns) => inNs(ns),
    byIndex: () => [],
  };
}

let h: Harness;

before(async () => {
  h = await startHarness();
  await createNamespace(h, 'exp');
});

after(async () => {
  await h.close();
});

it('does not create again while creations are unobserved, until they expire', async () => {
  const rs = await createReplicaSet(h, 'exp', 'e', { replicas: 3 });
  const clock = new FakeClock(Date.now());
  const expectations = new UIDTrackingExpectations({ clock });
  const deps: SyncDeps = {
    client: h.client,
    replicaSets: snapshotLister([rs]),
    ownReplicaSets: new OwnWrites(),
    pods: snapshotLister([]),
    podControl: apiPodControl(h.client, discardEvents),
    expectations,
    clock: realClock,
    warn: () => {},
  };
  const pods = async () => h.list({ ...RESOURCES.pods, namespace: 'exp' });

  await syncReplicaSet(deps, 'exp/e');
  assert.equal((await pods()).length, 3);
  assert.equal(expectations.get('exp/e')?.add, 3);

  // The cache still shows no pods: without expectations this would create 3 more.
  await syncReplicaSet(
    {
      ...deps,
      replicaSets: snapshotLister([asKind(await h.client.get(rsRefOf(rs)), 'ReplicaSet')]),
    },
    'exp/e',
  );
  assert.equal((await pods()).length, 3);

  // Upstream's ExpectationsTimeout: after 5 min the stale cache is trusted again.
  await clock.step(EXPECTATIONS_TIMEOUT_MS + 1);
  await syncReplicaSet(
    {
      ...deps,
      replicaSets: snapshotLister([asKind(await h.client.get(rsRefOf(rs)), 'ReplicaSet')]),
    },
    'exp/e',
  );
  assert.equal((await pods()).length, 6);
});

it('a deleted ReplicaSet forgets its expectations', async () => {
  const clock = new FakeClock(0);
  const expectations = new UIDTrackingExpectations({ clock });
  expectations.expectCreations('exp/gone', 2);
  const deps: SyncDeps = {
    client: h.client,
    replicaSets: snapshotLister([]),
    ownReplicaSets: new OwnWrites(),
    pods: snapshotLister([]),
    podControl: apiPodControl(h.client, discardEvents),
    expectations,
    clock: realClock,
    warn: () => {},
  };
  assert.deepEqual(await syncReplicaSet(deps, 'exp/gone'), {});
  assert.equal(expectations.get('exp/gone'), undefined);
});

function rsRefOf(rs: KubeObject) {
  return {
    ...RESOURCES.replicasets,
    namespace: rs.metadata?.namespace ?? '',
    name: rs.metadata?.name ?? '',
  };
}

it('does not write the same status again from a cache behind its own write', async () => {
  const rs = await createReplicaSet(h, 'exp', 'stale', { replicas: 2 });
  const client = new CountingClient({ server: h.api.url });
  const deps: SyncDeps = {
    client,
    // The cache never sees the status write (an informer behind its controller's writes).
    replicaSets: snapshotLister([rs]),
    ownReplicaSets: new OwnWrites(),
    pods: snapshotLister([]),
    podControl: apiPodControl(h.client, discardEvents),
    expectations: new UIDTrackingExpectations({ clock: new FakeClock(Date.now()) }),
    clock: realClock,
    warn: () => {},
  };
  // The first sync creates the pods and writes observedGeneration; nothing changes after it.
  await syncReplicaSet(deps, 'exp/stale');
  const writes = client.statusWrites;
  assert.equal(writes, 1);
  await syncReplicaSet(deps, 'exp/stale');
  assert.equal(client.statusWrites, writes, 'the second sync wrote the status again');
  client.close();
});
