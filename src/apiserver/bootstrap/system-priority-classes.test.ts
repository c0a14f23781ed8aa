/**
 * The system PriorityClasses bootstrap: both classes exist after start, with upstream's
 * values and descriptions; one removed behind the API's back is back within one interval;
 * nothing is rewritten while they exist.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '../../util/clock.js';
import { objectKey } from '../store/keys.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { RECONCILE_INTERVAL_MS } from './reconciler.js';
import { missingSystemClasses, SystemPriorityClassReconciler } from './system-priority-classes.js';

const CLASSES = '/apis/scheduling.k8s.io/v1/priorityclasses';

describe('missingSystemClasses', () => {
  const cases: Array<[string, string[], string[]]> = [
    ['none exist', [], ['system-node-critical', 'system-cluster-critical']],
    ['one exists', ['system-node-critical'], ['system-cluster-critical']],
    ['both exist', ['system-node-critical', 'system-cluster-critical'], []],
  ];
  for (const [name, existing, want] of cases) {
    it(name, () => {
      const got = missingSystemClasses((n) => existing.includes(n)).map((c) => c.name);
      assert.deepEqual(got, want);
    });
  }
});

describe('SystemPriorityClassReconciler', () => {
  let t: TestServer;
  let clock: FakeClock;
  let reconciler: SystemPriorityClassReconciler;
  const errors: unknown[] = [];
  before(async () => {
    t = await startTestServer();
    clock = new FakeClock();
    reconciler = new SystemPriorityClassReconciler({
      store: t.server.store,
      registry: t.server.registry,
      clock,
      onError: (_, e) => errors.push(e),
    });
    await reconciler.start();
  });
  after(async () => {
    reconciler.stop();
    await t.close();
  });

  it('creates both classes at start', async () => {
    const list = await t.request('GET', CLASSES);
    const items = list.body.items as Array<Record<string, unknown>>;
    const byName = new Map(items.map((i) => [(i.metadata as { name: string }).name, i]));
    assert.equal(byName.get('system-node-critical')?.value, 2000001000);
    assert.equal(byName.get('system-cluster-critical')?.value, 2000000000);
    assert.equal(byName.get('system-cluster-critical')?.preemptionPolicy, 'PreemptLowerPriority');
    assert.equal(
      byName.get('system-node-critical')?.description,
      'Used for system critical pods that must not be moved from their current node.',
    );
    assert.deepEqual(errors, []);
  });

  it('restores a class removed behind the API within one interval, rewriting nothing else', async () => {
    const def = t.server.registry.get('scheduling.k8s.io', 'v1', 'priorityclasses');
    assert.ok(def);
    const keep = await t.request('GET', `${CLASSES}/system-node-critical`);
    const gone = t.backend.getLatest(objectKey(def, '', 'system-cluster-critical'));
    assert.ok(gone);
    await t.backend.delete(objectKey(def, '', 'system-cluster-critical'), gone.modRevision);
    await clock.step(RECONCILE_INTERVAL_MS);
    for (let i = 0; i < 1000 && clock.pending() === 0; i++) {
      await new Promise<void>((r) => setImmediate(r));
    }
    const back = await t.request('GET', `${CLASSES}/system-cluster-critical`);
    assert.equal(back.status, 200, back.text);
    const again = await t.request('GET', `${CLASSES}/system-node-critical`);
    const rv = (o: Record<string, unknown>) =>
      (o.metadata as { resourceVersion: string }).resourceVersion;
    assert.equal(rv(again.body), rv(keep.body));
  });
});
