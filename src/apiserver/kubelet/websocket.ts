/**
 * A server side of RFC 6455 WebSocket, just what the streaming subresources need: the
 * handshake (`Sec-WebSocket-Accept`, a subprotocol chosen from the client's list), frames read
 * from a socket (masked, possibly fragmented, control frames interleaved), pings answered
 * with pongs (client-go sends one every 5 s and drops a connection that does not answer),
 * and a close handshake. Written here rather than taken from a library: it is small, and the
 * API server stays free of runtime dependencies it would have to bundle.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

export const OPCODE = { continuation: 0, text: 1, binary: 2, close: 8, ping: 9, pong: 10 } as const;

/** A client message larger than this closes the connection with 1009 (kubectl cp sends 32 KiB). */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** upstream `wsstream.IsWebSocketRequest`: `Upgrade: websocket` and `Connection` naming upgrade. */
export function isWebSocketRequest(req: IncomingMessage): boolean {
  if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return false;
  return /(^|,)\s*upgrade\s*($|,)/.test((req.headers.connection ?? '').toLowerCase());
}

/** The `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key`. */
export function acceptKey(key: string): string {
  return createHash('sha1')
    .update(key + GUID)
    .digest('base64');
}

/** The client's offered subprotocols, in its order. */
export function offeredProtocols(req: IncomingMessage): string[] {
  const header = req.headers['sec-websocket-protocol'];
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** One frame on the wire. */
export interface Frame {
  readonly fin: boolean;
  readonly opcode: number;
  readonly payload: Buffer;
}

/** A server frame (never masked). */
export function encodeFrame(opcode: number, payload: Uint8Array, fin = true): Buffer {
  const len = payload.length;
  const head = len < 126 ? 2 : len < 65_536 ? 4 : 10;
  const out = Buffer.allocUnsafe(head + len);
  out[0] = (fin ? 0x80 : 0) | opcode;
  if (len < 126) out[1] = len;
  else if (len < 65_536) {
    out[1] = 126;
    out.writeUInt16BE(len, 2);
  } else {
    out[1] = 127;
    out.writeBigUInt64BE(BigInt(len), 2);
  }
  out.set(payload, head);
  return out;
}

/** A client frame (masked with `mask`): for tests and for clients. */
export function encodeMaskedFrame(
  opcode: number,
  payload: Uint8Array,
  mask: Uint8Array,
  fin = true,
): Buffer {
  const plain = encodeFrame(opcode, payload, fin);
  const head = plain.length - payload.length;
  const out = Buffer.allocUnsafe(plain.length + 4);
  plain.copy(out, 0, 0, head);
  out[1] = (out[1] ?? 0) | 0x80;
  out.set(mask.subarray(0, 4), head);
  for (let i = 0; i < payload.length; i++)
    out[head + 4 + i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
  return out;
}

/** Protocol violations end the connection with this close code. */
export class FrameError extends Error {
  readonly closeCode: number;
  constructor(closeCode: number, message: string) {
    super(message);
    this.closeCode = closeCode;
  }
}

/** Splits a byte stream into frames; feed it chunks as they arrive. */
export class FrameReader {
  #buffer: Buffer = Buffer.alloc(0);

  /** The complete frames in what has arrived so far (a partial one waits for more bytes). */
  push(chunk: Buffer): Frame[] {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    const frames: Frame[] = [];
    for (;;) {
      const frame = this.#next();
      if (frame === undefined) return frames;
      frames.push(frame);
    }
  }

  #next(): Frame | undefined {
    const b = this.#buffer;
    if (b.length < 2) return undefined;
    const b0 = b[0] ?? 0;
    const b1 = b[1] ?? 0;
    if ((b0 & 0x70) !== 0) throw new FrameError(1002, 'reserved bits set');
    const masked = (b1 & 0x80) !== 0;
    let len = b1 & 0x7f;
    let offset = 2;
    if (len === 126) {
      if (b.length < 4) return undefined;
      len = b.readUInt16BE(2);
      offset = 4;
    } else if (len === 127) {
      if (b.length < 10) return undefined;
      const big = b.readBigUInt64BE(2);
      if (big > BigInt(MAX_MESSAGE_BYTES)) throw new FrameError(1009, 'message too big');
      len = Number(big);
      offset = 10;
    }
    if (len > MAX_MESSAGE_BYTES) throw new FrameError(1009, 'message too big');
    const maskOffset = offset;
    if (masked) offset += 4;
    if (b.length < offset + len) return undefined;
    const payload = Buffer.from(b.subarray(offset, offset + len));
    if (masked) {
      for (let i = 0; i < len; i++) payload[i] = (payload[i] ?? 0) ^ (b[maskOffset + (i % 4)] ?? 0);
    }
    this.#buffer = b.subarray(offset + len);
    return { fin: (b0 & 0x80) !== 0, opcode: b0 & 0x0f, payload };
  }
}

/** A whole message: text or binary. */
export interface Message {
  readonly binary: boolean;
  readonly data: Buffer;
}

/** An accepted connection: messages in, messages out, pings answered, one close. */
export class WebSocketConnection {
  readonly #socket: Duplex;
  readonly #reader = new FrameReader();
  #fragments: Buffer[] = [];
  #fragmentOpcode = 0;
  #closed = false;
  onMessage: (m: Message) => void = () => undefined;
  onClose: () => void = () => undefined;

  constructor(socket: Duplex, head: Buffer) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
    socket.on('close', () => this.#ended());
    socket.on('error', () => this.#ended());
    if (head.length > 0) queueMicrotask(() => this.#receive(head));
  }

  get closed(): boolean {
    return this.#closed;
  }

  send(data: Uint8Array, binary = true): void {
    if (this.#closed) return;
    this.#socket.write(encodeFrame(binary ? OPCODE.binary : OPCODE.text, data));
  }

  /** Sends a close frame and ends the socket (the client's reply is not awaited). */
  close(code = 1000, reason = ''): void {
    if (this.#closed) return;
    const payload = Buffer.alloc(2 + Buffer.byteLength(reason));
    payload.writeUInt16BE(code, 0);
    payload.write(reason, 2);
    this.#socket.write(encodeFrame(OPCODE.close, payload));
    this.#socket.end();
    this.#ended();
  }

  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onClose();
  }

  #receive(chunk: Buffer): void {
    if (this.#closed) return;
    let frames: Frame[];
    try {
      frames = this.#reader.push(chunk);
    } catch (e) {
      this.close(e instanceof FrameError ? e.closeCode : 1002);
      return;
    }
    for (const f of frames) this.#frame(f);
  }

  #frame(f: Frame): void {
    if (this.#closed) return;
    switch (f.opcode) {
      case OPCODE.ping:
        this.#socket.write(encodeFrame(OPCODE.pong, f.payload));
        return;
      case OPCODE.pong:
        return;
      case OPCODE.close:
        // The client closes: answer with a normal close (its code is not echoed).
        this.close(1000);
        return;
      case OPCODE.text:
      case OPCODE.binary:
        this.#fragmentOpcode = f.opcode;
        this.#fragments = [f.payload];
        break;
      case OPCODE.continuation:
        this.#fragments.push(f.payload);
        if (this.#fragments.reduce((n, b) => n + b.length, 0) > MAX_MESSAGE_BYTES) {
          this.close(1009);
          return;
        }
        break;
      default:
        this.close(1002);
        return;
    }
    if (!f.fin) return;
    const data =
      this.#fragments.length === 1 ? this.#fragments[0]! : Buffer.concat(this.#fragments);
    this.#fragments = [];
    this.onMessage({ binary: this.#fragmentOpcode === OPCODE.binary, data });
  }
}

/** The 101 answer accepting `protocol` (empty: none was offered). */
export function handshakeResponse(req: IncomingMessage, protocol: string): string {
  const key = req.headers['sec-websocket-key'] ?? '';
  const lines = [
    'HTTP/1.1 101 Switching Protocols',
    'Upgrade: websocket',
    'Connection: Upgrade',
    `Sec-WebSocket-Accept: ${acceptKey(key)}`,
  ];
  if (protocol !== '') lines.push(`Sec-WebSocket-Protocol: ${protocol}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}
