/**
 * NDJSON over `fetch`: a line splitter that is fed arbitrary text chunks (a network read ends
 * anywhere, mid-line and mid-character: the decoder handles characters, this handles lines),
 * and the loop that reads a response body through it.
 *
 * @module
 */

export class LineSplitter {
  private rest = '';

  /**
   * The complete lines in `chunk` plus what was left over; blank lines are dropped. A
   * snapshot is ~12 MB in 64 KB chunks, so the chunk is scanned in place (no copy of the
   * leftover plus the chunk, no trim of 5,000 lines: only a `\r` before the newline is cut).
   */
  push(chunk: string): string[] {
    const lines: string[] = [];
    let nl = chunk.indexOf('\n');
    if (nl === -1) {
      this.rest += chunk;
      return lines;
    }
    let start = 0;
    let first = true;
    while (nl !== -1) {
      let line = first ? this.rest + chunk.slice(0, nl) : chunk.slice(start, nl);
      first = false;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line !== '' && line.trim() !== '') lines.push(line);
      start = nl + 1;
      nl = chunk.indexOf('\n', start);
    }
    this.rest = chunk.slice(start);
    return lines;
  }

  /** The last line when the body ended without a newline. */
  end(): string[] {
    const line = this.rest;
    this.rest = '';
    return line.trim() === '' ? [] : [line];
  }
}

/** Reads `body` to its end, calling `onLine` for each line (in order, synchronously per chunk). */
export async function readLines(
  body: ReadableStream<Uint8Array>,
  onLine: (line: string) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const splitter = new LineSplitter();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const line of splitter.push(decoder.decode(value, { stream: true }))) onLine(line);
  }
  for (const line of splitter.push(decoder.decode())) onLine(line);
  for (const line of splitter.end()) onLine(line);
}

/**
 * Wall ms to wait before reconnect attempt `attempt` (0-based): 250 ms doubling to a 10 s
 * cap, so a restarted server is picked up within a second while a dead one costs one request
 * per 10 s.
 */
export function backoffMs(attempt: number): number {
  return Math.min(10_000, 250 * 2 ** Math.max(0, Math.min(attempt, 10)));
}
