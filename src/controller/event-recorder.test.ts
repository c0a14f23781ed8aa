import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { asKind, type Event } from '../api/model/index.js';
import type { KubeObject } from '../api/object.js';
import { startTestServer, type TestServer } from '../apiserver/testing/test-server.js';
import { ApiClient } from '../client/api-client.js';
import { StatusCodeError } from '../client/lister-watcher.js';
import { FakeClock } from '../util/clock.js';
import { type CoreEvent, EventCorrelator } from './event-correlator.js';
import { createEventRecorderFactory, type EventSink } from './event-recorder.js';

const log = pino({ level: 'silent' });
let api: TestServer;
let client: ApiClient;

before(async () => {
  api = await startTestServer();
  client = new ApiClient({ server: api.url });
  await client.create(
    { group: '', version: 'v1', plural: 'namespaces' },
    { metadata: { name: 'ns' } },
  );
});
after(async () => {
  client.close();
  await api.close();
});

function pod(name: string, uid = `uid-${name}`): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'ns', uid, resourceVersion: '7' },
  };
}

async function eventsOf(name: string, namespace = 'ns', uid = `uid-${name}`): Promise<Event[]> {
  const fieldSelector = `involvedObject.name=${name},involvedObject.namespace=${namespace === 'default' ? '' : namespace},involvedObject.uid=${uid}`;
  const list = await client.list(
    { group: '', version: 'v1', plural: 'events', namespace },
    { fieldSelector },
  );
  return list.items.map((e) => asKind(e, 'Event'));
}

