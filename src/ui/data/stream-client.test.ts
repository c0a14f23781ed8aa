import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { change, node, pod } from './fixtures.js';
import type { ClockState, Frame } from './json.js';
import type { ObjectStore } from './store.js';
import { FrameApplier, parseFrame, StreamClient, type StreamListener } from './stream-client.js';

const CLOCK: ClockState = {
  time: '2026-01-01T00:00:00.000Z',
  wallTime: 0,
  speed: '1',
  paused: false,
  mode: 'virtual',
  state: 'Running',
};

function harness() {
  const renders: { store: ObjectStore; changes: number; synced: boolean }[] = [];
  const queued: (() => void)[] = [];
  const state = { clock: undefined as ClockState | undefined, unauthorized: false };
  const listener: StreamListener = {
    onStore: (store, changes, synced) => renders.push({ store, changes: changes.length, synced }),
    onHello: () => {},
    onClock: (c) => {
      state.clock = c;
    },
    onUnauthorized: () => {
      state.unauthorized = true;
    },
    onConnection: () => {},
  };
  const applier = new FrameApplier(listener, (cb) => queued.push(cb));
  const frame = () => {
    for (const cb of queued.splice(0)) cb();
  };
  return { applier, renders, frame, state, listener };
}

const snapshot = (seq: number, pods: number): Frame[] => [
  { type: 'HELLO', seq, clock: CLOCK },
  change('ADDED', '', 'nodes', node('n1', { zone: 'a' })),
  ...Array.from({ length: pods }, (_, i) =>
    change('ADDED', '', 'pods', pod('default', `p${i}`, { node: 'n1' })),
  ),
  { type: 'SYNCED', seq },
];

describe('FrameApplier', () => {
  it('renders a snapshot once, at SYNCED, however many objects it has', () => {
    const h = harness();
    const frames = snapshot(10, 5000);
    for (const f of frames.slice(0, -1)) h.applier.handle(f);
    assert.equal(h.renders.length, 0, 'nothing before SYNCED');
    for (const f of frames.slice(-1)) h.applier.handle(f);
    assert.equal(h.renders.length, 1, 'at SYNCED, without waiting for a frame');
    h.frame();
    assert.equal(h.renders.length, 1);
    assert.equal(h.renders[0]?.synced, true);
    assert.equal(h.renders[0]?.store.list('', 'pods').length, 5000);
    assert.equal(h.state.clock?.mode, 'virtual');
  });

  it('coalesces live changes into one render per frame', () => {
    const h = harness();
    for (const f of snapshot(1, 2)) h.applier.handle(f);
    h.frame();
    for (let i = 0; i < 1000; i++) {
      h.applier.handle(
        change('MODIFIED', '', 'pods', pod('default', 'p0', { node: 'n1', ready: i % 2 === 0 })),
      );
    }
    h.frame();
    assert.equal(h.renders.length, 2);
    assert.equal(h.renders[1]?.changes, 1000);
    const p0 = h.renders[1]?.store.get('', 'pods', 'default', 'p0');
    assert.equal(
      (p0?.status?.conditions as { status: string }[] | undefined)?.[0]?.status,
      'False',
    );
  });

  it('keeps showing the old store during a reconnect and swaps to the new snapshot at SYNCED', () => {
    const h = harness();
    for (const f of snapshot(1, 3)) h.applier.handle(f);
    h.frame();
    const first = h.renders[0]?.store;
    h.applier.handle({ type: 'HELLO', seq: 50 });
    h.applier.handle(change('ADDED', '', 'pods', pod('default', 'only', { node: 'n1' })));
    h.frame();
    assert.equal(h.renders.length, 1, 'no render of a half-built snapshot');
    assert.equal(h.applier.live, first);
    h.applier.handle({ type: 'SYNCED', seq: 50 });
    h.frame();
    const second = h.renders[1]?.store;
    assert.notEqual(second, first);
    assert.deepEqual(
      second?.list('', 'pods').map((p) => p.metadata.name),
      ['only'],
      'objects gone while disconnected are gone',
    );
  });

  it('applies DELETED frames', () => {
    const h = harness();
    for (const f of snapshot(1, 2)) h.applier.handle(f);
    h.applier.handle(change('DELETED', '', 'pods', pod('default', 'p1')));
    h.frame();
    assert.deepEqual(
      h.applier.live.list('', 'pods').map((p) => p.metadata.name),
      ['p0'],
    );
  });
});

describe('parseFrame', () => {
  const cases: [string, string | undefined][] = [
    ['{"type":"SYNCED","seq":3}', 'SYNCED'],
    ['{"type":"CLOCK","clock":{"time":"x"}}', 'CLOCK'],
    [
      '{"type":"ADDED","seq":1,"time":"t","group":"","resource":"pods","object":{"metadata":{"name":"a"}}}',
      'ADDED',
    ],
    ['{"type":"ADDED","seq":1,"group":"","resource":"pods","object":{}}', undefined],
    ['{"type":"BOOKMARK"}', undefined],
    ['not json', undefined],
  ];
  for (const [line, type] of cases) {
    it(`${line.slice(0, 40)} → ${type}`, () => assert.equal(parseFrame(line)?.type, type));
  }
});

describe('StreamClient', () => {
  function ndjson(frames: readonly Frame[]): Response {
    return new Response(frames.map((f) => `${JSON.stringify(f)}\n`).join(''), { status: 200 });
  }

  it('reconnects after the stream ends and rebuilds from the new snapshot', async () => {
    const h = harness();
    const responses = [
      ndjson(snapshot(1, 3)),
      ndjson(snapshot(9, 1)),
      new Response('', { status: 401 }),
    ];
    const sleeps: number[] = [];
    const client = new StreamClient(
      {
        url: '/ui/api/stream',
        fetch: async () => responses.shift() ?? new Response('', { status: 500 }),
        schedule: (cb) => cb(),
        sleep: async (ms) => {
          sleeps.push(ms);
        },
      },
      h.listener,
    );
    await client.run();
    assert.equal(h.state.unauthorized, true);
    assert.equal(client.applier.live.list('', 'pods').length, 1);
    assert.deepEqual(sleeps, [250, 250], 'a HELLO resets the backoff');
  });
});
