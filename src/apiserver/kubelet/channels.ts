/**
 * Kubernetes' channel subprotocols over WebSocket (`k8s.io/apimachinery/pkg/util/httpstream/
 * wsstream`, the kubelet's `cri/streaming/remotecommand/websocket.go`): every message starts
 * with a channel byte, 0 stdin, 1 stdout, 2 stderr, 3 error, 4 terminal resize. The binary
 * protocols carry raw bytes; the `base64` ones a channel digit (`'1'`) and base64 text.
 *
 * - `v5.channel.k8s.io` (kubectl 1.31+): v4, plus a client message `[255, n]` closing stream
 *   n (stdin: the end of `kubectl cp`'s tar).
 * - `v4.channel.k8s.io`, `v4.base64.channel.k8s.io`: the error channel carries a
 *   `metav1.Status` (Success, or Failure `NonZeroExitCode` with the code as an `ExitCode` cause).
 * - `v3`, `v2`, `channel.k8s.io`, `base64.channel.k8s.io`, none: the error channel carries a
 *   failure's message as text, nothing on success.
 *
 * The server picks the first protocol in the client's list that it speaks, as upstream's
 * handshake does.
 *
 * @module
 */
import type { Message, WebSocketConnection } from './websocket.js';

export const CHANNEL = { stdin: 0, stdout: 1, stderr: 2, error: 3, resize: 4 } as const;
/** v5's close signal: `[255, stream]`. */
export const CLOSE_SIGNAL = 255;

const SUPPORTED = new Set([
  'v5.channel.k8s.io',
  'v4.channel.k8s.io',
  'v4.base64.channel.k8s.io',
  'v3.channel.k8s.io',
  'v2.channel.k8s.io',
  'channel.k8s.io',
  'base64.channel.k8s.io',
]);

/** The protocol to speak, '' when the client offered none; undefined when none is spoken here. */
export function chooseStreamProtocol(offered: readonly string[]): string | undefined {
  if (offered.length === 0) return '';
  return offered.find((p) => SUPPORTED.has(p));
}

/** The error channel's document for a finished command (v4 and v5). */
export function exitStatusJson(exitCode: number, command: readonly string[]): string {
  if (exitCode === 0) return JSON.stringify({ metadata: {}, status: 'Success' });
  return JSON.stringify({
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${exitCode}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(exitCode) }] },
  });
}

/** A failure that is not an exit code (v4 and v5: a Status with the message). */
export function failureStatusJson(message: string): string {
  return JSON.stringify({ metadata: {}, status: 'Failure', message });
}

/** One channel-multiplexed session on an accepted WebSocket. */
export class ChannelSession {
  readonly protocol: string;
  readonly #ws: WebSocketConnection;
  readonly #base64: boolean;
  /** Receives bytes a client sent on a channel (stdin, resize). */
  onData: (channel: number, data: Buffer) => void = () => undefined;
  /** A v5 client closed one of its streams. */
  onStreamClose: (channel: number) => void = () => undefined;
  /** The connection is gone (either side closed it). */
  onClose: () => void = () => undefined;

  constructor(ws: WebSocketConnection, protocol: string) {
    this.#ws = ws;
    this.protocol = protocol;
    this.#base64 = protocol.includes('base64');
    ws.onMessage = (m) => this.#receive(m);
    ws.onClose = () => this.onClose();
  }

  /** Ends the session without an outcome (the server is stopping). */
  close(): void {
    this.#ws.close(1000);
  }

  /** v4 and v5 report the outcome as a Status. */
  get statusOnErrorChannel(): boolean {
    return this.protocol.startsWith('v4.') || this.protocol.startsWith('v5.');
  }

  write(channel: number, data: Uint8Array): void {
    if (this.#base64) {
      this.#ws.send(Buffer.from(String(channel) + Buffer.from(data).toString('base64')), false);
      return;
    }
    const frame = Buffer.allocUnsafe(data.length + 1);
    frame[0] = channel;
    frame.set(data, 1);
    this.#ws.send(frame);
  }

  /** Writes the outcome on the error channel as this protocol does, then closes. */
  finish(outcome: { exitCode: number; command: readonly string[] } | { failure: string }): void {
    if ('failure' in outcome) {
      const text = this.statusOnErrorChannel ? failureStatusJson(outcome.failure) : outcome.failure;
      this.write(CHANNEL.error, Buffer.from(text));
    } else if (this.statusOnErrorChannel) {
      this.write(CHANNEL.error, Buffer.from(exitStatusJson(outcome.exitCode, outcome.command)));
    } else if (outcome.exitCode !== 0) {
      this.write(
        CHANNEL.error,
        Buffer.from(`command terminated with exit code ${outcome.exitCode}`),
      );
    }
    this.#ws.close(1000);
  }

  #receive(m: Message): void {
    let channel: number;
    let data: Buffer;
    if (this.#base64) {
      const text = m.data.toString('latin1');
      if (text.length === 0) return;
      channel = text.charCodeAt(0) - 48;
      data = Buffer.from(text.slice(1), 'base64');
    } else {
      if (m.data.length === 0) return;
      channel = m.data[0] ?? 0;
      data = m.data.subarray(1);
    }
    if (channel === CLOSE_SIGNAL && this.protocol.startsWith('v5.')) {
      this.onStreamClose(data[0] ?? 0);
      return;
    }
    this.onData(channel, data);
  }
}

/** An async byte stream fed by pushes (a session's stdin). */
export class ByteQueue implements AsyncIterable<Uint8Array> {
  readonly #chunks: Uint8Array[] = [];
  #ended = false;
  #wake: (() => void) | undefined;

  push(chunk: Uint8Array): void {
    if (this.#ended) return;
    this.#chunks.push(chunk);
    this.#wake?.();
  }

  end(): void {
    this.#ended = true;
    this.#wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for (;;) {
      const chunk = this.#chunks.shift();
      if (chunk !== undefined) {
        yield chunk;
        continue;
      }
      if (this.#ended) return;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
      this.#wake = undefined;
    }
  }
}
