/**
 * The dashboard's pure parts: login codes, session cookies and their cross-site checks, the
 * change recorder's window and keys, and when a clock frame is news.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createMemoryBackend } from '../../storage/memory/backend.js';
import { FakeClock } from '../../util/clock.js';
import {
  BrowserSessions,
  crossSiteReason,
  SESSION_MAX_AGE_SECONDS,
  sessionCookie,
} from '../authentication/browser-sessions.js';
import type { UserInfo } from '../authentication/user.js';
import { type Change, ChangeRecorder, keyParts } from './change-recorder.js';
import { type ClockFrame, clockChanged } from './clock-frames.js';
import { LOGIN_CODE_TTL_MS, LoginLinks } from './login-links.js';

const ALICE: UserInfo = { username: 'alice', groups: ['dev'] };

describe('LoginLinks', () => {
  it('redeems a code once, for the user it was made for', () => {
    const links = new LoginLinks();
    const code = links.issue(ALICE);
    assert.deepEqual(links.redeem(code), ALICE);
    assert.equal(links.redeem(code), undefined);
  });
  it('refuses an expired code and an unknown one', () => {
    let now = 1_000;
    const links = new LoginLinks(() => now);
    const code = links.issue(ALICE);
    now += LOGIN_CODE_TTL_MS;
    assert.equal(links.redeem(code), undefined);
    assert.equal(links.redeem('not-a-code'), undefined);
  });
  it('makes codes of 256 random bits, each different', () => {
    const links = new LoginLinks();
    const codes = new Set(Array.from({ length: 50 }, () => links.issue(ALICE)));
    assert.equal(codes.size, 50);
    for (const c of codes) assert.match(c, /^[A-Za-z0-9_-]{43}$/);
  });
});

describe('BrowserSessions', () => {
  const cookieOf = (setCookie: string) => sessionCookie(setCookie.split(';')[0]);
  it('sets a host-only, HttpOnly, Secure, SameSite=Strict cookie that authenticates', () => {
    const sessions = new BrowserSessions();
    const set = sessions.open(ALICE);
    assert.match(
      set,
      /^__Host-fleetyard-session=[A-Za-z0-9_-]{43}; HttpOnly; Secure; SameSite=Strict; Path=\/; Max-Age=28800$/,
    );
    const id = cookieOf(set);
    const got = sessions.authenticate({
      headers: { cookie: `a=b; __Host-fleetyard-session=${id}` },
    });
    assert.deepEqual(got, { user: ALICE });
  });
  it('ends a session at logout and after its lifetime', () => {
    let now = 0;
    const sessions = new BrowserSessions(() => now);
    const a = cookieOf(sessions.open(ALICE));
    const b = cookieOf(sessions.open(ALICE));
    sessions.close({ cookie: `__Host-fleetyard-session=${a}` });
    assert.ok(
      sessions.authenticate({ headers: { cookie: `__Host-fleetyard-session=${a}` } }) instanceof
        Error,
    );
    now += SESSION_MAX_AGE_SECONDS * 1000;
    assert.ok(
      sessions.authenticate({ headers: { cookie: `__Host-fleetyard-session=${b}` } }) instanceof
        Error,
    );
    assert.equal(sessions.size, 0);
  });
  it('is silent when no session cookie came', () => {
    assert.equal(new BrowserSessions().authenticate({ headers: { cookie: 'other=1' } }), undefined);
  });
  const cases: [string, { method?: string; headers: Record<string, string> }, boolean][] = [
    ['a same-origin GET', { headers: { host: 'h:1', 'sec-fetch-site': 'same-origin' } }, true],
    ['a typed-in navigation', { headers: { host: 'h:1', 'sec-fetch-site': 'none' } }, true],
    ['a GET from an old browser with no fetch metadata', { headers: { host: 'h:1' } }, true],
    ['a cross-site GET', { headers: { host: 'h:1', 'sec-fetch-site': 'cross-site' } }, false],
    [
      'a same-site GET (another port)',
      { headers: { host: 'h:1', 'sec-fetch-site': 'same-site' } },
      false,
    ],
    [
      'a PATCH from the page',
      { method: 'PATCH', headers: { host: 'h:1', origin: 'https://h:1' } },
      true,
    ],
    [
      'a PATCH from another origin',
      { method: 'PATCH', headers: { host: 'h:1', origin: 'https://evil.example' } },
      false,
    ],
    [
      'a PATCH over plain http origin',
      { method: 'PATCH', headers: { host: 'h:1', origin: 'http://h:1' } },
      false,
    ],
    ['a POST with no Origin', { method: 'POST', headers: { host: 'h:1' } }, false],
    [
      'a WebSocket upgrade from another origin',
      { method: 'GET', headers: { host: 'h:1', origin: 'https://evil.example' } },
      false,
    ],
  ];
  for (const [name, req, ok] of cases) {
    it(`${ok ? 'accepts' : 'refuses'} ${name}`, () => {
      assert.equal(crossSiteReason(req) === undefined, ok);
    });
  }
});

describe('keyParts', () => {
  const cases: [string, ReturnType<typeof keyParts>][] = [
    [
      '/core/pods/default/web-0',
      { group: '', resource: 'pods', namespace: 'default', name: 'web-0' },
    ],
    ['/core/nodes/node-1', { group: '', resource: 'nodes', namespace: '', name: 'node-1' }],
    [
      '/apps/statefulsets/ns/web',
      { group: 'apps', resource: 'statefulsets', namespace: 'ns', name: 'web' },
    ],
    ['/core/secrets/default/token', undefined],
    ['/coordination.k8s.io/leases/kube-node-lease/node-1', undefined],
    ['/registry/other', undefined],
    ['/core/pods/', undefined],
  ];
  for (const [key, want] of cases) it(key, () => assert.deepEqual(keyParts(key), want));
});

/** The state a page gets by replaying a history: key → JSON text. */
function replay(h: { base: readonly Change[]; changes: readonly Change[] }): Map<string, string> {
  const state = new Map<string, string>();
  const keyOf = (c: Change) => `${c.group}/${c.resource}/${c.namespace}/${c.name}`;
  for (const c of [...h.base, ...h.changes]) {
    if (c.type === 'DELETED') state.delete(keyOf(c));
    else state.set(keyOf(c), c.json);
  }
  return state;
}