describe('createEventRecorderFactory against an API server', () => {
  test('writes a v1 Event that a describe-style field selector finds', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 10, 0, 0));
    const events = createEventRecorderFactory({ client, clock, log, host: 'node-a' });
    events('replicaset-controller').event(
      pod('web-1'),
      'Normal',
      'SuccessfulCreate',
      'Created pod: web-1',
    );
    await events.flush();
    const [e, ...rest] = await eventsOf('web-1');
    assert.equal(rest.length, 0);
    assert.ok(e);
    assert.match(e.metadata.name ?? '', /^web-1\.[0-9a-f]{16}$/);
    assert.deepEqual(e.involvedObject, {
      kind: 'Pod',
      apiVersion: 'v1',
      name: 'web-1',
      namespace: 'ns',
      uid: 'uid-web-1',
      resourceVersion: '7',
    });
    assert.deepEqual(e.source, { component: 'replicaset-controller', host: 'node-a' });
    assert.equal(e.reportingComponent, 'replicaset-controller');
    assert.equal(e.reportingInstance, 'node-a');
    assert.deepEqual(
      [e.type, e.reason, e.message, e.count, e.firstTimestamp, e.lastTimestamp],
      [
        'Normal',
        'SuccessfulCreate',
        'Created pod: web-1',
        1,
        '2026-01-01T10:00:00Z',
        '2026-01-01T10:00:00Z',
      ],
    );
    await events.close();
  });

  test('two recorders naming Events for one pod in one millisecond both land', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 10, 0, 0));
    // Two processes' recorders, as the kubelet's and the taint-eviction controller's.
    let seed = 0.1;
    const random = () => {
      seed = (seed * 9301 + 0.49297) % 1;
      return seed;
    };
    const a = createEventRecorderFactory({ client, clock, log, random });
    const b = createEventRecorderFactory({ client, clock, log, random });
    a('kubelet').event(pod('twice'), 'Warning', 'NodePorts', 'from the kubelet');
    b('taint-eviction-controller').event(pod('twice'), 'Normal', 'TaintManagerEviction', 'x');
    await Promise.all([a.flush(), b.flush()]);
    const names = (await eventsOf('twice')).map((e) => e.metadata.name);
    assert.equal(new Set(names).size, 2, `${names}`);
    await Promise.all([a.close(), b.close()]);
  });

  test("a recorder with hostOf names the object's host (a kubelet's node)", async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 10, 0, 0));
    const events = createEventRecorderFactory({ client, clock, log, host: 'machine' });
    const onNode = { ...pod('hosted'), spec: { nodeName: 'node-7' } } as KubeObject;
    events('kubelet', (o) => (o.spec as { nodeName?: string }).nodeName).event(
      onNode,
      'Normal',
      'Started',
      'Started container app',
    );
    await events.flush();
    const [e] = await eventsOf('hosted');
    assert.deepEqual(e?.source, { component: 'kubelet', host: 'node-7' });
    assert.equal(e?.reportingInstance, 'node-7');
    await events.close();
  });

  test('identical events PATCH count and lastTimestamp of one Event', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1, 10, 0, 0));
    const events = createEventRecorderFactory({ client, clock, log });
    const rec = events('kubelet');
    for (let i = 0; i < 3; i++) {
      rec.event(pod('web-2'), 'Warning', 'BackOff', 'Back-off restarting failed container');
      await events.flush();
      await clock.step(61_000);
    }
    // Well past 10 minutes: still the same Event (upstream's cache is an LRU, not a window).
    await clock.step(3_600_000);
    rec.event(pod('web-2'), 'Warning', 'BackOff', 'Back-off restarting failed container');
    await events.flush();
    const list = await eventsOf('web-2');
    assert.equal(list.length, 1);
    const [e] = list;
    assert.equal(e?.count, 4);
    assert.equal(e?.firstTimestamp, '2026-01-01T10:00:00Z');
    assert.equal(e?.lastTimestamp, '2026-01-01T11:03:03Z');
    await events.close();
  });

  test('a deleted Event is created again on the next repeat', async () => {
    const clock = new FakeClock();
    const events = createEventRecorderFactory({ client, clock, log });
    const rec = events('kubelet');
    rec.event(pod('web-3'), 'Normal', 'Pulled', 'pulled');
    await events.flush();
    const [first] = await eventsOf('web-3');
    await client.delete({
      group: '',
      version: 'v1',
      plural: 'events',
      namespace: 'ns',
      name: first?.metadata.name ?? '',
    });
    rec.event(pod('web-3'), 'Normal', 'Pulled', 'pulled');
    await events.flush();
    const list = await eventsOf('web-3');
    assert.deepEqual(
      list.map((e) => e.count),
      [2],
    );
    await events.close();
  });

  test('cluster-scoped objects get their Events in default', async () => {
    const clock = new FakeClock();
    const events = createEventRecorderFactory({ client, clock, log });
    const node: KubeObject = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1', uid: 'uid-n1' },
    };
    events('node-controller').event(node, 'Normal', 'RegisteredNode', 'Node n1 event: Registered');
    await events.flush();
    const list = await eventsOf('n1', 'default');
    assert.equal(list.length, 1);
    assert.equal(list[0]?.involvedObject.namespace, undefined);
    await events.close();
  });

  test('the 10th distinct message of one reason becomes a combined event', async () => {
    const clock = new FakeClock();
    const events = createEventRecorderFactory({ client, clock, log });
    const rec = events('scheduler');
    for (let i = 1; i <= 12; i++) {
      rec.event(pod('web-4'), 'Warning', 'FailedScheduling', `0/${i} nodes are available`);
      await clock.step(1000);
    }
    await events.flush();
    const list = await eventsOf('web-4');
    const combined = list.filter((e) => e.message?.startsWith('(combined from similar events): '));
    assert.equal(list.length, 10);
    assert.equal(combined.length, 1);
    assert.equal(combined[0]?.message, '(combined from similar events): 0/12 nodes are available');
    assert.equal(combined[0]?.count, 3);
    await events.close();
  });

  test('overflowing the queue drops events', async () => {
    const clock = new FakeClock();
    const events = createEventRecorderFactory({ client, clock, log, queueSize: 2 });
    const rec = events('c');
    for (let i = 0; i < 5; i++) rec.event(pod(`web-5-${i}`), 'Normal', `R${i}`, 'm');
    await events.flush();
    const written = await Promise.all([0, 1, 2, 3, 4].map((i) => eventsOf(`web-5-${i}`)));
    assert.deepEqual(
      written.map((l) => l.length),
      [1, 1, 0, 0, 0],
    );
    await events.close();
  });

  test('close gives queued events 1 s, then drops them and aborts the write in flight', async () => {
    const clock = new FakeClock();
    let started = 0;
    let aborted = 0;
    // A server that never answers.
    const hung: EventSink = {
      create: (_ref, _obj, opts) =>
        new Promise((_resolve, reject) => {
          started++;
          opts?.signal?.addEventListener('abort', () => {
            aborted++;
            reject(opts.signal?.reason);
          });
        }),
      patch: () => Promise.reject(new Error('unused')),
    };
    const events = createEventRecorderFactory({ client: hung, clock, log });
    const rec = events('c');
    for (let i = 0; i < 3; i++) rec.event(pod(`hung-${i}`), 'Normal', `R${i}`, 'm');
    await new Promise((r) => setImmediate(r));
    let closed = false;
    const closing = events.close().then(() => {
      closed = true;
    });
    await new Promise((r) => setImmediate(r));
    assert.equal(closed, false, 'close waits for the queued events first');
    await clock.step(1000);
    await closing;
    assert.deepEqual({ started, aborted }, { started: 1, aborted: 1 });
  });

  test('a write without an answer is retried; a Status error is not', async () => {
    const clock = new FakeClock();
    let failures = 2;
    const flaky: EventSink = {
      create: (ref, obj, opts) => {
        if (obj.reason === 'Rejected') {
          return Promise.reject(new StatusCodeError(422, undefined, 'invalid'));
        }
        if (failures-- > 0) return Promise.reject(new Error('connect ECONNREFUSED'));
        return client.create(ref, obj, opts);
      },
      patch: (ref, body, type, opts) => client.patch(ref, body, type, opts),
    };
    const events = createEventRecorderFactory({
      client: flaky,
      clock,
      log,
      retryDelayMs: 1000,
      random: () => 0.5,
    });
    events('c').event(pod('web-6'), 'Normal', 'Rejected', 'm');
    events('c').event(pod('web-7'), 'Normal', 'Started', 'm');
    // The retries wait on the fake clock: nothing is written until it moves.
    await new Promise((r) => setTimeout(r, 50));
    assert.equal((await eventsOf('web-7')).length, 0);
    for (let i = 0; i < 10 && failures >= 0; i++) await clock.step(500);
    await events.flush();
    assert.equal((await eventsOf('web-7')).length, 1);
    assert.equal((await eventsOf('web-6')).length, 0);
    await events.close();
  });

  test('after close, events are ignored and flush resolves', async () => {
    const events = createEventRecorderFactory({ client, clock: new FakeClock(), log });
    await events.close();
    events('c').event(pod('web-8'), 'Normal', 'Late', 'm');
    await events.flush();
    assert.equal((await eventsOf('web-8')).length, 0);
  });
});

