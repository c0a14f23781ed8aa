import assert from 'node:assert/strict';
import { Duplex } from 'node:stream';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ByteQueue, ChannelSession, chooseStreamProtocol, exitStatusJson } from './channels.js';
import {
  acceptKey,
  encodeFrame,
  encodeMaskedFrame,
  FrameError,
  FrameReader,
  MAX_MESSAGE_BYTES,
  OPCODE,
  WebSocketConnection,
} from './websocket.js';

const MASK = Buffer.from([1, 2, 3, 4]);

describe('WebSocket framing', () => {
  it('computes the accept key of RFC 6455 section 1.3', () => {
    assert.equal(acceptKey('dGhlIHNhbXBsZSBub25jZQ=='), 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
  });

  it('reads back masked frames of every length class, whatever the chunking', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 70_000 }),
        fc.integer({ min: 1, max: 5000 }),
        (payload, chunk) => {
          const wire = encodeMaskedFrame(OPCODE.binary, payload, MASK);
          const reader = new FrameReader();
          const frames = [];
          for (let i = 0; i < wire.length; i += chunk)
            frames.push(...reader.push(wire.subarray(i, i + chunk)));
          assert.equal(frames.length, 1);
          assert.deepEqual(new Uint8Array(frames[0]!.payload), payload);
          assert.equal(frames[0]!.fin, true);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('writes server frames unmasked with the right length encoding', () => {
    const cases = [
      [0, 2],
      [125, 127],
      [126, 130],
      [65_535, 65_539],
      [65_536, 65_546],
    ] as const;
    for (const [len, total] of cases) {
      const frame = encodeFrame(OPCODE.binary, new Uint8Array(len));
      assert.equal(frame.length, total, `payload ${len}`);
      assert.equal((frame[1] ?? 0) & 0x80, 0);
    }
  });

  it('refuses a frame larger than the limit', () => {
    const head = Buffer.from([0x82, 0xff, 0, 0, 0, 0, 0x10, 0, 0, 0]);
    assert.ok(MAX_MESSAGE_BYTES < 0x10_0000_0000);
    assert.throws(
      () => new FrameReader().push(head),
      (e: unknown) => e instanceof FrameError && e.closeCode === 1009,
    );
  });
});

/** A connection on an in-memory socket: what the server writes, and a way to send to it. */
function connection(): {
  ws: WebSocketConnection;
  sent: () => Buffer[];
  send: (b: Buffer) => void;
} {
  const written: Buffer[] = [];
  const socket = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk);
      done();
    },
  });
  const ws = new WebSocketConnection(socket, Buffer.alloc(0));
  return {
    ws,
    sent: () =>
      written.flatMap((w) =>
        new FrameReader().push(w).map((f) => Buffer.concat([Buffer.from([f.opcode]), f.payload])),
      ),
    send: (b) => socket.emit('data', b),
  };
}

describe('WebSocketConnection', () => {
  it('answers a ping with a pong carrying its payload, and reassembles fragments', () => {
    const c = connection();
    const messages: Buffer[] = [];
    c.ws.onMessage = (m) => messages.push(m.data);
    c.send(encodeMaskedFrame(OPCODE.ping, Buffer.from('hb'), MASK));
    c.send(encodeMaskedFrame(OPCODE.binary, Buffer.from('ab'), MASK, false));
    c.send(encodeMaskedFrame(OPCODE.continuation, Buffer.from('cd'), MASK, true));
    assert.deepEqual(c.sent(), [Buffer.from([OPCODE.pong, ...Buffer.from('hb')])]);
    assert.deepEqual(messages, [Buffer.from('abcd')]);
  });
});

describe('channel protocols', () => {
  const cases: { offered: string[]; want: string | undefined }[] = [
    { offered: ['v5.channel.k8s.io', 'v4.channel.k8s.io'], want: 'v5.channel.k8s.io' },
    { offered: ['v4.channel.k8s.io', 'v5.channel.k8s.io'], want: 'v4.channel.k8s.io' },
    { offered: ['SPDY/3.1+portforward.k8s.io'], want: undefined },
    { offered: [], want: '' },
  ];
  for (const c of cases) {
    it(`chooses from [${c.offered.join(', ')}]`, () =>
      assert.equal(chooseStreamProtocol(c.offered), c.want));
  }

  it('reports exit codes as upstream Status documents', () => {
    assert.deepEqual(JSON.parse(exitStatusJson(0, ['true'])), { metadata: {}, status: 'Success' });
    const failed = JSON.parse(exitStatusJson(3, ['sh', '-c', 'exit 3']));
    assert.equal(failed.reason, 'NonZeroExitCode');
    assert.deepEqual(failed.details.causes, [{ reason: 'ExitCode', message: '3' }]);
  });

  it('prefixes channels (binary and base64) and takes v5 stream closes', () => {
    for (const protocol of ['v5.channel.k8s.io', 'base64.channel.k8s.io']) {
      const c = connection();
      const session = new ChannelSession(c.ws, protocol);
      const data: string[] = [];
      const closed: number[] = [];
      session.onData = (ch, d) => data.push(`${ch}:${d.toString()}`);
      session.onStreamClose = (ch) => closed.push(ch);
      session.write(1, Buffer.from('out'));
      const base64 = protocol.startsWith('base64');
      const input = base64
        ? Buffer.from(`0${Buffer.from('in').toString('base64')}`)
        : Buffer.from([0, ...Buffer.from('in')]);
      c.send(encodeMaskedFrame(base64 ? OPCODE.text : OPCODE.binary, input, MASK));
      if (!base64) c.send(encodeMaskedFrame(OPCODE.binary, Buffer.from([255, 0]), MASK));
      const [frame] = c.sent();
      const body = frame!.subarray(1);
      assert.equal(
        base64 ? body.toString() : body.toString('latin1'),
        base64 ? `1${Buffer.from('out').toString('base64')}` : '\x01out',
      );
      assert.deepEqual(data, ['0:in']);
      assert.deepEqual(closed, base64 ? [] : [0]);
    }
  });
});

describe('ByteQueue', () => {
  it('yields what was pushed, in order, until ended', async () => {
    const q = new ByteQueue();
    q.push(Buffer.from('a'));
    setImmediate(() => {
      q.push(Buffer.from('b'));
      q.end();
    });
    const got: string[] = [];
    for await (const c of q) got.push(Buffer.from(c).toString());
    assert.deepEqual(got, ['a', 'b']);
  });
});
