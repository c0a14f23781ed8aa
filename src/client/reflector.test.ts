import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/object.js';
import { FakeClock } from '../util/clock.js';
import { ExpiredError, StatusCodeError, type WatchEvent } from './lister-watcher.js';
import { Reflector, type ReflectorSink } from './reflector.js';
import { FakeListerWatcher } from './testing/fake-lister-watcher.js';

function pod(name: string, rv: string): KubeObject {
  return { kind: 'Pod', metadata: { namespace: 'default', name, resourceVersion: rv } };
}

function bookmark(rv: string): KubeObject {
  return { kind: 'Pod', metadata: { resourceVersion: rv } };
}

/** Records what the reflector told the sink, as plain strings. */
class RecordingSink implements ReflectorSink<KubeObject> {
  readonly log: string[] = [];
  replace(items: readonly KubeObject[], rv: string): void {
    this.log.push(`replace@${rv}:${items.map((i) => i.metadata?.name).join(',')}`);
  }
  apply(event: WatchEvent): void {
    this.log.push(
      `${event.type} ${event.object.metadata?.name}@${event.object.metadata?.resourceVersion}`,
    );
  }
}

function setup(pageSize = 500) {
  const clock = new FakeClock();
  const lw = new FakeListerWatcher({ now: () => clock.now() });
  const sink = new RecordingSink();
  const reflector = new Reflector({
    listerWatcher: lw,
    sink,
    clock,
    pageSize,
    random: () => 0,
  });
  const stop = new AbortController();
  const done = reflector.run(stop.signal);
  const settle = () => clock.step(0);
  // Let pending work register its timers first: a step only fires timers that exist.
  const advance = async (ms: number) => {
    await clock.step(0);
    await clock.step(ms);
  };
  const finish = async () => {
    stop.abort();
    await clock.step(0);
    await done;
  };
  return { clock, lw, sink, reflector, settle, advance, finish };
}

