import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { asKind, type Lease } from '../api/model/index.js';
import { formatMicroTime } from '../api/time.js';
import { startTestServer, type TestServer } from '../apiserver/testing/test-server.js';
import { ApiClient } from '../client/api-client.js';
import { FakeClock } from '../util/clock.js';
import { RESOURCES } from './context.js';
import {
  type LeaderElectionOptions,
  runLeaderElection,
  validateTimings,
} from './leader-election.js';

const log = pino({ level: 'silent' });
let api: TestServer;
let client: ApiClient;

before(async () => {
  api = await startTestServer();
  client = new ApiClient({ server: api.url });
});
after(async () => {
  client.close();
  await api.close();
});

/** One candidate: whether it leads now, and a switch that cuts its writes off. */
interface Candidate {
  leading: boolean;
  startedCount: number;
  stoppedCount: number;
  partitioned: boolean;
  readonly stop: AbortController;
  done: Promise<void>;
}

function candidate(
  clock: FakeClock,
  name: string,
  identity: string,
  extra: Partial<LeaderElectionOptions> = {},
): Candidate {
  const c: Candidate = {
    leading: false,
    startedCount: 0,
    stoppedCount: 0,
    partitioned: false,
    stop: new AbortController(),
    done: Promise.resolve(),
  };
  const cut = () => Promise.reject(new Error('connect ECONNREFUSED'));
  c.done = runLeaderElection({
    client: {
      get: (ref, o) => (c.partitioned ? cut() : client.get(ref, o)),
      create: (ref, obj, o) => (c.partitioned ? cut() : client.create(ref, obj, o)),
      update: (ref, obj, o) => (c.partitioned ? cut() : client.update(ref, obj, o)),
    },
    clock,
    log,
    name,
    identity,
    signal: c.stop.signal,
    random: () => 0.5,
    onStartedLeading: (signal) => {
      c.leading = true;
      c.startedCount++;
      signal.addEventListener('abort', () => {
        c.leading = false;
      });
    },
    onStoppedLeading: () => {
      c.stoppedCount++;
    },
    ...extra,
  });
  return c;
}

/** Steps the fake clock in 100 ms slices, letting real requests finish between them. */
async function pump(clock: FakeClock, ms: number, check: () => void = () => {}): Promise<void> {
  for (let t = 0; t < ms; t += 100) {
    await clock.step(100);
    await new Promise((r) => setTimeout(r, 4));
    check();
  }
}

async function lease(name: string): Promise<Lease> {
  return asKind(await client.get({ ...RESOURCES.leases, namespace: 'kube-system', name }), 'Lease');
}

describe('runLeaderElection', () => {
  test('one of two leads; when it stops renewing the other takes over after expiry', async () => {
    const clock = new FakeClock();
    const a = candidate(clock, 'lock-1', 'host-a_1');
    await pump(clock, 1000);
    const b = candidate(clock, 'lock-1', 'host-b_2');
    const atMostOne = () => assert.ok(!(a.leading && b.leading), 'two leaders at once');
    await pump(clock, 20_000, atMostOne);
    assert.deepEqual([a.leading, b.leading], [true, false]);
    const held = (await lease('lock-1')).spec;
    assert.equal(held?.holderIdentity, 'host-a_1');
    assert.equal(held?.leaseDurationSeconds, 15);
    assert.equal(held?.leaseTransitions, 0);
    assert.match(held?.renewTime ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    assert.equal(held?.acquireTime, formatMicroTime(Date.UTC(2026, 0, 1)));

    a.partitioned = true;
    // A gives up after renewDeadline (10 s); B may take over 15 s after it last saw a change.
    await pump(clock, 12_000, atMostOne);
    assert.deepEqual([a.leading, a.stoppedCount, b.leading], [false, 1, false]);
    await a.done;
    await pump(clock, 10_000, atMostOne);
    assert.equal(b.leading, true);
    const taken = (await lease('lock-1')).spec;
    assert.equal(taken?.holderIdentity, 'host-b_2');
    assert.equal(taken?.leaseTransitions, 1);
    b.stop.abort();
    await b.done;
    assert.deepEqual([b.leading, b.startedCount, b.stoppedCount], [false, 1, 1]);
  });

  test('releaseOnCancel hands the Lease to a standby within about a second', async () => {
    const clock = new FakeClock();
    let workStopped = false;
    const a = candidate(clock, 'lock-2', 'host-a_1', {
      releaseOnCancel: true,
      onStartedLeading: async (signal) => {
        await new Promise((r) => signal.addEventListener('abort', r));
        await new Promise((r) => setTimeout(r, 20));
        workStopped = true;
      },
    });
    await pump(clock, 1000);
    const b = candidate(clock, 'lock-2', 'host-b_2');
    await pump(clock, 4000);
    assert.equal((await lease('lock-2')).spec?.holderIdentity, 'host-a_1');
    a.stop.abort();
    await a.done;
    // The controllers stopped before the Lease was handed back.
    assert.equal(workStopped, true);
    const released = (await lease('lock-2')).spec;
    assert.deepEqual([released?.holderIdentity, released?.leaseDurationSeconds], [undefined, 1]);
    await pump(clock, 5000);
    const taken = (await lease('lock-2')).spec;
    assert.deepEqual(
      [b.leading, taken?.holderIdentity, taken?.leaseTransitions],
      [true, 'host-b_2', 1],
    );
    b.stop.abort();
    await b.done;
  });

  test('a candidate cancelled before leading returns without callbacks', async () => {
    const clock = new FakeClock();
    const a = candidate(clock, 'lock-3', 'host-a_1');
    await pump(clock, 1000);
    const b = candidate(clock, 'lock-3', 'host-b_2');
    await pump(clock, 3000);
    b.stop.abort();
    await b.done;
    assert.deepEqual([b.startedCount, b.stoppedCount], [0, 0]);
    a.stop.abort();
    await a.done;
    // Without releaseOnCancel the holder stays until the Lease expires.
    assert.equal((await lease('lock-3')).spec?.holderIdentity, 'host-a_1');
  });
});

describe('validateTimings', () => {
  const cases: [string, number, number, number, boolean][] = [
    ['kube-controller-manager defaults', 15_000, 10_000, 2_000, true],
    ['lease not above renew', 10_000, 10_000, 2_000, false],
    ['renew not above 1.2 × retry', 15_000, 2_400, 2_000, false],
    ['zero retry', 15_000, 10_000, 0, false],
  ];
  for (const [name, lease, renew, retry, ok] of cases) {
    test(name, () => {
      if (ok) validateTimings(lease, renew, retry);
      else assert.throws(() => validateTimings(lease, renew, retry), RangeError);
    });
  }
});
