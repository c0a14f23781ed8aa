/**
 * Which journal failures are disk conditions the store survives (a full, read-only or failing
 * disk: wait, then write again) and which stop it (anything else: a constraint violation or a
 * dead commit thread means the journal and memory disagree, and only a restart's recovery
 * can reconcile them).
 *
 * SQLite reports a full disk as `SQLITE_FULL` ("database or disk is full"), a read-only file
 * as `SQLITE_READONLY*` and a failed read, write or fsync as `SQLITE_IOERR*`; Node's file
 * calls report `ENOSPC`, `EDQUOT`, `EROFS` and `EIO`.
 *
 * @module
 */
import { UnwritableError } from '../backend.js';

const NO_SPACE = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);
const READ_ONLY = new Set(['SQLITE_READONLY', 'EROFS']);
const DISK_IO = new Set(['SQLITE_IOERR', 'EIO']);

/** The error's code without SQLite's extended suffix (`SQLITE_IOERR_FSYNC` → `SQLITE_IOERR`). */
function baseCode(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
  if (typeof code !== 'string') return undefined;
  const m = /^(SQLITE_[A-Z]+?)(?:_[A-Z_]+)?$/.exec(code);
  return m ? m[1] : code;
}

function detailOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  // The commit thread prefixes "storage: sqlite: "; the new message carries its own prefix.
  return text.replace(/^storage: /, '');
}

/** The refusal a disk failure turns into, or undefined when `err` is not a disk condition. */
export function unwritableCause(err: unknown): UnwritableError | undefined {
  const code = baseCode(err);
  if (code === undefined) return undefined;
  const detail = detailOf(err);
  if (NO_SPACE.has(code)) {
    return new UnwritableError(
      'NoSpace',
      `storage: database space exceeded (no space left on device: ${detail}); reads are served, writes resume once space is freed`,
      err,
    );
  }
  if (READ_ONLY.has(code)) {
    return new UnwritableError(
      'ReadOnly',
      `storage: database is read-only (${detail}); reads are served, writes resume once the disk is writable`,
      err,
    );
  }
  if (DISK_IO.has(code)) {
    return new UnwritableError(
      'DiskIO',
      `storage: disk I/O error (${detail}); reads are served, writes resume once the disk recovers`,
      err,
    );
  }
  return undefined;
}

/** True for a failure that means "no space": the journal may give back its reserve. */
export function isNoSpace(err: unknown): boolean {
  const code = baseCode(err);
  return code !== undefined && NO_SPACE.has(code);
}