describe('ChangeRecorder', () => {
  it('replaying its history gives the current state, however small its window', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.boolean()), { maxLength: 40 }),
        fc.integer({ min: 0, max: 400 }),
        async (ops, maxBytes) => {
          const backend = createMemoryBackend({});
          await backend.create('/core/configmaps/ns/seed', () => '{"v":0}');
          const recorder = new ChangeRecorder(backend, new FakeClock(0), { maxBytes });
          recorder.start();
          let i = 0;
          for (const [name, remove] of ops) {
            const key = `/core/configmaps/ns/${name}`;
            const kv = backend.get(key);
            if (remove && kv) await backend.delete(key, kv.modRevision);
            else if (kv) await backend.update(key, () => `{"v":${++i}}`, kv.modRevision);
            else await backend.create(key, () => `{"v":${++i}}`);
          }
          await new Promise((r) => setImmediate(r));
          const want = new Map(
            backend
              .list('/core/')
              .items.map((kv) => [
                `/configmaps/${kv.key.split('/')[3]}/${kv.key.split('/')[4]}`,
                kv.value,
              ]),
          );
          assert.deepEqual(replay(recorder.history()), want);
          // The window keeps at most its budget, but always the latest change.
          const { changes } = recorder.history();
          if (changes.length > 1) assert.ok(recorder.windowBytes <= maxBytes);
          recorder.stop();
        },
      ),
      { numRuns: 60 },
    );
  });
  it('leaves Secrets out and stamps changes with the cluster clock', async () => {
    const backend = createMemoryBackend({});
    const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
    const recorder = new ChangeRecorder(backend, clock);
    recorder.start();
    const seen: Change[] = [];
    recorder.subscribe((c) => seen.push(c));
    await clock.step(5000);
    await backend.create('/core/secrets/ns/s', () => '{"data":{"k":"c2VjcmV0"}}');
    await backend.create('/core/configmaps/ns/c', () => '{}');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(
      seen.map((c) => [c.type, c.resource, c.name, c.time]),
      [['ADDED', 'configmaps', 'c', Date.parse('2026-01-01T00:00:05Z')]],
    );
    recorder.stop();
  });
});

describe('clockChanged', () => {
  const frame = (over: Partial<ClockFrame>): ClockFrame => ({
    time: '2026-01-01T00:00:00.000Z',
    wallTime: 0,
    speed: '1',
    paused: false,
    mode: 'virtual',
    state: 'Running',
    ...over,
  });
  const cases: [string, ClockFrame, ClockFrame, boolean][] = [
    [
      'time moving at its speed',
      frame({}),
      frame({ wallTime: 1000, time: '2026-01-01T00:00:01.000Z' }),
      false,
    ],
    [
      'ten times as fast',
      frame({ speed: '10' }),
      frame({ speed: '10', wallTime: 1000, time: '2026-01-01T00:00:10.000Z' }),
      false,
    ],
    [
      'a jump (advance)',
      frame({}),
      frame({ wallTime: 1000, time: '2026-01-01T00:05:00.000Z' }),
      true,
    ],
    ['paused', frame({}), frame({ paused: true, state: 'Paused' }), true],
    ['a new speed', frame({}), frame({ speed: '2' }), true],
    ['paused and still', frame({ paused: true }), frame({ paused: true, wallTime: 5000 }), false],
  ];
  for (const [name, last, next, want] of cases)
    it(name, () => assert.equal(clockChanged(last, next), want));
});
