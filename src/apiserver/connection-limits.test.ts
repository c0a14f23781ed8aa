/**
 * Connection limits on real sockets against the in-process server: slow headers, a slow or
 * missing TLS handshake, idle keep-alive connections, header size, the connection bound, and
 * a watcher that never reads. Timeouts are 1 s here; the defaults are upstream's (read-header
 * 32 s, idle 90 s), shown end to end in test/e2e/connection-abuse.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect as tlsConnect } from 'node:tls';
import { ensureServingCertificates } from '../security/pki.js';
import { MAX_BUFFERED_BYTES } from './handlers/watch.js';
import { startTestServer, type TestServer } from './testing/test-server.js';

/** A raw client connection that records what it receives and when it closes. */
interface Probe {
  readonly socket: Socket;
  /** Everything received so far (latin1). */
  received(): string;
  /** Resolves with the ms from opening to the close. */
  readonly closed: Promise<number>;
}

function probe(socket: Socket): Probe {
  const started = performance.now();
  let data = '';
  socket.setEncoding('latin1');
  socket.on('data', (d: string) => {
    data += d;
  });
  socket.on('error', () => {});
  const closed = new Promise<number>((r) =>
    socket.once('close', () => r(performance.now() - started)),
  );
  return { socket, received: () => data, closed };
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

function rawConnect(port: number): Promise<Probe> {
  return new Promise((resolve) => {
    const socket = netConnect(port, '127.0.0.1', () => resolve(probe(socket)));
  });
}

/** Writes `text` one byte at a time every `everyMs` until the socket closes. */
function trickle(socket: Socket, text: string, everyMs: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) clearInterval(timer);
    else socket.write(text[i++]!);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('plain HTTP: header and idle timeouts, header size', () => {
  let api: TestServer;
  let port: number;
  before(async () => {
    api = await startTestServer({
      server: { readHeaderTimeoutMs: 1000, idleTimeoutMs: 1000, requestTimeoutMs: 1500 },
    });
    port = portOf(api.url);
  });
  after(() => api.close());

  it('answers 408 to a body sent a byte at a time past the request timeout, freeing its slot', async () => {
    const p = await rawConnect(port);
    p.socket.write(
      'POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    trickle(p.socket, ' '.repeat(999), 100);
    const ms = await p.closed;
    assert.ok(ms >= 1400 && ms < 2600, `closed after ${Math.round(ms)} ms`);
    assert.match(p.received(), /^HTTP\/1\.1 408 Request Timeout/);
    // The server releases the slot when it sees the close, a moment after the client does.
    for (let i = 0; i < 50 && api.server.limitStats().inFlight.mutating > 0; i++) await sleep(20);
    assert.equal(api.server.limitStats().inFlight.mutating, 0);
  });

  it('never cuts a watch stream at the request timeout (it bounds receiving, not answering)', async () => {
    const w = await api.watch('/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=3');
    await sleep(2000);
    const r = await api.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: { metadata: { name: 'after-request-timeout' } },
    });
    assert.equal(r.status, 201, r.text);
    const events = await w.waitFor(1, 2000);
    assert.equal(events.at(-1)?.object.metadata?.name, 'after-request-timeout');
    w.close();
  });

  it('closes 20 connections that send their headers a byte every 100 ms, at the timeout, with 408', async () => {
    const probes = await Promise.all(Array.from({ length: 20 }, () => rawConnect(port)));
    for (const p of probes)
      trickle(p.socket, `GET /version HTTP/1.1\r\nHost: x\r\n${'X'.repeat(1000)}`, 100);
    const times = await Promise.all(probes.map((p) => p.closed));
    for (const [i, ms] of times.entries()) {
      // 1 s, checked every 250 ms (a quarter of the timeout), plus scheduling slack.
      assert.ok(ms >= 950 && ms < 2000, `closed after ${Math.round(ms)} ms`);
      assert.match(probes[i]!.received(), /^HTTP\/1\.1 408 Request Timeout/);
    }
  });

  it('closes a connection that sends nothing', async () => {
    const p = await rawConnect(port);
    const ms = await p.closed;
    assert.ok(ms >= 950 && ms < 2000, `closed after ${Math.round(ms)} ms`);
  });

  it('keeps an idle keep-alive connection for the idle timeout (+ node’s 1 s grace), then closes it', async () => {
    const p = await rawConnect(port);
    p.socket.write('GET /version HTTP/1.1\r\nHost: x\r\n\r\n');
    await sleep(600);
    // Reused within the idle timeout: served.
    p.socket.write('GET /version HTTP/1.1\r\nHost: x\r\n\r\n');
    await sleep(100);
    assert.equal(p.received().match(/HTTP\/1\.1 200 OK/g)?.length, 2);
    assert.match(p.received(), /Keep-Alive: timeout=1/);
    const ms = await p.closed;
    // Last response at ~700 ms; idle 1 s, closed by node 1 s after the advertised timeout.
    assert.ok(ms >= 1650 && ms < 3200, `closed after ${Math.round(ms)} ms`);
    assert.doesNotMatch(p.received(), /408/);
  });

  it('accepts 900 KiB of headers and answers 431 past 1 MiB (upstream MaxHeaderBytes)', async () => {
    const send = async (headerBytes: number): Promise<string> => {
      const p = await rawConnect(port);
      p.socket.write(
        `GET /version HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(headerBytes)}\r\nConnection: close\r\n\r\n`,
      );
      await p.closed;
      return p.received();
    };
    assert.match(await send(900 * 1024), /^HTTP\/1\.1 200 OK/);
    assert.match(await send(1024 * 1024 + 1), /^HTTP\/1\.1 431 Request Header Fields Too Large/);
  });
});

