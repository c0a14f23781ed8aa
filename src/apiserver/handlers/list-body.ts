/**
 * A list's body written as a sequence of ~64 KiB Buffers instead of one joined string.
 *
 * The bytes are exactly `sendJson`'s for the joined list (`goHtmlSafe` of
 * `{"kind":…,"items":[…]}` and a closing newline, Content-Length, no pretty printing): the
 * HTML-safe escapes replace single characters, so escaping each group of whole items is
 * escaping the whole; items are never split, so no character straddles two Buffers.
 *
 * Why: 10,000 pods are a 20–40 MB body. Joined, the server built one string that large
 * (`join` 24 ms), scanned it for the escapes, appended the newline (a cons string, which
 * `Buffer.byteLength` and the socket then flattened: another ~30 ms) and handed it to the
 * TLS socket as one string (UTF-8 conversion and encryption ~68 ms, profiles in
 * docs/benchmarks.md). In groups each join, scan and conversion is small and cache-friendly,
 * the length is the sum of the Buffers' lengths, and nothing of 20 MB is built twice.
 *
 * Pretty-printed lists and audit policies that record response bodies keep the joined path
 * (both need the whole text).
 *
 * @module
 */
import type { ServerResponse } from 'node:http';
import { goHtmlSafe } from '../../api/managed-fields/go-json.js';
import { auditOf } from '../audit/auditor.js';
import { wantsPretty } from '../http/pretty.js';
import { utf8Bytes } from '../http/utf8-bytes.js';

/**
 * Characters per Buffer before the group is closed: big enough that 10,000 pods are ~600
 * writes at most, small enough to stay in cache (256 KiB groups measured slower here).
 */
export const LIST_CHUNK_CHARS = 64 * 1024;

/** The body of `{head}{items joined by ","}]}` as sendJson writes it, in Buffers. */
export function listBodyChunks(
  head: string,
  items: readonly string[],
  chunkChars = LIST_CHUNK_CHARS,
): Buffer[] {
  const chunks: Buffer[] = [];
  let parts: string[] = [head];
  let chars = head.length;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (i > 0) parts.push(',');
    parts.push(item);
    chars += item.length + 1;
    if (chars >= chunkChars) {
      chunks.push(utf8Bytes(goHtmlSafe(parts.join(''))));
      parts = [];
      chars = 0;
    }
  }
  parts.push(']}\n');
  chunks.push(utf8Bytes(goHtmlSafe(parts.join(''))));
  return chunks;
}

/** Whether the request takes a chunked body (pretty printing and audited bodies need the text). */
export function canSendListInChunks(res: ServerResponse): boolean {
  return !wantsPretty(res.req) && !auditOf(res.req).recordsResponseBody;
}

/** Answers 200 with the list's body in Buffers (see {@link canSendListInChunks}). */
export function sendListChunks(res: ServerResponse, head: string, items: readonly string[]): void {
  const chunks = listBodyChunks(head, items);
  let length = 0;
  for (const c of chunks) length += c.length;
  // The headers sendJson sends, in its order.
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Content-Length': length,
    'Cache-Control': 'no-cache, private',
  });
  // With backpressure: written all at once, 10,000 pods (40 MB) were one writev that the TLS
  // layer copied into one buffer and encrypted in one go, holding the event loop (and every
  // watch flush) for the whole time; in steps of the socket's buffer the client decrypts the
  // first Buffers while later ones are encrypted, and other work runs in between.
  let next = 0;
  const pump = (): void => {
    while (next < chunks.length) {
      if (res.destroyed) return;
      if (!res.write(chunks[next++]!)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end();
  };
  pump();
}
