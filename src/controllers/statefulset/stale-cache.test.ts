/**
 * No write that changes nothing, against a stale cache: a sync woken by a pod event before the
 * informer echoed the controller's own status write plans from its written version (OwnWrites)
 * and writes nothing, where it used to PUT the same status again (a 409, a GET and a second
 * PUT: two to five status writes per member of an OrderedReady set).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { asKind, type StatefulSet } from '../../api/model/index.js';
import type { Lister } from '../../client/shared-informer.js';
import { RESOURCES } from '../../controller/context.js';
import { kindInformer } from '../../controller/kind-informer.js';
import { OwnWrites } from '../../controller/own-writes.js';
import { CountingClient } from '../../controller/testing/counting-client.js';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { realClock } from '../../util/clock.js';
import { type SyncDeps, syncStatefulSet } from './sync.js';
import { createSet, setPods, setRef } from './testing/fixtures.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h.close();
});

/** A lister of one object that never sees a later version (an informer behind its writes). */
function frozenLister(set: StatefulSet): Lister<StatefulSet> {
  const name = set.metadata?.name ?? '';
  const namespace = set.metadata?.namespace ?? '';
  const one = (ns: string, n: string) => (ns === namespace && n === name ? [set] : []);
  return {
    get: (ns, n) => one(ns, n)[0],
    list: () => [set],
    listInNamespace: (ns) => (ns === namespace ? [set] : []),
    byIndex: () => [],
  };
}

describe('statefulset sync against a cache behind its own writes', () => {
  it('writes a status once, not again on the next sync from the same stale cache', async () => {
    const created = asKind(await createSet(h, 'stale', 'web', { replicas: 1 }), 'StatefulSet');
    const { informers } = h.ctx;
    const pods = kindInformer(informers.informer(RESOURCES.pods), 'Pod');
    const claims = kindInformer(
      informers.informer(RESOURCES.persistentvolumeclaims),
      'PersistentVolumeClaim',
    );
    const revisions = kindInformer(
      informers.informer(RESOURCES.controllerrevisions),
      'ControllerRevision',
    );
    await h.ctx.informers.waitForSync(
      [pods.informer, claims.informer, revisions.informer],
      h.ctx.signal,
    );
    const client = new CountingClient({ server: h.api.url });
    const deps: SyncDeps = {
      client,
      sets: frozenLister(created),
      pods: pods.lister,
      claims: claims.lister,
      revisions: revisions.lister,
      ownSets: new OwnWrites(),
      recorder: h.ctx.eventRecorder('statefulset-controller'),
      clock: realClock,
      gates: { maxUnavailableStatefulSet: false, statefulSetRecreateStrategy: false },
      warn: () => undefined,
    };
    const key = 'stale/web';
    // The first sync creates pod 0 (status.replicas 0: its cache had no pod yet); once the
    // informers have the pod, the second writes status.replicas = 1.
    await syncStatefulSet(deps, key);
    await eventually(async () => (await setPods(h, 'stale', 'web')).length === 1);
    await eventually(() => pods.lister.listInNamespace('stale').length === 1);
    await eventually(() => revisions.lister.listInNamespace('stale').length === 1);
    await syncStatefulSet(deps, key);
    const afterFirst = await h.client.get(setRef('stale', 'web'));
    assert.equal(asKind(afterFirst, 'StatefulSet').status?.replicas, 1);

    // Nothing changed since: the third sync, still from the created version, writes nothing.
    const writes = client.statusWrites;
    await syncStatefulSet(deps, key);
    assert.equal(client.statusWrites, writes, 'the third sync wrote the status again');
    client.close();
  });
});
