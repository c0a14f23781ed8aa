import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { parseRequestInfo } from '../request-info.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { InFlightLimiter, type RequestPool, requestPool } from './inflight-limit.js';

describe('requestPool', () => {
  const cases: Array<[string, string, RequestPool]> = [
    ['GET', '/api/v1/namespaces/default/pods', 'readonly'],
    ['GET', '/api/v1/namespaces/default/pods/web', 'readonly'],
    ['HEAD', '/api/v1/namespaces/default/pods/web', 'readonly'],
    ['GET', '/api/v1/pods?watch=true', 'exempt'],
    ['GET', '/api/v1/pods?watch=1', 'exempt'],
    ['GET', '/api/v1/namespaces/default/pods/web/log', 'exempt'],
    ['POST', '/api/v1/namespaces/default/pods/web/exec', 'exempt'],
    ['POST', '/api/v1/namespaces/default/pods/web/attach', 'exempt'],
    ['POST', '/api/v1/namespaces/default/pods/web/portforward', 'exempt'],
    ['GET', '/api/v1/namespaces/default/services/web/proxy', 'exempt'],
    ['POST', '/api/v1/namespaces/default/configmaps', 'mutating'],
    ['PUT', '/apis/apps/v1/namespaces/default/deployments/web/scale', 'mutating'],
    ['PATCH', '/apis/apps/v1/namespaces/default/deployments/web', 'mutating'],
    ['DELETE', '/api/v1/namespaces/default/configmaps', 'mutating'],
    ['POST', '/api/v1/namespaces/default/pods/web/eviction', 'mutating'],
    ['GET', '/healthz', 'exempt'],
    ['GET', '/readyz/ping', 'exempt'],
    ['GET', '/livez', 'exempt'],
    ['GET', '/version', 'readonly'],
    ['GET', '/apis', 'readonly'],
    ['GET', '/openapi/v3', 'readonly'],
    ['GET', '/debug/pprof/heap', 'exempt'],
    // A non-resource verb is the method: upstream counts anything but GET as mutating.
    ['POST', '/version', 'mutating'],
  ];
  for (const [method, target, pool] of cases) {
    it(`${method} ${target} → ${pool}`, () => {
      const url = new URL(target, 'http://x');
      const info = parseRequestInfo(method, url.pathname, url.searchParams);
      assert.equal(requestPool(method, url.pathname, info), pool);
    });
  }
});

describe('InFlightLimiter', () => {
  it('refuses past the limit per pool, and counts a released slot again', () => {
    const l = new InFlightLimiter({ maxRequestsInFlight: 2, maxMutatingRequestsInFlight: 1 });
    const r1 = l.acquire('readonly', false);
    const r2 = l.acquire('readonly', false);
    assert.ok(r1 && r2);
    assert.equal(l.acquire('readonly', false), undefined);
    // The pools are separate: reads at their limit do not refuse a write.
    const m1 = l.acquire('mutating', false);
    assert.ok(m1);
    assert.equal(l.acquire('mutating', false), undefined);
    assert.deepEqual(l.dropped, { readonly: 1, mutating: 1 });
    r1();
    r1(); // idempotent
    assert.deepEqual(l.inFlight, { readonly: 1, mutating: 1 });
    assert.ok(l.acquire('readonly', false));
  });

  it('never refuses a privileged request: it takes a free slot, else passes without one', () => {
    const l = new InFlightLimiter({ maxRequestsInFlight: 1, maxMutatingRequestsInFlight: 1 });
    const p = l.acquire('mutating', true);
    assert.ok(p);
    assert.equal(l.inFlight.mutating, 1);
    assert.equal(l.acquire('mutating', false), undefined);
    const q = l.acquire('mutating', true);
    assert.ok(q);
    q();
    assert.equal(l.inFlight.mutating, 1);
  });

  it('does not count exempt requests, and 0 means no limit', () => {
    const l = new InFlightLimiter({ maxRequestsInFlight: 0, maxMutatingRequestsInFlight: 1 });
    for (let i = 0; i < 1000; i++) assert.ok(l.acquire('readonly', false));
    for (let i = 0; i < 1000; i++) assert.ok(l.acquire('exempt', false));
    assert.deepEqual(l.inFlight, { readonly: 0, mutating: 0 });
  });
});

describe('max-in-flight over HTTP', () => {
  let api: TestServer;
  const held: Socket[] = [];
  before(async () => {
    api = await startTestServer({
      server: { maxRequestsInFlight: 2, maxMutatingRequestsInFlight: 2 },
    });
  });
  after(async () => {
    for (const s of held) s.destroy();
    await api.close();
  });

  /** A POST whose body never finishes: it stays in flight (its handler waits for the body). */
  const holdMutating = async (): Promise<Socket> => {
    const { port } = new URL(api.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    socket.on('error', () => {});
    socket.write(
      'POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\n' +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"metadata":',
    );
    held.push(socket);
    return socket;
  };
  const configMap = (name: string) => ({ body: { metadata: { name } } });

  it('answers 429 with Retry-After: 1 and a TooManyRequests Status past the mutating limit', async () => {
    await holdMutating();
    await holdMutating();
    for (let i = 0; i < 50 && api.server.limitStats().inFlight.mutating < 2; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(api.server.limitStats().inFlight.mutating, 2);
    const r = await api.request('POST', '/api/v1/namespaces/default/configmaps', configMap('x'));
    assert.equal(r.status, 429);
    assert.equal(r.headers['retry-after'], '1');
    assert.deepEqual(r.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Too many requests, please try again later.',
      reason: 'TooManyRequests',
      details: { retryAfterSeconds: 1 },
      code: 429,
    });
    assert.equal(api.server.limitStats().droppedRequests.mutating, 1);
  });

  it('still serves reads, watches and health probes while the mutating pool is full', async () => {
    assert.equal((await api.request('GET', '/api/v1/namespaces/default/configmaps')).status, 200);
    assert.equal((await api.request('GET', '/healthz')).status, 200);
    const w = await api.watch('/api/v1/namespaces?watch=true');
    assert.equal(w.status, 200);
    await w.waitFor(1);
    w.close();
  });

  it('never refuses the loopback credential', async () => {
    const r = await api.request('POST', '/api/v1/namespaces/default/configmaps', {
      ...configMap('from-loopback'),
      headers: { authorization: `Bearer ${api.server.loopbackToken}` },
    });
    assert.equal(r.status, 201, r.text);
  });

  it('serves again once a slot is given back', async () => {
    // Ending a held request (the body is cut: the client is gone) frees its slot.
    held.shift()!.destroy();
    for (let i = 0; i < 50 && api.server.limitStats().inFlight.mutating > 1; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const r = await api.request('POST', '/api/v1/namespaces/default/configmaps', configMap('y'));
    assert.equal(r.status, 201, r.text);
  });
});

describe('the loopback credential on a server with a token', () => {
  it('authenticates like the token; a wrong token is still refused', async () => {
    const api = await startTestServer({ token: 'the-token-of-the-kubeconfig-0123456789abcdef' });
    try {
      const ok = await api.request('GET', '/api/v1/namespaces', {
        headers: { authorization: `Bearer ${api.server.loopbackToken}` },
      });
      assert.equal(ok.status, 200);
      const bad = await api.request('GET', '/api/v1/namespaces', {
        headers: { authorization: 'Bearer wrong' },
      });
      assert.equal(bad.status, 401);
    } finally {
      await api.close();
    }
  });
});
