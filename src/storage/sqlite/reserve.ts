/**
 * A reserve of disk space next to the database (`<db>-reserve`), after etcd's quota: etcd
 * raises NOSPACE at its quota, below the real size of the disk, so deletes and compaction still
 * find room. A SQLite store on a full disk has no such slack, so it keeps some: the reserve file
 * is written when the store opens, given back when a commit fails for lack of space (the
 * deletes and compaction that free space then have room), and taken again before the store
 * accepts writes again, which needs the reserve plus a margin free: a disk that just has room
 * for the reserve does not take writes yet, so the store does not bounce between full and not.
 *
 * 2 MiB is ~500 pages of 4 KiB: hundreds of tombstones (a delete writes 1 to 3 pages). The
 * margin, 1 MiB, is room for a few large objects after recovery.
 *
 * @module
 */
import fs from 'node:fs';
import path from 'node:path';

export const DEFAULT_RESERVE_BYTES = 2 * 1024 * 1024;
const MARGIN_BYTES = 1024 * 1024;
const CHUNK = 64 * 1024;

/** An Error with a Node `code`, as a failing file call throws. */
function codedError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

export class SpaceReserve {
  readonly file: string;
  readonly bytes: number;

  constructor(dbFile: string, bytes = DEFAULT_RESERVE_BYTES) {
    this.file = `${dbFile}-reserve`;
    this.bytes = Math.max(0, bytes);
  }

  /** Whether the reserve file is there, whole. */
  get held(): boolean {
    if (this.bytes === 0) return true;
    const st = fs.statSync(this.file, { throwIfNoEntry: false });
    return st !== undefined && st.size >= this.bytes;
  }

  /**
   * Writes the reserve file unless it is there, fsynced. `margin`: also require that much free
   * space beyond it (when taking it back). Throws ENOSPC (or what the disk answers) otherwise.
   */
  acquire(margin = false): void {
    if (this.held) return;
    const { bavail, bsize } = fs.statfsSync(path.dirname(this.file));
    const need = this.bytes + (margin ? MARGIN_BYTES : 0);
    if (bavail * bsize < need) {
      throw codedError('ENOSPC', `ENOSPC: no space left on device, need ${need} bytes free`);
    }
    const zeros = Buffer.alloc(CHUNK);
    let fd: number | undefined;
    try {
      fd = fs.openSync(this.file, 'w', 0o600);
      for (let written = 0; written < this.bytes; written += CHUNK) {
        fs.writeSync(fd, zeros, 0, Math.min(CHUNK, this.bytes - written));
      }
      fs.fsyncSync(fd);
    } catch (err) {
      if (fd !== undefined) fs.closeSync(fd);
      fd = undefined;
      this.release();
      throw err;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }

  /** Gives the space back (idempotent). */
  release(): void {
    fs.rmSync(this.file, { force: true });
  }
}
