/**
 * A lean HTTP/1.1 client over one keep-alive socket (plain TCP or TLS), one request at a
 * time. The load generators use it instead of `node:http`'s client because on a 2-core
 * machine the generator shares the CPU with the server under test: a `node:http` client
 * process saturates a core at ~2,600 etcd puts/s, while writing one pre-rendered request
 * string and scanning the answer's bytes does 5,600 puts/s on ~0.2 cores.
 *
 * Responses are parsed just enough for the servers benchmarked here: a status line,
 * `Content-Length` or `Transfer-Encoding: chunked` (no trailers), no 1xx responses.
 *
 * @module
 */
import net from 'node:net';
import tls from 'node:tls';

export interface Target {
  readonly host: string;
  readonly port: number;
  /** PEM CA; when present the connection is TLS and the certificate is verified. */
  readonly ca?: string;
}

export interface RawResponse {
  readonly status: number;
  readonly body: Buffer;
}

const CRLF2 = Buffer.from('\r\n\r\n');

/** Parses `https://127.0.0.1:6443` (or `http://…`) into a {@link Target}. */
export function targetFromUrl(url: string, ca?: string): Target {
  const u = new URL(url);
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  return u.protocol === 'https:'
    ? { host: u.hostname, port, ca: ca ?? '' }
    : { host: u.hostname, port };
}

interface Pending {
  resolve(r: RawResponse): void;
  reject(e: Error): void;
}

/** One keep-alive connection; `request` must not be called again before the last settled. */
export class RawConnection {
  readonly #socket: net.Socket;
  #chunks: Buffer[] = [];
  #buffered = 0;
  /** Bytes needed before parsing is worth trying again (a large body arrives in ~16 KiB TLS records). */
  #need = 0;
  #pending: Pending | undefined;
  #error: Error | undefined;

  private constructor(socket: net.Socket) {
    this.#socket = socket;
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => this.#onData(d));
    socket.on('error', (e) => this.#fail(e));
    socket.on('close', () => this.#fail(new Error('connection closed')));
  }

  static open(target: Target): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket =
        target.ca !== undefined
          ? tls.connect({ host: target.host, port: target.port, ca: target.ca }, () => done())
          : net.connect({ host: target.host, port: target.port }, () => done());
      const done = (): void => {
        socket.off('error', reject);
        resolve(new RawConnection(socket));
      };
      socket.once('error', reject);
    });
  }

  /** Sends `head` (request line and headers, without the blank line) and `body`. */
  request(head: string, body = ''): Promise<RawResponse> {
    if (this.#error) return Promise.reject(this.#error);
    if (this.#pending) return Promise.reject(new Error('request already in flight'));
    return new Promise((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#socket.write(`${head}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
  }

  close(): void {
    this.#socket.destroy();
  }

  #fail(e: Error): void {
    this.#error ??= e;
    const p = this.#pending;
    this.#pending = undefined;
    p?.reject(e);
  }

  #onData(d: Buffer): void {
    this.#chunks.push(d);
    this.#buffered += d.length;
    if (!this.#pending || this.#buffered < this.#need) return;
    const buf = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
    this.#chunks = [buf];
    const parsed = parseResponse(buf);
    if ('need' in parsed) {
      this.#need = parsed.need;
      return;
    }
    const rest = buf.subarray(parsed.consumed);
    this.#chunks = rest.length > 0 ? [rest] : [];
    this.#buffered = rest.length;
    this.#need = 0;
    const p = this.#pending;
    this.#pending = undefined;
    p.resolve(parsed.response);
  }
}

interface Parsed {
  readonly response: RawResponse;
  readonly consumed: number;
}

interface NeedMore {
  /** Total bytes to wait for before trying again (a lower bound). */
  readonly need: number;
}

/** A complete response at the start of `buf`, or how many bytes to wait for. */
export function parseResponse(buf: Buffer): Parsed | NeedMore {
  const headEnd = buf.indexOf(CRLF2);
  if (headEnd < 0) return { need: buf.length + 1 };
  const head = buf.toString('latin1', 0, headEnd);
  const status = Number(head.slice(9, 12));
  const bodyStart = headEnd + 4;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) {
    const end = bodyStart + Number(length[1]);
    if (buf.length < end) return { need: end };
    return { response: { status, body: buf.subarray(bodyStart, end) }, consumed: end };
  }
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) return parseChunked(buf, status, bodyStart);
  // No length and not chunked: only bodiless responses are expected here.
  return { response: { status, body: Buffer.alloc(0) }, consumed: bodyStart };
}

function parseChunked(buf: Buffer, status: number, start: number): Parsed | NeedMore {
  const more = { need: buf.length + 1 };
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buf.indexOf('\r\n', at, 'latin1');
    if (lineEnd < 0) return more;
    const size = Number.parseInt(buf.toString('latin1', at, lineEnd), 16);
    const dataStart = lineEnd + 2;
    if (buf.length < dataStart + size + 2) return more;
    if (size === 0) {
      return { response: { status, body: Buffer.concat(parts) }, consumed: dataStart + 2 };
    }
    parts.push(buf.subarray(dataStart, dataStart + size));
    at = dataStart + size + 2;
  }
}
