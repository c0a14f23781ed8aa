/**
 * Hostile requests against the real `fleetyard up` (API server alone, SQLite): each of a fixed
 * set of small requests with large effects (issue 13's findings) is sent on a fresh TLS
 * connection while one well-behaved client GETs a ConfigMap in a closed loop.
 *
 * Figures: how many of the hostile requests got the answer upstream gives (a 4xx; a 200 for a
 * valid huge selector; the target is all of them: never a 5xx, a dropped connection or a dead
 * server), the slowest hostile answer, the server's RSS growth over the whole set (peak VmHWM
 * minus RSS before), and the well-behaved client's GET p99 while the set runs. Then
 * slow-header connections: N sockets that send one header byte every 2 s, and the longest any
 * of them lived (kube-apiserver's read-header timeout is 32 s).
 *
 * @module
 */
import tls from 'node:tls';
import { type Fleetyard, ApiClient as RawApi, startFleetyard } from './lib/fleetyard.js';
import { type BenchOptions, round, sleep } from './lib/options.js';
import { peakRssMb, rssMb } from './lib/proc.js';
import { type BenchRow, percentile } from './lib/report.js';

const CM = '/api/v1/namespaces/default/configmaps';
const TARGET_WORST_MS = 1000;
const TARGET_RSS_GROWTH_MB = 150;
const TARGET_GET_P99_MS = 50;
/** 32 s read-header timeout, checked every second, plus slack for a loaded machine. */
const TARGET_SLOW_HEADERS_S = 34;

interface Hostile {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly contentType?: string;
  readonly body?: string;
  readonly extraHeaders?: string;
  /** The answer a kube-apiserver would give too; default: any 4xx. */
  readonly expect?: number;
}

function nested(depth: number, leaf: string): string {
  return `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;
}

function amplifyingPatch(copies: number): string {
  const ops: object[] = [
    { op: 'add', path: '/metadata/annotations', value: { s: 'x'.repeat(1000) } },
  ];
  for (let i = 0; i < copies; i++) {
    ops.push({ op: 'copy', from: '/metadata/annotations', path: `/metadata/annotations/c${i}` });
  }
  return JSON.stringify(ops);
}

function aliasBomb(levels: number): string {
  const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < levels; i++) {
    const refs = Array.from({ length: 9 }, () => `*a${i - 1}`).join(',');
    lines.push(`a${i}: &a${i} [${refs}]`);
  }
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\ndata:\n  ${lines.join('\n  ')}\n`;
}

function hostileSet(): Hostile[] {
  const JSON_PATCH = 'application/json-patch+json';
  return [
    {
      name: 'json-patch copy amplification',
      method: 'PATCH',
      path: `${CM}/victim`,
      contentType: JSON_PATCH,
      body: amplifyingPatch(40),
    },
    {
      name: 'json-patch 10,001 operations',
      method: 'PATCH',
      path: `${CM}/victim`,
      contentType: JSON_PATCH,
      body: JSON.stringify(
        Array.from({ length: 10_001 }, () => ({ op: 'test', path: '/kind', value: 'ConfigMap' })),
      ),
    },
    {
      name: 'create nested 10,001 deep',
      method: 'POST',
      path: CM,
      contentType: 'application/json',
      body: `{"metadata":{"name":"deep"},"data":${nested(10_001, '1')}}`,
    },
    {
      name: 'merge patch nested 9,000 deep',
      method: 'PATCH',
      path: `${CM}/victim`,
      contentType: 'application/merge-patch+json',
      body: `{"data":${nested(9_000, '1')}}`,
    },
    {
      name: 'strategic patch nested 9,000 deep',
      method: 'PATCH',
      path: `${CM}/victim`,
      contentType: 'application/strategic-merge-patch+json',
      body: `{"data":${nested(9_000, '1')}}`,
    },
    {
      name: 'json patch value nested 9,000 deep',
      method: 'PATCH',
      path: `${CM}/victim`,
      contentType: JSON_PATCH,
      body: `[{"op":"add","path":"/data/x","value":${nested(9_000, '1')}}]`,
    },
    {
      name: 'yaml alias bomb',
      method: 'POST',
      path: CM,
      contentType: 'application/yaml',
      body: aliasBomb(9),
    },
    {
      name: 'body over 3 MiB',
      method: 'POST',
      path: CM,
      contentType: 'application/json',
      body: `{"metadata":{"name":"big"},"data":{"x":"${'x'.repeat(3 * 1024 * 1024)}"}}`,
    },
    {
      name: 'header over 1 MiB',
      method: 'GET',
      path: CM,
      extraHeaders: `X-Filler: ${'x'.repeat(1024 * 1024 + 1)}\r\n`,
    },
    {
      name: 'label selector of 60,000 terms (under the 1 MiB header limit)',
      method: 'GET',
      path: `${CM}?labelSelector=${encodeURIComponent(Array.from({ length: 60_000 }, (_, i) => `k${i}=v`).join(','))}`,
      // A valid selector that matches nothing: an empty list, as upstream answers.
      expect: 200,
    },
    { name: 'dot-dot name', method: 'DELETE', path: `${CM}/%2e%2e` },
  ];
}

/**
 * One hostile request on its own TLS connection; the status from the answer's status line
 * (status 0: the connection dropped without one). A raw socket, because the server may answer
 * before the body is sent (413) or without a length and close (431).
 */