describe('Reflector', () => {
  it('lists page by page, then watches from the list resourceVersion', async () => {
    const r = setup(2);
    r.lw.answerList({
      items: [pod('a', '3'), pod('b', '4')],
      resourceVersion: '9',
      continue: 't1',
    });
    r.lw.answerList({ items: [pod('c', '5')], resourceVersion: '9' });
    await r.settle();
    assert.deepEqual(r.lw.listCalls, [
      { resourceVersion: '0', limit: 2 },
      { continue: 't1', limit: 2 },
    ]);
    assert.deepEqual(r.sink.log, ['replace@9:a,b,c']);
    assert.deepEqual(r.lw.current?.options, {
      resourceVersion: '9',
      allowWatchBookmarks: true,
      timeoutSeconds: 300,
    });
    assert.equal(r.reflector.lastSyncResourceVersion(), '9');
    await r.finish();
  });

  it('applies events in order and resumes from the last event or bookmark without relisting', async () => {
    const r = setup();
    r.lw.answerList({ items: [], resourceVersion: '10' });
    await r.settle();
    const w = r.lw.current!;
    w.emit('ADDED', pod('a', '11'));
    w.emit('MODIFIED', pod('a', '12'));
    w.emit('DELETED', pod('a', '13'));
    w.emit('BOOKMARK', bookmark('20'));
    w.end();
    await r.settle();
    assert.deepEqual(r.sink.log, ['replace@10:', 'ADDED a@11', 'MODIFIED a@12', 'DELETED a@13']);
    assert.equal(r.lw.watches.length, 2);
    assert.equal(r.lw.current?.options.resourceVersion, '20');
    assert.equal(r.lw.listCalls.length, 1, 'no relist after a normal end');
    await r.finish();
  });

  it('relists after a backoff on 410, asking for data at least as new as the last RV', async () => {
    const r = setup();
    r.lw.answerList({ items: [pod('a', '5')], resourceVersion: '10' });
    await r.settle();
    r.lw.current!.emit('BOOKMARK', bookmark('15'));
    r.lw.current!.fail(new ExpiredError({ code: 410, reason: 'Expired' }));
    await r.settle();
    await r.advance(799);
    assert.equal(r.lw.listCalls.length, 1, 'no relist before the 800 ms backoff');
    await r.advance(1);
    assert.equal(r.lw.listCalls.length, 2);
    assert.equal(r.lw.listCalls[1]?.resourceVersion, '15');
    r.lw.answerList({ items: [pod('b', '30')], resourceVersion: '31' });
    await r.settle();
    assert.deepEqual(r.sink.log, ['replace@10:a', 'replace@31:b']);
    assert.equal(r.lw.current?.options.resourceVersion, '31');
    await r.finish();
  });

  it('lists again with resourceVersion "" when the list itself is 410', async () => {
    const r = setup();
    r.lw.answerList(new ExpiredError());
    r.lw.answerList({ items: [], resourceVersion: '40' });
    await r.settle();
    assert.deepEqual(
      r.lw.listCalls.map((c) => c.resourceVersion),
      ['0', ''],
    );
    assert.equal(r.lw.current?.options.resourceVersion, '40');
    await r.finish();
  });

  it('falls back to one unpaginated list when a continue token expired', async () => {
    const r = setup(1);
    r.lw.answerList({ items: [pod('a', '1')], resourceVersion: '5', continue: 'x' });
    r.lw.answerList(new ExpiredError());
    r.lw.answerList({ items: [pod('a', '1'), pod('b', '6')], resourceVersion: '6' });
    await r.settle();
    assert.deepEqual(r.lw.listCalls.at(-1), { resourceVersion: '0' });
    assert.deepEqual(r.sink.log, ['replace@6:a,b']);
    await r.finish();
  });

  it('backs off 800 ms doubling to 30 s while every watch expires at once, never spinning', async () => {
    const r = setup();
    // A server whose list RV is always too old: the tight loop client-node falls into
    // (docs/design/wire-protocol.md §4.4).
    r.lw.setDefaultList({ items: [], resourceVersion: '1' });
    r.lw.onWatch = (w) => w.fail(new ExpiredError());
    await r.advance(10 * 60_000);
    const gaps = r.lw.listTimes.slice(1).map((t, i) => t - r.lw.listTimes[i]!);
    assert.deepEqual(gaps.slice(0, 8), [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000]);
    assert.ok(
      gaps.every((g) => g >= 800 && g <= 30_000),
      `gaps: ${gaps}`,
    );
    // 110.4 s for the first 8 gaps, then one list per 30 s: 9 + floor(489.6 / 30) = 25.
    assert.equal(r.lw.listCalls.length, 25);
    await r.finish();
  });

  it('backs off the same way while the list itself fails', async () => {
    const r = setup();
    for (let i = 0; i < 9; i++) r.lw.answerList(new StatusCodeError(500));
    await r.advance(200_000);
    const gaps = r.lw.listTimes.slice(1).map((t, i) => t - r.lw.listTimes[i]!);
    assert.deepEqual(gaps, [800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000]);
    await r.finish();
  });

  it('starts the backoff over after a successful period longer than 2 minutes', async () => {
    const r = setup();
    r.lw.answerList(new StatusCodeError(500));
    r.lw.answerList(new StatusCodeError(500));
    await r.advance(800 + 1600);
    assert.equal(r.lw.listCalls.length, 3);
    r.lw.answerList({ items: [], resourceVersion: '1' });
    await r.settle();
    r.lw.current!.emit('BOOKMARK', bookmark('2'));
    await r.advance(180_000);
    r.lw.current!.fail(new ExpiredError());
    await r.settle();
    await r.advance(799);
    assert.equal(r.lw.listCalls.length, 3);
    await r.advance(1);
    assert.equal(r.lw.listCalls.length, 4, 'back to the 800 ms first step');
    await r.finish();
  });

  it('treats a stream that ends at once without events as a failure, not a reason to spin', async () => {
    const r = setup();
    r.lw.answerList({ items: [], resourceVersion: '1' });
    await r.settle();
    r.lw.current!.end();
    await r.settle();
    assert.equal(r.lw.watches.length, 1, 'no immediate rewatch');
    await r.advance(800);
    assert.equal(r.lw.watches.length, 1);
    assert.equal(r.lw.listCalls.length, 2, 'relisted after the backoff');
    await r.finish();
  });

  it('rewatches without relisting after a 429 at watch start', async () => {
    const r = setup();
    r.lw.answerList({ items: [], resourceVersion: '7' });
    await r.settle();
    r.lw.current!.fail(new StatusCodeError(429));
    await r.settle();
    await r.advance(800);
    assert.equal(r.lw.watches.length, 2);
    assert.equal(r.lw.current?.options.resourceVersion, '7');
    assert.equal(r.lw.listCalls.length, 1);
    await r.finish();
  });

  it('relists when an event has no resourceVersion', async () => {
    const r = setup();
    r.lw.answerList({ items: [], resourceVersion: '7' });
    await r.settle();
    r.lw.current!.emit('ADDED', { metadata: { name: 'x' } });
    assert.equal(r.lw.current!.closed, true);
    await r.settle();
    await r.advance(800);
    assert.equal(r.lw.listCalls.length, 2);
    await r.finish();
  });

  it('stops when aborted, also during a backoff', async () => {
    const r = setup();
    r.lw.answerList(new StatusCodeError(500));
    await r.settle();
    await r.finish();
    await r.advance(60_000);
    assert.equal(r.lw.listCalls.length, 1);
  });
});
