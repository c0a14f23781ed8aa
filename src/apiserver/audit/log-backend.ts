/**
 * The audit log backend (`--audit-log-path`): events as JSON lines appended to a file that
 * rotates (rotation.ts), or to stdout for `-`, as kube-apiserver's log backend
 * (`plugin/pkg/audit/log/backend.go`).
 *
 * The request path only appends a line to a queue ({@link LogBackend.write}, no I/O, no
 * await). A single writer drains the queue in batches: everything queued while the previous
 * write was on disk goes out in one `write`, so a burst costs few system calls. The queue is
 * bounded (10,000 lines, upstream's `--audit-log-batch-buffer-size` default): when the disk
 * cannot keep up, further lines are dropped and counted rather than growing memory or
 * slowing requests, as upstream's buffered backend drops with "audit buffer queue blocked".
 * Where upstream logs every dropped event, this reports once per drained batch:
 * `Error in audit plugin 'buffered' affecting N audit events: audit buffer queue blocked`.
 * A write that fails (a full disk) loses its batch, is reported the same way with plugin
 * `log`, and the next batch tries again. {@link LogBackend.close} writes everything queued
 * before it returns: a clean stop loses no line.
 *
 * @module
 */
import type { Clock } from '../../util/clock.js';
import { realClock } from '../../util/clock.js';
import { RotatingFile } from './rotation.js';

/** Lines queued at most (upstream `--audit-log-batch-buffer-size` default). */
export const DEFAULT_BUFFER_SIZE = 10_000;
/** Bytes written in one call at most: a 10,000-line backlog goes out in a few writes. */
const MAX_BATCH_BYTES = 1024 * 1024;

/** Where the auditor sends finished lines. */
export interface AuditSink {
  /** Queues one line (no newline); false when it was dropped. Never blocks, never throws. */
  write(line: string): boolean;
  /** Resolves when every line queued so far is written, then stops taking lines. */
  close(): Promise<void>;
  /** Lines written, dropped and lost so far (for `apiserver_audit_error_total`-like metrics). */
  readonly stats?: LogBackendStats;
}

export interface LogBackendOptions {
  /** The file, or `-` for stdout (no rotation), as `--audit-log-path`. */
  readonly path: string;
  /** `--audit-log-maxsize`: megabytes before rotation; 0: 100 (lumberjack's default). */
  readonly maxSizeMB?: number;
  /** `--audit-log-maxbackup`: rotated files kept; 0: all. */
  readonly maxBackups?: number;
  /** `--audit-log-maxage`: days a rotated file is kept; 0: no limit. */
  readonly maxAgeDays?: number;
  /** Lines queued at most before dropping. @default DEFAULT_BUFFER_SIZE */
  readonly bufferSize?: number;
  readonly clock?: Clock;
  /** Told about dropped and lost lines; the server's logger at warn/error. */
  readonly onError?: (message: string, err?: unknown) => void;
}

/** Counters a metrics endpoint or a test reads. */
export interface LogBackendStats {
  /** Lines written. */
  readonly written: number;
  /** Lines dropped because the queue was full or the backend closed. */
  readonly dropped: number;
  /** Lines lost because a write failed. */
  readonly lost: number;
}

interface Output {
  /** Writes whole lines; resolves to the messages of lines it refused (too large). */
  write(data: Buffer): Promise<string[]>;
  close(): Promise<void>;
}

export class LogBackend implements AuditSink {
  readonly #out: Output;
  readonly #bufferSize: number;
  readonly #onError: (message: string, err?: unknown) => void;
  #queue: string[] = [];
  #draining: Promise<void> | undefined;
  #closed = false;
  #written = 0;
  #dropped = 0;
  #lost = 0;
  /** Dropped since the last report. */
  #unreported = 0;

  private constructor(out: Output, options: LogBackendOptions) {
    this.#out = out;
    this.#bufferSize = options.bufferSize ?? DEFAULT_BUFFER_SIZE;
    this.#onError = options.onError ?? (() => undefined);
  }

