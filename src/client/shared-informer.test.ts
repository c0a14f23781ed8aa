import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/object.js';
import { FakeClock } from '../util/clock.js';
import { ExpiredError } from './lister-watcher.js';
import {
  DeletedFinalStateUnknown,
  type EventHandler,
  SharedInformer,
  stripManagedFields,
} from './shared-informer.js';
import { FakeListerWatcher } from './testing/fake-lister-watcher.js';

function pod(
  ns: string,
  name: string,
  rv: string,
  labels: Record<string, string> = {},
): KubeObject {
  return { kind: 'Pod', metadata: { namespace: ns, name, resourceVersion: rv, labels } };
}

/** A handler that writes what it saw as readable lines. */
function recorder(): { log: string[]; handler: EventHandler<KubeObject> } {
  const log: string[] = [];
  const id = (o: KubeObject) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`;
  return {
    log,
    handler: {
      onAdd: (o, initial) => log.push(`add ${id(o)}${initial ? ' (initial)' : ''}`),
      onUpdate: (a, b) => log.push(`update ${id(a)} -> ${id(b)}`),
      onDelete: (d) =>
        log.push(
          d instanceof DeletedFinalStateUnknown
            ? `tombstone ${d.key} ${id(d.obj)}`
            : `delete ${id(d)}`,
        ),
    },
  };
}

function setup(transform?: (obj: KubeObject) => KubeObject) {
  const clock = new FakeClock();
  const lw = new FakeListerWatcher();
  const informer = new SharedInformer({
    listerWatcher: lw,
    clock,
    random: () => 0,
    indexers: { byApp: (o) => (o.metadata?.labels?.app ? [o.metadata.labels.app] : []) },
    ...(transform !== undefined ? { transform } : {}),
  });
  const rec = recorder();
  informer.addEventHandler(rec.handler);
  const stop = new AbortController();
  const done = informer.run(stop.signal);
  const finish = async () => {
    stop.abort();
    await clock.step(0);
    await done;
  };
  return { clock, lw, informer, log: rec.log, finish, settle: () => clock.step(0) };
}

describe('SharedInformer', () => {
  it('syncs from the initial list and calls onAdd as initial', async () => {
    const s = setup();
    assert.equal(s.informer.hasSynced(), false);
    const synced = s.informer.waitForSync();
    s.lw.answerList({
      items: [pod('default', 'a', '1'), pod('kube-system', 'b', '2')],
      resourceVersion: '5',
    });
    assert.equal(await synced, true);
    assert.deepEqual(s.log, ['add a@1 (initial)', 'add b@2 (initial)']);
    assert.equal(s.informer.lister.get('kube-system', 'b')?.metadata?.resourceVersion, '2');
    assert.equal(s.informer.lastSyncResourceVersion(), '5');
    await s.finish();
  });

  it('applies watch events in order, suppressing updates that change no resourceVersion', async () => {
    const s = setup();
    s.lw.answerList({ items: [], resourceVersion: '5' });
    await s.settle();
    const w = s.lw.current!;
    w.emit('ADDED', pod('default', 'a', '6'));
    w.emit('MODIFIED', pod('default', 'a', '7'));
    w.emit('MODIFIED', pod('default', 'a', '7'));
    w.emit('ADDED', pod('default', 'b', '8'));
    w.emit('DELETED', pod('default', 'a', '9'));
    assert.deepEqual(s.log, ['add a@6', 'update a@6 -> a@7', 'add b@8', 'delete a@9']);
    assert.equal(s.informer.lister.get('default', 'a'), undefined);
    assert.deepEqual(
      s.informer.lister.list().map((o) => o.metadata?.name),
      ['b'],
    );
    await s.finish();
  });

  it('relists after a 410 and reports the difference, missed deletes as tombstones', async () => {
    const s = setup();
    s.lw.answerList({
      items: [pod('default', 'a', '1'), pod('default', 'b', '2'), pod('default', 'c', '3')],
      resourceVersion: '3',
    });
    await s.settle();
    s.lw.current!.fail(new ExpiredError());
    s.log.length = 0;
    s.lw.answerList({
      items: [pod('default', 'a', '1'), pod('default', 'b', '20'), pod('default', 'd', '21')],
      resourceVersion: '22',
    });
    await s.clock.step(0);
    await s.clock.step(800);
    assert.deepEqual(s.log, ['update b@2 -> b@20', 'add d@21', 'tombstone default/c c@3']);
    assert.deepEqual(
      s.informer.lister
        .list()
        .map((o) => o.metadata?.name)
        .sort(),
      ['a', 'b', 'd'],
    );
    assert.equal(s.lw.current?.options.resourceVersion, '22');
    await s.finish();
  });

  it('replays the cache to a handler added late', async () => {
    const s = setup();
    s.lw.answerList({ items: [pod('default', 'a', '1')], resourceVersion: '1' });
    await s.settle();
    const late = recorder();
    const reg = s.informer.addEventHandler(late.handler);
    assert.equal(reg.hasSynced(), true);
    s.lw.current!.emit('ADDED', pod('default', 'b', '2'));
    reg.remove();
    s.lw.current!.emit('ADDED', pod('default', 'c', '3'));
    assert.deepEqual(late.log, ['add a@1 (initial)', 'add b@2']);
    await s.finish();
  });

  it('keeps going when a handler throws', async () => {
    const s = setup();
    s.informer.addEventHandler({
      onAdd: () => {
        throw new Error('boom');
      },
    });
    s.lw.answerList({ items: [], resourceVersion: '1' });
    await s.settle();
    s.lw.current!.emit('ADDED', pod('default', 'a', '2'));
    s.lw.current!.emit('ADDED', pod('default', 'b', '3'));
    assert.deepEqual(s.log, ['add a@2', 'add b@3']);
    assert.equal(s.lw.current!.closed, false);
    await s.finish();
  });

  it('lists by label selector, namespace and custom index', async () => {
    const s = setup();
    s.lw.answerList({
      items: [
        pod('default', 'a', '1', { app: 'web' }),
        pod('default', 'b', '2', { app: 'db' }),
        pod('other', 'c', '3', { app: 'web' }),
      ],
      resourceVersion: '3',
    });
    await s.settle();
    const names = (os: KubeObject[]) => os.map((o) => o.metadata?.name).sort();
    const l = s.informer.lister;
    assert.deepEqual(names(l.list('app=web')), ['a', 'c']);
    assert.deepEqual(names(l.list()), ['a', 'b', 'c']);
    assert.deepEqual(names(l.listInNamespace('default', 'app!=web')), ['b']);
    assert.deepEqual(names(l.byIndex('byApp', 'web')), ['a', 'c']);
    assert.deepEqual(names(l.byIndex('namespace', 'other')), ['c']);
    s.lw.current!.emit('MODIFIED', pod('other', 'c', '4', { app: 'db' }));
    assert.deepEqual(names(l.byIndex('byApp', 'web')), ['a']);
    assert.throws(() => l.byIndex('nope', 'x'), /index with name nope does not exist/);
    await s.finish();
  });

  it('hands out frozen objects', async () => {
    const s = setup();
    s.lw.answerList({ items: [pod('default', 'a', '1', { app: 'web' })], resourceVersion: '1' });
    await s.settle();
    const a = s.informer.lister.get('default', 'a')!;
    assert.throws(() => {
      (a.metadata!.labels as Record<string, string>).app = 'x';
    }, TypeError);
    await s.finish();
  });

  it('waitForSync resolves false when aborted first', async () => {
    const s = setup();
    const abort = new AbortController();
    const waiting = s.informer.waitForSync(abort.signal);
    abort.abort();
    assert.equal(await waiting, false);
    await s.finish();
  });
});

describe('SharedInformer transform', () => {
  it('caches listed and watched objects without managedFields (stripManagedFields)', async () => {
    const s = setup(stripManagedFields);
    const seen: KubeObject[] = [];
    s.informer.addEventHandler({ onAdd: (o) => seen.push(o), onUpdate: (_a, b) => seen.push(b) });
    const managed = (name: string, rv: string): KubeObject => ({
      kind: 'Pod',
      metadata: {
        namespace: 'default',
        name,
        resourceVersion: rv,
        managedFields: [{ manager: 'kubelet', operation: 'Update', fieldsType: 'FieldsV1' }],
      },
    });
    s.lw.answerList({ items: [managed('a', '1')], resourceVersion: '1' });
    await s.settle();
    s.lw.current!.emit('MODIFIED', managed('a', '2'));
    s.lw.current!.emit('ADDED', managed('b', '3'));
    assert.equal(seen.length, 3);
    for (const o of [...seen, ...s.informer.lister.list()]) {
      assert.equal(o.metadata?.managedFields, undefined, `${o.metadata?.name} kept managedFields`);
      assert.ok(Object.isFrozen(o));
    }
    await s.finish();
  });
});