describe('TLS: the handshake is bounded by the read-header timeout', () => {
  let api: TestServer;
  let port: number;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fleetyard-conn-'));
    const certs = await ensureServingCertificates({ dir, hosts: ['127.0.0.1'] });
    api = await startTestServer({
      server: { tls: { cert: certs.certPem, key: certs.keyPem }, readHeaderTimeoutMs: 1000 },
    });
    port = portOf(api.url);
  });
  after(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('closes a connection that never starts the handshake, and one that trickles it', async () => {
    const silent = await rawConnect(port);
    const slow = await rawConnect(port);
    // A TLS 1.2 ClientHello record header, then its body a byte every 100 ms (node's own
    // handshakeTimeout, 120 s of *inactivity*, never fires for this).
    slow.socket.write(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00]));
    trickle(slow.socket, '\x01'.repeat(512), 100);
    for (const ms of await Promise.all([silent.closed, slow.closed])) {
      assert.ok(ms >= 950 && ms < 2000, `closed after ${Math.round(ms)} ms`);
    }
    assert.ok(api.server.limitStats().handshakeTimeouts >= 2);
  });

  it('keeps a connection whose handshake is done: a watch lives past the timeout', async () => {
    const socket = tlsConnect({ port, host: '127.0.0.1', rejectUnauthorized: false });
    await new Promise<void>((r) => socket.once('secureConnect', () => r()));
    const p = probe(socket);
    socket.write('GET /api/v1/namespaces?watch=true HTTP/1.1\r\nHost: x\r\n\r\n');
    await sleep(2500);
    assert.equal(socket.destroyed, false);
    assert.match(p.received(), /^HTTP\/1\.1 200 OK/);
    assert.match(p.received(), /"type":"ADDED"/);
    socket.destroy();
  });
});

describe('the connection bound', () => {
  let api: TestServer;
  let port: number;
  before(async () => {
    api = await startTestServer({ server: { maxConnections: 4 } });
    port = portOf(api.url);
  });
  after(() => api.close());

  it('closes connections past maxConnections at accept, and accepts again when one closes', async () => {
    const open = await Promise.all(Array.from({ length: 4 }, () => rawConnect(port)));
    await sleep(50);
    const refused = await rawConnect(port);
    const ms = await refused.closed;
    assert.ok(ms < 500, `refused after ${Math.round(ms)} ms`);
    assert.equal(refused.received(), '');
    assert.equal(api.server.limitStats().droppedConnections, 1);
    open[0]!.socket.destroy();
    await open[0]!.closed;
    await sleep(50);
    const again = await rawConnect(port);
    again.socket.write('GET /version HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await again.closed;
    assert.match(again.received(), /^HTTP\/1\.1 200 OK/);
    for (const p of open) p.socket.destroy();
  });
});

describe('a watcher that never reads', () => {
  let api: TestServer;
  let port: number;
  before(async () => {
    api = await startTestServer();
    port = portOf(api.url);
  });
  after(() => api.close());

  const VALUE = 'v'.repeat(512 * 1024);
  const create = async (name: string, namespace = 'default'): Promise<void> => {
    const r = await api.request('POST', `/api/v1/namespaces/${namespace}/configmaps`, {
      body: { metadata: { name }, data: { v: VALUE } },
    });
    assert.equal(r.status, 201, r.text);
  };

  it('is cut off past 16 MiB unread while a reading watcher gets every event', async () => {
    const stalled = await rawConnect(port);
    stalled.socket.write(
      'GET /api/v1/namespaces/default/configmaps?watch=true HTTP/1.1\r\nHost: x\r\n\r\n',
    );
    await sleep(50);
    stalled.socket.pause();
    const reading = await api.watch('/api/v1/namespaces/default/configmaps?watch=true');
    // 72 events of 512 KiB: 36 MiB, past the limit plus what the kernel buffers (~4 MiB
    // measured on loopback, up to ~10 MiB with large socket buffers). The cut came at 39.
    const N = 72;
    for (let i = 0; i < N; i++) await create(`big-${i}`);
    await reading.waitFor(N, 10_000);
    assert.ok(reading.events.every((e) => e.type === 'ADDED'));
    reading.close();
    // Read what the stalled watcher was sent: a prefix of the events, then the end of the stream.
    stalled.socket.resume();
    const ended = await Promise.race([
      stalled.closed.then(() => true),
      sleep(3000).then(() => /\r\n0\r\n\r\n$/.test(stalled.received())),
    ]);
    assert.ok(ended, 'the stream ended');
    const bytes = stalled.received().length;
    assert.ok(bytes < MAX_BUFFERED_BYTES + 16 * 1024 * 1024, `${bytes} bytes sent`);
    const events = stalled.received().match(/"type":"ADDED"/g)?.length ?? 0;
    assert.ok(events > 0 && events < N, `${events} of ${N} events sent`);
    stalled.socket.destroy();
  });

  it('is not cut off for an initial state larger than the limit while it reads it', async () => {
    // 72 objects of 512 KiB (36 MiB): a new watch starts with all of them as ADDED, then gets
    // a live event. Counting the initial events would cut it at once.
    for (let i = 0; i < 72; i++) await create(`initial-${i}`, 'kube-public');
    const w = await api.watch('/api/v1/namespaces/kube-public/configmaps?watch=true');
    await w.waitFor(72, 10_000);
    await create('after-initial', 'kube-public');
    await w.waitFor(73, 5000);
    w.close();
  });
});
