/**
 * The kubelet endpoints through a real in-process API server (plain HTTP, memory backend) and
 * a fake {@link KubeletEndpoints}: pod logs (whole and followed on a fake clock), a WebSocket
 * exec spoken byte by byte, the refusal an SPDY upgrade gets, an upgrade request to another
 * path served as an ordinary request, and the Metrics API with its discovery.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { FakeClock } from '../../util/clock.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import type { KubeletEndpoints } from './types.js';
import { type Frame, FrameReader, OPCODE } from './websocket.js';

const T0 = Date.UTC(2026, 0, 1);
const clock = new FakeClock(T0);

const fake: KubeletEndpoints = {
  logs: {
    containerLog: (pod, container) => ({
      lines: [
        { at: T0, text: `hello from ${container}` },
        { at: T0 + 5000, text: 'five seconds in' },
      ],
      containerID: pod.status?.containerStatuses?.[0]?.containerID ?? '',
      running: true,
    }),
  },
  streams: {
    exec: async (_pod, _container, command, io) => {
      io.stdout?.(Buffer.from(`${command.join(' ')}\n`));
      return { exitCode: command[0] === 'false' ? 1 : 0 };
    },
    portForwardRefusal: () => 'nothing listens',
  },
  metrics: {
    podUsage: (pod) => [
      {
        name: pod.spec?.containers[0]?.name ?? '',
        cpuNanoCores: 250_000_000n,
        memoryBytes: 64n << 20n,
      },
    ],
    nodeUsage: () => ({ cpuNanoCores: 1_000_000_000n, memoryBytes: 1n << 30n }),
  },
};

let t: TestServer;

before(async () => {
  t = await startTestServer({ clock, server: { kubelet: fake } });
  const pods = t.server.registry.get('', 'v1', 'pods')!;
  const pod: KubeObject = {
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx' }] },
  };
  await t.server.store.create(pods, 'default', pod);
  await t.server.store.update(
    pods,
    'default',
    'web',
    (p) => ({
      ...p,
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'app',
            image: 'nginx',
            imageID: '',
            ready: true,
            restartCount: 0,
            containerID: 'sim://1',
            state: { running: { startedAt: '2026-01-01T00:00:00Z' } },
          },
        ],
      },
    }),
    { subresource: 'status' },
  );
  const nodes = t.server.registry.get('', 'v1', 'nodes')!;
  await t.server.store.create(nodes, '', { metadata: { name: 'node-1' } });
});

after(() => t.close());

describe('pods/log', () => {
  it('answers the lines written so far as text', async () => {
    const res = await t.request('GET', '/api/v1/namespaces/default/pods/web/log?timestamps=true');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/plain');
    assert.equal(res.text, '2026-01-01T00:00:00Z hello from app\n');
  });

  it('follows: a line is written when the clock reaches it', async () => {
    const socket = await rawRequest(
      'GET /api/v1/namespaces/default/pods/web/log?follow=true HTTP/1.1\r\nHost: x\r\n\r\n',
    );
    const received = collect(socket);
    await until(() => received().includes('hello from app\n'));
    assert.ok(!received().includes('five seconds in'));
    await clock.step(5000);
    await until(() => received().includes('five seconds in\n'));
    socket.destroy();
  });

  it('refuses a bad option with a 422 on PodLogOptions', async () => {
    const res = await t.request('GET', '/api/v1/namespaces/default/pods/web/log?limitBytes=0');
    assert.equal(res.status, 422);
    assert.match(String(res.body.message), /PodLogOptions "web" is invalid/);
  });
});

describe('pods/exec', () => {
  it('speaks v5.channel.k8s.io: a first empty stdout message, the output, a Success status, a close', async () => {
    const { frames } = await websocketExec('command=echo&command=hi&stdout=true');
    const binary = frames
      .filter((f) => f.opcode === OPCODE.binary)
      .map((f) => [f.payload[0], f.payload.subarray(1).toString()]);
    assert.deepEqual(binary, [
      [1, ''],
      [1, 'echo hi\n'],
      [3, '{"metadata":{},"status":"Success"}'],
    ]);
    assert.equal(frames.at(-1)?.opcode, OPCODE.close);
  });

  it('reports an exit code as a NonZeroExitCode Status', async () => {
    const { frames } = await websocketExec('command=false&stdout=true');
    const status = frames.find((f) => f.opcode === OPCODE.binary && f.payload[0] === 3);
    const doc = JSON.parse(status!.payload.subarray(1).toString());
    assert.equal(doc.reason, 'NonZeroExitCode');
    assert.deepEqual(doc.details.causes, [{ reason: 'ExitCode', message: '1' }]);
  });

  it('refuses SPDY with a Status that names the WebSocket protocol', async () => {
    const socket = await rawRequest(
      'POST /api/v1/namespaces/default/pods/web/exec?command=ls&stdout=true HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n\r\n',
    );
    const text = await ended(socket);
    assert.match(text, /^HTTP\/1.1 400 Bad Request/);
    assert.match(text, /over WebSocket only \(v5.channel.k8s.io\), not SPDY/);
  });

  it('answers a plain request for exec with upstream 400 Upgrade request required', async () => {
    const res = await t.request('GET', '/api/v1/namespaces/default/pods/web/exec?command=ls');
    assert.equal(res.status, 400);
    assert.equal(res.body.message, 'Upgrade request required');
  });

  it('serves an upgrade request to any other path as an ordinary request', async () => {
    const socket = await rawRequest(
      'GET /version HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n',
    );
    const text = await ended(socket);
    assert.match(text, /^HTTP\/1.1 200 OK/);
    assert.match(text, /"gitVersion"/);
  });
});

describe('metrics.k8s.io', () => {
  it('is in discovery, legacy and aggregated', async () => {
    const legacy = await t.request('GET', '/apis');
    assert.ok(JSON.stringify(legacy.body).includes('"metrics.k8s.io/v1beta1"'));
    const list = await t.request('GET', '/apis/metrics.k8s.io/v1beta1');
    const names = (list.body.resources as { name: string; kind: string }[]).map(
      (r) => `${r.name}:${r.kind}`,
    );
    assert.deepEqual(names, ['nodes:NodeMetrics', 'pods:PodMetrics']);
  });

  it('serves PodMetrics and NodeMetrics as metrics-server shapes them', async () => {
    const pods = await t.request(
      'GET',
      '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods?labelSelector=app%3Dweb',
    );
    assert.equal(pods.body.kind, 'PodMetricsList');
    assert.deepEqual((pods.body.items as unknown[])[0], {
      metadata: {
        name: 'web',
        namespace: 'default',
        creationTimestamp: '2026-01-01T00:00:05Z',
        labels: { app: 'web' },
      },
      timestamp: '2026-01-01T00:00:05Z',
      window: '10s',
      containers: [{ name: 'app', usage: { cpu: '250m', memory: '64Mi' } }],
    });
    const none = await t.request(
      'GET',
      '/apis/metrics.k8s.io/v1beta1/pods?labelSelector=app%3Dother',
    );
    assert.deepEqual(none.body.items, []);
    const node = await t.request('GET', '/apis/metrics.k8s.io/v1beta1/nodes/node-1');
    assert.equal(node.body.kind, 'NodeMetrics');
    assert.deepEqual(node.body.usage, { cpu: '1', memory: '1Gi' });
    const missing = await t.request('GET', '/apis/metrics.k8s.io/v1beta1/nodes/nope');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.message, 'nodemetrics.metrics.k8s.io "nope" not found');
  });
});

function rawRequest(head: string): Promise<Socket> {
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(head);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

function collect(socket: Socket): () => string {
  let text = '';
  socket.on('data', (d: Buffer) => {
    text += d.toString('utf8');
  });
  return () => text;
}

function ended(socket: Socket): Promise<string> {
  const text = collect(socket);
  return new Promise((resolve) => socket.once('close', () => resolve(text())));
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setImmediate(r));
  assert.ok(check(), 'condition not reached');
}

/** A WebSocket exec: the handshake, then every server frame until the socket closes. */
async function websocketExec(query: string): Promise<{ frames: Frame[] }> {
  const socket = await rawRequest(
    `GET /api/v1/namespaces/default/pods/web/exec?${query} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
      'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: v5.channel.k8s.io, v4.channel.k8s.io\r\n\r\n',
  );
  const chunks: Buffer[] = [];
  socket.on('data', (d: Buffer) => chunks.push(d));
  await new Promise((resolve) => socket.once('close', resolve));
  const all = Buffer.concat(chunks);
  const headEnd = all.indexOf('\r\n\r\n');
  const head = all.subarray(0, headEnd).toString();
  assert.match(head, /^HTTP\/1.1 101 Switching Protocols/);
  assert.match(head, /Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK\+xOo=/);
  assert.match(head, /Sec-WebSocket-Protocol: v5.channel.k8s.io/);
  return { frames: new FrameReader().push(all.subarray(headEnd + 4)) };
}