function sendHostile(fy: Fleetyard, h: Hostile): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let text = '';
    let settled = false;
    const finish = (status: number): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve({ status, ms: performance.now() - started });
    };
    const socket = tls.connect({ host: fy.target.host, port: fy.target.port, ca: fy.target.ca });
    socket.on('error', () => finish(0));
    socket.on('close', () => finish(0));
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})[^\r]*\r\n[\s\S]*?\r\n\r\n/.exec(text);
      if (m) finish(Number(m[1]));
    });
    socket.once('secureConnect', () => {
      const body = h.body ?? '';
      const type = h.contentType !== undefined ? `Content-Type: ${h.contentType}\r\n` : '';
      socket.write(
        `${h.method} ${h.path} HTTP/1.1\r\nHost: ${fy.authority}\r\nAuthorization: Bearer ${fy.token}\r\nAccept: application/json\r\n${type}${h.extraHeaders ?? ''}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
      );
      socket.write(body);
    });
  });
}

/** A closed-loop GET of one object until `stop` is set; latencies in ms. */
async function wellBehavedClient(fy: Fleetyard, stop: { done: boolean }): Promise<number[]> {
  const client = await RawApi.open(fy);
  const latencies: number[] = [];
  try {
    while (!stop.done) {
      const started = performance.now();
      const res = await client.request('GET', `${CM}/victim`);
      if (res.status !== 200) throw new Error(`well-behaved GET: HTTP ${res.status}`);
      latencies.push(performance.now() - started);
    }
  } finally {
    client.close();
  }
  return latencies;
}

/**
 * Opens `count` connections that trickle a header byte every 2 s; the longest any of them
 * lived after its TLS handshake, in seconds. The handshake has a 32 s deadline of its own, as
 * in Go's server, and 1,000 simultaneous handshakes queue for seconds on 2 cores (the server
 * sees a handshake done later than the client does), so connections open at 100/s and the
 * header phase is what is timed, each connection on its own.
 */
async function slowHeaders(
  fy: Fleetyard,
  count: number,
  capMs: number,
  log: (line: string) => void,
): Promise<number> {
  const lifetimes = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      new Promise<void>((resolve) => setTimeout(resolve, i * 10)).then(
        () =>
          new Promise<number>((resolve) => {
            let opened = performance.now();
            const socket = tls.connect({
              host: fy.target.host,
              port: fy.target.port,
              ca: fy.target.ca,
            });
            const timer = setInterval(() => socket.write('X'), 2000);
            socket.once('secureConnect', () => {
              opened = performance.now();
              socket.write(`GET ${CM} HTTP/1.1\r\nHost: x\r\nX-Slow: `);
            });
            socket.on('error', () => undefined);
            // Read (flowing mode): a paused socket sees the server's 408 and close only when
            // its next write fails, 2 s later.
            socket.on('data', () => undefined);
            socket.once('close', () => {
              clearInterval(timer);
              resolve((performance.now() - opened) / 1000);
            });
            setTimeout(() => socket.destroy(), capMs).unref();
          }),
      ),
    ),
  );
  const sorted = [...lifetimes].sort((a, b) => a - b);
  log(
    `slow headers: lifetimes min ${sorted[0]?.toFixed(1)} s, median ${sorted[sorted.length >> 1]?.toFixed(1)} s, max ${sorted.at(-1)?.toFixed(1)} s`,
  );
  return Math.max(...lifetimes);
}

export async function benchHostile(options: BenchOptions): Promise<BenchRow[]> {
  const fy = await startFleetyard();
  try {
    const setup = await RawApi.open(fy);
    await setup.request(
      'POST',
      CM,
      JSON.stringify({ metadata: { name: 'victim' }, data: { k: 'v' } }),
    );
    setup.close();
    await sleep(500);
    const rssBefore = rssMb(fy.pid);
    const stop = { done: false };
    const getter = wellBehavedClient(fy, stop);
    const rounds = options.quick ? 1 : 3;
    let fourXX = 0;
    let total = 0;
    let worstMs = 0;
    let worstName = '';
    for (let r = 0; r < rounds; r++) {
      for (const h of hostileSet()) {
        const { status, ms } = await sendHostile(fy, h);
        options.log(`hostile: ${h.name}: ${status} in ${Math.round(ms)} ms`);
        total++;
        const expected =
          h.expect === undefined ? status >= 400 && status < 500 : status === h.expect;
        if (expected) fourXX++;
        if (ms > worstMs) {
          worstMs = ms;
          worstName = h.name;
        }
      }
    }
    stop.done = true;
    const latencies = await getter;
    const growth = peakRssMb(fy.pid) - rssBefore;
    const slowCount = options.quick ? 100 : 1000;
    const slowS = await slowHeaders(fy, slowCount, 120_000, options.log);
    return [
      {
        name: 'hostile requests answered as upstream (4xx; 200 for a valid selector)',
        value: fourXX,
        unit: `of ${total}`,
        target: `= ${total}`,
        met: fourXX === total,
      },
      {
        name: 'hostile request, slowest answer',
        value: round(worstMs),
        unit: 'ms',
        target: `<= ${TARGET_WORST_MS}`,
        met: worstMs <= TARGET_WORST_MS,
        note: worstName,
      },
      {
        name: 'server RSS growth over the hostile set (peak)',
        value: round(growth),
        unit: 'MB',
        target: `<= ${TARGET_RSS_GROWTH_MB}`,
        met: growth <= TARGET_RSS_GROWTH_MB,
      },
      {
        name: 'well-behaved GET p99 during the hostile set',
        value: round(percentile(latencies, 99)),
        unit: 'ms',
        target: `<= ${TARGET_GET_P99_MS}`,
        met: percentile(latencies, 99) <= TARGET_GET_P99_MS,
        note: `${latencies.length} GETs`,
      },
      {
        name: `${slowCount} slow-header connections, longest lived after the handshake`,
        value: round(slowS),
        unit: 's',
        target: `<= ${TARGET_SLOW_HEADERS_S}`,
        met: slowS <= TARGET_SLOW_HEADERS_S,
      },
    ];
  } finally {
    await fy.stop();
  }
}
