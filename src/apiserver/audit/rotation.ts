/**
 * The file half of the audit log: one file that is rotated by size, with old files named and
 * pruned as kube-apiserver's writer (gopkg.in/natefinch/lumberjack.v2) does, so tools that read
 * kube-apiserver's audit directory read fleetyard's:
 *
 * - a backup of `audit.log` is `audit-2026-12-02T05-10-00.000.log` (UTC, the time it was
 *   rotated away; lumberjack's `backupTimeFormat`);
 * - a write that would take the file past `maxSize` bytes rotates it first; one line larger
 *   than `maxSize` is refused (`write length N exceeds maximum file size M`);
 * - after a rotation, backups beyond the newest `maxBackups` (0: all kept) and backups older
 *   than `maxAgeDays` by the time in their name (0: no age limit) are deleted.
 *
 * Files are created 0600 and the directory 0700, as kube-apiserver's `ensureLogFile`.
 *
 * @module
 */
import { constants } from 'node:fs';
import { type FileHandle, mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { ensurePrivateFile, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../security/files.js';
import type { Clock } from '../../util/clock.js';

const MB = 1024 * 1024;
/** lumberjack's size when none is given (`--audit-log-maxsize 0`). */
export const DEFAULT_MAX_SIZE_MB = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface RotationOptions {
  readonly path: string;
  /** Megabytes before the file is rotated (fractions allowed); 0: 100. */
  readonly maxSizeMB?: number;
  /** Backups kept; 0: all. */
  readonly maxBackups?: number;
  /** Days a backup is kept, by the time in its name; 0: no limit. */
  readonly maxAgeDays?: number;
  readonly clock: Clock;
}

/** lumberjack's `backupName`: `<name>-<UTC 2006-01-02T15-04-05.000><ext>` beside the file. */
export function backupName(path: string, at: number): string {
  const ext = extname(path);
  const prefix = basename(path).slice(0, basename(path).length - ext.length);
  const stamp = new Date(at).toISOString().slice(0, 23).replace(/:/g, '-');
  return join(dirname(path), `${prefix}-${stamp}${ext}`);
}

/** The rotation time in a backup's name, or undefined for another file. */
export function backupTime(path: string, file: string): number | undefined {
  const ext = extname(path);
  const prefix = `${basename(path).slice(0, basename(path).length - ext.length)}-`;
  if (!file.startsWith(prefix) || !file.endsWith(ext)) return undefined;
  const stamp = file.slice(prefix.length, file.length - ext.length);
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})$/.exec(stamp);
  if (m === null) return undefined;
  const t = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
  return Number.isNaN(t) ? undefined : t;
}

/** A size-rotated file; writes must not overlap (the log backend runs one at a time). */
export class RotatingFile {
  readonly #opts: RotationOptions;
  readonly #max: number;
  #handle: FileHandle | undefined;
  #size = 0;
  /** The time in the last backup's name: two rotations in one millisecond get distinct names. */
  #lastRotation = Number.NEGATIVE_INFINITY;
  #closed = false;

  constructor(options: RotationOptions) {
    this.#opts = options;
    const mb = options.maxSizeMB ?? 0;
    this.#max = Math.max(1, Math.floor((mb > 0 ? mb : DEFAULT_MAX_SIZE_MB) * MB));
  }

  /** Creates the directory (0700, parents too) and the file (0600), or opens it to append. */
  async open(): Promise<void> {
    await mkdir(dirname(this.#opts.path), { recursive: true, mode: PRIVATE_DIR_MODE });
    await ensurePrivateFile(this.#opts.path);
    await this.#openAppend();
  }

  /** Appends `data` (whole lines), rotating first when it would not fit. */
  async write(data: Buffer): Promise<void> {
    if (this.#closed) throw new Error('audit log is closed');
    if (data.length > this.#max) {
      throw new Error(`write length ${data.length} exceeds maximum file size ${this.#max}`);
    }
    if (this.#handle === undefined) await this.#openAppend();
    if (this.#size + data.length > this.#max) await this.rotate();
    const handle = this.#handle!;
    let off = 0;
    while (off < data.length) {
      const { bytesWritten } = await handle.write(data, off, data.length - off);
      off += bytesWritten;
      this.#size += bytesWritten;
    }
  }

  /** The largest write {@link write} takes. */
  get maxSize(): number {
    return this.#max;
  }

  /** Bytes that still fit before a rotation. */
  get room(): number {
    return this.#max - this.#size;
  }

  /** Renames the file to its backup name, starts an empty one, prunes old backups. */
  async rotate(): Promise<void> {
    await this.#closeHandle();
    const path = this.#opts.path;
    this.#lastRotation = Math.max(Math.floor(this.#opts.clock.now()), this.#lastRotation + 1);
    await rename(path, backupName(path, this.#lastRotation)).catch((err: unknown) => {
      if (!(err instanceof Error && 'code' in err && err.code === 'ENOENT')) throw err;
    });
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_APPEND;
    this.#handle = await open(path, flags, PRIVATE_FILE_MODE);
    this.#size = 0;
    await this.#prune();
  }

  /** Closes the file; later writes fail. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#closeHandle();
  }

  async #closeHandle(): Promise<void> {
    const h = this.#handle;
    this.#handle = undefined;
    await h?.close();
  }

  async #openAppend(): Promise<void> {
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND;
    this.#handle = await open(this.#opts.path, flags, PRIVATE_FILE_MODE);
    this.#size = (await this.#handle.stat()).size;
  }

  /** lumberjack's `millRunOnce`, without compression. */
  async #prune(): Promise<void> {
    const { path, maxBackups = 0, maxAgeDays = 0 } = this.#opts;
    if (maxBackups <= 0 && maxAgeDays <= 0) return;
    const dir = dirname(path);
    const backups = (await readdir(dir))
      .map((file) => ({ file, at: backupTime(path, file) }))
      .filter((b): b is { file: string; at: number } => b.at !== undefined)
      .sort((a, b) => b.at - a.at);
    const cutoff = this.#opts.clock.now() - maxAgeDays * DAY_MS;
    const doomed = backups.filter(
      (b, i) => (maxBackups > 0 && i >= maxBackups) || (maxAgeDays > 0 && b.at < cutoff),
    );
    await Promise.all(doomed.map((b) => unlink(join(dir, b.file)).catch(() => undefined)));
  }
}
