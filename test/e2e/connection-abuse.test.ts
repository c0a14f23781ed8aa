/**
 * Abusive clients against the real `fleetyard up` (controllers running), with its real
 * defaults, on 127.0.0.1 only: connections that send their headers slowly or never finish the
 * TLS handshake (closed at the 32 s read-header timeout, upstream's ReadHeaderTimeout), header
 * size (1 MiB, upstream's MaxHeaderBytes), a watcher that never reads (cut past 16 MiB unread),
 * and a flood of writes (429 past `--max-mutating-requests-inflight`, 200) while a Deployment
 * still becomes available. The tests run concurrently: the file takes ~35 s, the header timeout.
 *
 * The idle keep-alive close (90 s, upstream's IdleTimeout) is too slow for this file: here only
 * the advertised timeout is checked; `src/apiserver/connection-limits.test.ts` shows the close
 * with a 1 s timeout on the in-process server.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import { type Cluster, startCluster } from './testing/cluster.js';

/** Upstream's ReadHeaderTimeout and fleetyard's default; node checks it every second. */
const READ_HEADER_TIMEOUT_MS = 32_000;
const WATCH_LIMIT_BYTES = 16 * 1024 * 1024;

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('connection abuse (fleetyard up)', { concurrency: true }, () => {
  let cluster: Cluster;
  let port: number;
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  before(async () => {
    cluster = await startCluster();
    port = Number(new URL(cluster.url).port);
  });
  after(async () => {
    agent.destroy();
    await cluster.stop();
    cluster.cleanup();
  });

  const call = (method: string, path: string, body?: unknown, via = agent): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers: Record<string, string> = { authorization: `Bearer ${cluster.token}` };
      if (payload !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(payload));
      }
      const req = request(
        new URL(path, cluster.url),
        { method, agent: via, ca: cluster.ca, headers },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            text += d;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  /** `call`, retrying a 429 after its Retry-After, as client-go does (up to 10 times). */
  const callRetrying = async (method: string, path: string, body?: unknown): Promise<Reply> => {
    for (let attempt = 0; ; attempt++) {
      const r = await call(method, path, body);
      if (r.status !== 429 || attempt === 10) return r;
      await sleep(Number(r.headers['retry-after'] ?? '1') * 1000);
    }
  };

  /** A TLS connection (handshake done), recording what it receives and when it closes. */
  const open = (): Promise<{
    socket: TLSSocket;
    received: () => string;
    closed: Promise<number>;
  }> =>
    new Promise((resolve) => {
      const socket = tlsConnect({ host: '127.0.0.1', port, ca: cluster.ca });
      let data = '';
      socket.setEncoding('latin1');
      socket.on('data', (d: string) => {
        data += d;
      });
      socket.on('error', () => {});
      socket.once('secureConnect', () => {
        const started = performance.now();
        const closed = new Promise<number>((r) =>
          socket.once('close', () => r(performance.now() - started)),
        );
        resolve({ socket, received: () => data, closed });
      });
    });

  it('closes 100 connections sending headers a byte every 5 s, and 50 that never do TLS, at 32 s', async () => {
    const slow = await Promise.all(Array.from({ length: 100 }, open));
    for (const p of slow) {
      p.socket.write('GET /version HTTP/1.1\r\nHost: x\r\n');
      const timer = setInterval(() => p.socket.write('X'), 5000);
      p.socket.once('close', () => clearInterval(timer));
    }
    const { connect } = await import('node:net');
    const raw = Array.from({ length: 50 }, () => {
      const s = connect(port, '127.0.0.1');
      s.on('error', () => {});
      const started = performance.now();
      return new Promise<number>((r) => s.once('close', () => r(performance.now() - started)));
    });
    const times = await Promise.all([...slow.map((p) => p.closed), ...raw]);
    for (const ms of times) {
      assert.ok(
        ms >= READ_HEADER_TIMEOUT_MS - 100 && ms < READ_HEADER_TIMEOUT_MS + 3000,
        `closed after ${Math.round(ms)} ms`,
      );
    }
    for (const p of slow) assert.match(p.received(), /^HTTP\/1\.1 408 Request Timeout/);
  });

  it('takes 900 KiB of headers, answers 431 past 1 MiB, and advertises a 90 s keep-alive', async () => {
    const send = async (size: number): Promise<string> => {
      const p = await open();
      p.socket.write(
        `GET /version HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(size)}\r\nConnection: close\r\n\r\n`,
      );
      await p.closed;
      return p.received();
    };
    assert.match(await send(900 * 1024), /^HTTP\/1\.1 200 OK/);
    assert.match(await send(1024 * 1024 + 1), /^HTTP\/1\.1 431 Request Header Fields Too Large/);
    const keep = await open();
    keep.socket.write('GET /version HTTP/1.1\r\nHost: x\r\n\r\n');
    for (let i = 0; i < 100 && !keep.received().includes('\r\n\r\n'); i++) await sleep(50);
    assert.match(keep.received(), /Keep-Alive: timeout=90/);
    keep.socket.destroy();
  });

  // In order: the flood would refuse the writes that feed the stalled watchers.
  describe('stalled watchers, then a flood', { concurrency: 1 }, () => {
    it('cuts off watchers that never read, past 16 MiB unread, and frees them', async () => {
      assert.equal(
        (await call('POST', '/api/v1/namespaces', { metadata: { name: 'stall' } })).status,
        201,
      );
      const pid = cluster.process.pid!;
      const rssMiB = (): number =>
        Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
      const rssBefore = rssMiB();
      const stalled = await Promise.all(
        Array.from({ length: 4 }, async () => {
          const p = await open();
          p.socket.write(
            'GET /api/v1/namespaces/stall/configmaps?watch=true HTTP/1.1\r\nHost: x\r\n' +
              `Authorization: Bearer ${cluster.token}\r\n\r\n`,
          );
          await sleep(100);
          p.socket.pause();
          return p;
        }),
      );
      // 64 events of 512 KiB (32 MiB): past the limit plus the kernel's socket buffers (~4 MiB).
      const value = 'v'.repeat(512 * 1024);
      for (let i = 0; i < 64; i++) {
        const r = await call('POST', '/api/v1/namespaces/stall/configmaps', {
          metadata: { name: `big-${i}` },
          data: { v: value },
        });
        assert.equal(r.status, 201, r.text);
      }
      // Cut at once, then destroyed 5 s later as its bytes stay unread, which frees them. A
      // paused socket cannot see its close: wait, then read what the kernel holds, then the end.
      await sleep(6000);
      // Coarse: 4 watchers × 32 MiB would be buffered without the limit (plus the 32 MiB of
      // objects, stored and in the watch history, which any server holds).
      assert.ok(rssMiB() - rssBefore < 256, `RSS grew from ${rssBefore} to ${rssMiB()} MiB`);
      for (const p of stalled) p.socket.resume();
      const outcome = await Promise.race([
        Promise.all(stalled.map((p) => p.closed)).then(() => 'closed'),
        sleep(5000).then(() => 'open'),
      ]);
      assert.equal(outcome, 'closed');
      for (const p of stalled) {
        const events = p.received().match(/"type":"ADDED"/g)?.length ?? 0;
        assert.ok(events < 64, `${events} of 64 events sent`);
        assert.ok(p.received().length < WATCH_LIMIT_BYTES, `${p.received().length} bytes`);
      }
    });

    it('answers a write flood 429 with Retry-After while a Deployment becomes available', async () => {
      assert.equal(
        (await call('POST', '/api/v1/namespaces', { metadata: { name: 'flood' } })).status,
        201,
      );
      const flood = new Agent({ keepAlive: true, maxSockets: 300 });
      const codes = new Map<number, number>();
      let tooMany: Reply | undefined;
      let stop = false;
      const writers = Array.from({ length: 300 }, async () => {
        while (!stop) {
          const r = await call(
            'POST',
            '/api/v1/namespaces/flood/configmaps',
            { metadata: { generateName: 'f-' }, data: { a: 'b' } },
            flood,
          ).catch(() => ({ status: -1, headers: {}, text: '' }));
          codes.set(r.status, (codes.get(r.status) ?? 0) + 1);
          if (r.status === 429) tooMany ??= r;
        }
      });
      try {
        while ((codes.get(429) ?? 0) === 0) await sleep(50);
        const created = await callRetrying('POST', '/apis/apps/v1/namespaces/default/deployments', {
          metadata: { name: 'web' },
          spec: {
            replicas: 3,
            selector: { matchLabels: { app: 'web' } },
            template: {
              metadata: { labels: { app: 'web' } },
              spec: {
                terminationGracePeriodSeconds: 0,
                containers: [{ name: 'web', image: 'web:v1' }],
              },
            },
          },
        });
        assert.equal(created.status, 201, created.text);
        let available = 0;
        for (let i = 0; i < 100 && available < 3; i++) {
          await sleep(200);
          const d = JSON.parse(
            (await call('GET', '/apis/apps/v1/namespaces/default/deployments/web')).text,
          );
          available = d.status?.availableReplicas ?? 0;
        }
        assert.equal(available, 3, 'the Deployment became available during the flood');
      } finally {
        stop = true;
        await Promise.all(writers);
        flood.destroy();
      }
      assert.ok((codes.get(201) ?? 0) > 0);
      assert.equal(tooMany?.headers['retry-after'], '1');
      const status = JSON.parse(tooMany!.text) as Record<string, unknown>;
      assert.equal(status.reason, 'TooManyRequests');
      assert.equal(status.message, 'Too many requests, please try again later.');
      assert.equal(status.code, 429);
    });

    it('counts the refused writes and never refuses the controllers during the flood', async () => {
      const metrics = (await call('GET', '/metrics')).text;
      const dropped = /^apiserver_dropped_requests_total\{request_kind="mutating"\} (\d+)/m.exec(
        metrics,
      );
      assert.ok(Number(dropped?.[1] ?? 0) > 0, 'the flood was refused');
      // The controller thread logs a failed reconcile with its error: none was a 429.
      const refused = cluster
        .stderr()
        .split('\n')
        .filter((l) => l.includes('controller-manager') && l.includes('Too many requests'));
      assert.deepEqual(refused, []);
    });
  });
});