function coreEvent(reason: string, message: string, name = 'p'): CoreEvent {
  return {
    metadata: { name: `${name}.${reason}.${message}`, namespace: 'ns' },
    involvedObject: { kind: 'Pod', name, namespace: 'ns', uid: 'u' },
    reason,
    message,
    type: 'Normal',
    source: { component: 'c' },
    reportingComponent: 'c',
    reportingInstance: '',
    firstTimestamp: 't0',
    lastTimestamp: 't0',
    count: 1,
  };
}

describe('EventCorrelator', () => {
  test('spam filter: a burst of 25 per source and object, then 1 per 5 minutes', async () => {
    const clock = new FakeClock();
    const c = new EventCorrelator(clock);
    const passed = (reason: string, name = 'p') =>
      !c.correlate(coreEvent(reason, 'm', name)).dropped;
    const first = Array.from({ length: 30 }, (_, i) => passed(`R${i}`));
    assert.equal(first.filter(Boolean).length, 25);
    assert.deepEqual(first.slice(25), [false, false, false, false, false]);
    // Another object has its own bucket.
    assert.equal(passed('R0', 'q'), true);
    await clock.step(299_000);
    assert.equal(passed('late-1'), false);
    await clock.step(1_000);
    assert.equal(passed('late-2'), true);
    assert.equal(passed('late-3'), false);
  });

  test('similar-event records older than 10 minutes start over', async () => {
    const clock = new FakeClock();
    const c = new EventCorrelator(clock);
    const messageOf = (i: number) => {
      const r = c.correlate(coreEvent('R', `m${i}`));
      return r.dropped ? undefined : r.event.message;
    };
    for (let i = 1; i <= 9; i++) assert.equal(messageOf(i), `m${i}`);
    await clock.step(600_001);
    assert.equal(messageOf(10), 'm10');
    assert.equal(messageOf(11), 'm11');
  });

  test('a repeat carries the first name and an incremented count in its patch', () => {
    const c = new EventCorrelator(new FakeClock());
    const first = c.correlate(coreEvent('R', 'm'));
    assert.ok(!first.dropped);
    c.updateState({ ...first.event, metadata: { ...first.event.metadata, resourceVersion: '5' } });
    const again = { ...coreEvent('R', 'm'), lastTimestamp: 't1' };
    again.metadata.name = 'other-name';
    const second = c.correlate(again);
    assert.ok(!second.dropped);
    assert.equal(second.event.metadata.name, first.event.metadata.name);
    assert.equal(second.event.metadata.resourceVersion, '5');
    assert.deepEqual(second.patch, { count: 2, lastTimestamp: 't1', message: 'm' });
  });
});
