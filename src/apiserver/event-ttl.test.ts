/**
 * Events expire a TTL after their last write (kube-apiserver's `--event-ttl`, an etcd lease
 * renewed by each write): a table of write histories on the cluster clock → which Events exist
 * after it, checked against the store.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryBackend } from '../storage/memory/backend.js';
import { FakeClock } from '../util/clock.js';
import { DEFAULT_EVENT_TTL_MS, EventExpiry, SWEEP_INTERVAL_MS } from './event-ttl.js';

const MIN = 60_000;
const T0 = Date.parse('2026-12-02T10:00:00Z');
const key = (name: string) => `/core/events/default/${name}`;
const event = (name: string, lastTimestamp?: string) =>
  JSON.stringify({
    metadata: { name, namespace: 'default', creationTimestamp: '2026-12-02T08:00:00Z' },
    ...(lastTimestamp !== undefined ? { lastTimestamp } : {}),
  });

async function setup(existing: Record<string, string> = {}) {
  const backend = createMemoryBackend();
  const clock = new FakeClock(T0);
  for (const [name, text] of Object.entries(existing)) await backend.create(key(name), () => text);
  await backend.create('/core/configmaps/default/old', () => '{"metadata":{"name":"old"}}');
  const expiry = new EventExpiry({ backend, clock, ttlMs: DEFAULT_EVENT_TTL_MS });
  expiry.start();
  const write = async (name: string) => {
    const kv = backend.get(key(name));
    if (kv === undefined) await backend.create(key(name), () => event(name));
    else await backend.update(key(name), () => event(name), kv.modRevision);
  };
  const exists = (name: string) => backend.get(key(name)) !== undefined;
  return { backend, clock, expiry, write, exists };
}

describe('Event expiry', () => {
  it('deletes an Event an hour (plus at most one sweep) after its last write', async () => {
    const { clock, expiry, write, exists } = await setup();
    await write('a');
    await clock.step(59 * MIN);
    assert.ok(exists('a'), 'gone before its TTL');
    await clock.step(MIN + SWEEP_INTERVAL_MS);
    assert.equal(exists('a'), false, 'kept past its TTL and a sweep');
    assert.equal(expiry.tracked, 0);
    expiry.stop();
  });

  it('a write renews the Event (the lease), as an aggregated Event’s count bump does', async () => {
    const { clock, expiry, write, exists } = await setup();
    await write('b');
    await clock.step(50 * MIN);
    await write('b');
    await clock.step(50 * MIN);
    assert.ok(exists('b'), 'expired from its first write, not its last');
    await clock.step(10 * MIN + SWEEP_INTERVAL_MS);
    assert.equal(exists('b'), false);
    expiry.stop();
  });

  it('at start, judges stored Events by their newest timestamp, and leaves other kinds', async () => {
    const { backend, clock, expiry, exists } = await setup({
      // Written two hours before start: expired at the first sweep.
      stale: event('stale', '2026-12-02T08:00:00Z'),
      // Written 30 minutes before start: 30 more minutes.
      recent: event('recent', '2026-12-02T09:30:00Z'),
      // No timestamp but its creation (two hours before).
      bare: event('bare'),
    });
    await clock.step(SWEEP_INTERVAL_MS);
    assert.deepEqual(['stale', 'recent', 'bare'].map(exists), [false, true, false]);
    await clock.step(30 * MIN);
    assert.equal(exists('recent'), false);
    assert.ok(backend.get('/core/configmaps/default/old'), 'a ConfigMap was expired');
    expiry.stop();
  });

  it('stops sweeping when stopped', async () => {
    const { clock, expiry, write, exists } = await setup();
    await write('c');
    expiry.stop();
    await clock.step(2 * DEFAULT_EVENT_TTL_MS);
    assert.ok(exists('c'));
  });
});
