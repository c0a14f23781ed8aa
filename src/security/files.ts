/**
 * File helpers for secret material (keys, the bearer token, the kubeconfig).
 *
 * Secrets are never written in place: a reader (or a crash) must see either the old file or the
 * complete new one, and the file must never exist, even briefly, with a mode wider than asked.
 *
 * @module
 */

import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, type FileHandle, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Mode for private files: keys, token, kubeconfig. */
export const PRIVATE_FILE_MODE = 0o600;
/** Mode for the directory that holds them. */
export const PRIVATE_DIR_MODE = 0o700;

/** POSIX permission bits are meaningless on Windows; every mode check is skipped there. */
const checksModes = process.platform !== 'win32';

/**
 * Writes `data` to `path` atomically with exactly `mode`: a temp file in the same directory is
 * created with `mode` (O_CREAT|O_EXCL, so it cannot be a pre-planted file or symlink), written,
 * fsynced, renamed over `path`, and the directory is fsynced so the rename survives a crash.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  mode: number,
): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;
  const handle = await open(temp, flags, mode);
  try {
    // The umask can only clear bits, so the file never had more than `mode`. Restore any bits it
    // cleared (e.g. umask 0277 would leave 0400) before a single byte of the secret is written.
    if (checksModes && ((await handle.stat()).mode & 0o777) !== mode) await handle.chmod(mode);
    await handle.writeFile(data);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await syncDir(dir);
}

/** Fsyncs a directory so a rename inside it is durable; not possible (nor needed) on Windows. */
async function syncDir(dir: string): Promise<void> {
  if (!checksModes) return;
  const handle = await open(dir, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Creates `dir` (and missing parents) with mode 0700, or tightens an existing directory to 0700.
 * Throws if it exists but is not a directory or belongs to another user: another user could swap
 * our CA or token there.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (!checksModes) return;
  const st = await stat(dir);
  if (!st.isDirectory()) throw new Error(`${dir} exists and is not a directory`);
  assertOwnedByUs(dir, st.uid);
  // Also covers a directory that already existed, or a umask that cleared owner bits.
  if ((st.mode & 0o777) !== PRIVATE_DIR_MODE) await chmod(dir, PRIVATE_DIR_MODE);
}

/**
 * Makes `path` a private file (mode 0600, owned by us) without touching its contents: creates
 * it empty with exactly 0600 when it is missing (`create`), or sets an existing file of another
 * mode (an old 0644 database) to 0600. For files another library creates, e.g. the SQLite
 * database, which holds every Secret: SQLite makes a new database 0644 (its default
 * permissions, whatever the umask allows beyond), and gives its `-wal` and `-journal` files the
 * database file's own permission bits (os_unix.c `findCreateFileMode`), so a database that
 * exists with 0600 before SQLite opens it keeps all of them private whatever the umask. An
 * empty file is a valid empty SQLite database. Returns false when the file is missing and
 * `create` is false.
 */
export async function ensurePrivateFile(path: string, create = true): Promise<boolean> {
  // No O_TRUNC: an existing file (a database full of objects) is only re-moded, never emptied.
  const flags = create ? constants.O_RDONLY | constants.O_CREAT : constants.O_RDONLY;
  let handle: FileHandle;
  try {
    handle = await open(path, flags, PRIVATE_FILE_MODE);
  } catch (err) {
    if (!create && isNotFound(err)) return false;
    throw err;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new Error(`${path} is not a regular file`);
    if (!checksModes) return true;
    assertOwnedByUs(path, st.uid);
    // The umask can only have cleared bits of a new file; an old one may be 0644 (or 0666).
    if ((st.mode & 0o777) !== PRIVATE_FILE_MODE) await handle.chmod(PRIVATE_FILE_MODE);
    return true;
  } finally {
    await handle.close();
  }
}

/** The files SQLite keeps beside a database `x.db`: `x.db-wal`, `x.db-shm`, `x.db-journal`. */
const SQLITE_COMPANIONS = ['-wal', '-shm', '-journal'];

/**
 * Before SQLite opens `path`: creates the database file 0600 if missing and sets it and any
 * companion file left by an earlier run (made 0644 by older versions) to 0600. Companions are
 * not created: SQLite deletes the WAL at a clean close and, in exclusive locking mode, never
 * makes a `-shm` file; the ones it makes copy the database's mode (see ensurePrivateFile).
 */
export async function ensurePrivateSqliteFiles(path: string): Promise<void> {
  await ensurePrivateFile(path);
  await Promise.all(SQLITE_COMPANIONS.map((suffix) => ensurePrivateFile(path + suffix, false)));
}

/**
 * Throws unless `path` is a regular file owned by this user with no group/other permission bits
 * (0600 or stricter). Like ssh with a private key, refusing is safer than using a file others
 * may have read or replaced. Symlinks are followed: the target is what gets checked.
 */
export async function assertPrivateFile(path: string): Promise<void> {
  const st = await stat(path);
  if (!st.isFile()) throw new Error(`${path} is not a regular file`);
  if (!checksModes) return;
  assertOwnedByUs(path, st.uid);
  const perms = st.mode & 0o777;
  if ((perms & 0o077) !== 0) {
    throw new Error(
      `${path} has mode 0${perms.toString(8)}, readable or writable by other users; ` +
        `run "chmod 600 ${path}" (or delete it to have it recreated)`,
    );
  }
}

function assertOwnedByUs(path: string, uid: number): void {
  const me = process.getuid?.();
  if (me !== undefined && uid !== me) {
    throw new Error(`${path} is owned by uid ${uid}, not by the current user (uid ${me})`);
  }
}

/** True for an ENOENT error from `node:fs`. */
export function isNotFound(err: unknown): boolean {
  return err instanceof Error && 'code' in err && err.code === 'ENOENT';
}