  /** Opens (creating 0600, its directory 0700) the log file; `-` writes to stdout. */
  static async open(options: LogBackendOptions): Promise<LogBackend> {
    if (options.path === '-') return new LogBackend(stdoutOutput(), options);
    const file = new RotatingFile({ ...options, clock: options.clock ?? realClock });
    await file.open();
    return new LogBackend(fileOutput(file), options);
  }

  write(line: string): boolean {
    if (this.#closed || this.#queue.length >= this.#bufferSize) {
      this.#dropped++;
      this.#unreported++;
      return false;
    }
    this.#queue.push(line);
    this.#draining ??= this.#drain();
    return true;
  }

  get stats(): LogBackendStats {
    return { written: this.#written, dropped: this.#dropped, lost: this.#lost };
  }

  /** Resolves when every line queued so far is on disk (or reported lost). */
  async flush(): Promise<void> {
    while (this.#draining !== undefined) await this.#draining;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
    this.#report();
    await this.#out.close();
  }

  async #drain(): Promise<void> {
    // Let the request that queued the first line finish its tick: lines queued meanwhile join.
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      while (this.#queue.length > 0) {
        const batch = this.#take();
        try {
          const refused = await this.#out.write(Buffer.from(batch.text));
          this.#written += batch.lines - refused.length;
          this.#lost += refused.length;
          for (const why of refused) {
            this.#onError(`Error in audit plugin 'log' affecting 1 audit events: ${why}`);
          }
        } catch (err) {
          this.#lost += batch.lines;
          const why = err instanceof Error ? err.message : String(err);
          this.#onError(
            `Error in audit plugin 'log' affecting ${batch.lines} audit events: ${why}`,
            err,
          );
        }
        this.#report();
      }
    } finally {
      this.#draining = undefined;
    }
  }

  /** Takes lines off the queue up to {@link MAX_BATCH_BYTES} (at least one). */
  #take(): { text: string; lines: number } {
    let n = 0;
    let bytes = 0;
    while (n < this.#queue.length && (n === 0 || bytes < MAX_BATCH_BYTES)) {
      bytes += this.#queue[n]!.length + 1;
      n++;
    }
    const lines = this.#queue.splice(0, n);
    return { text: `${lines.join('\n')}\n`, lines: n };
  }

  #report(): void {
    if (this.#unreported === 0) return;
    const n = this.#unreported;
    this.#unreported = 0;
    this.#onError(
      `Error in audit plugin 'buffered' affecting ${n} audit events: audit buffer queue blocked`,
    );
  }
}

/**
 * Writes whole lines, rotating between lines, never splitting one across files. A line larger
 * than a whole file is refused alone (lumberjack refuses such a write), the others go out.
 */
function fileOutput(file: RotatingFile): Output {
  return {
    async write(data) {
      const refused: string[] = [];
      let start = 0;
      while (start < data.length) {
        if (data.length - start <= file.room) {
          await file.write(data.subarray(start));
          break;
        }
        // The lines that fit go to this file; the next one then rotates it.
        const end = lastLineEnd(data, start, start + Math.max(0, file.room));
        if (end > start) {
          await file.write(data.subarray(start, end));
          start = end;
          continue;
        }
        const next = data.indexOf(0x0a, start) + 1;
        if (next - start > file.maxSize) {
          refused.push(`write length ${next - start} exceeds maximum file size ${file.maxSize}`);
        } else {
          await file.write(data.subarray(start, next));
        }
        start = next;
      }
      return refused;
    },
    close: () => file.close(),
  };
}

/** The end (after its newline) of the last whole line in `data[start, limit)`; `start` if none. */
function lastLineEnd(data: Buffer, start: number, limit: number): number {
  if (limit <= start) return start;
  const nl = data.lastIndexOf(0x0a, limit - 1);
  return nl >= start ? nl + 1 : start;
}

function stdoutOutput(): Output {
  return {
    write: (data) =>
      new Promise<string[]>((resolve, reject) =>
        process.stdout.write(data, (err) => (err ? reject(err) : resolve([]))),
      ),
    close: async () => undefined,
  };
}
