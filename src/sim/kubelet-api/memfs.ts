/**
 * The writable filesystem of one simulated container, in memory: what `kubectl cp` and exec'd
 * commands (`echo hi > /tmp/x`, `cat`, `ls`, `tar`) read and write. It starts with the few
 * files a container always has (`/etc/hostname`, `/etc/hosts`, `/etc/resolv.conf`, empty
 * `/tmp`, `/root`, `/var`) and lives as long as the container run (a restart starts from a
 * fresh one, as a real container's writable layer). Capped at {@link MAX_FS_BYTES}: a write past it
 * fails with ENOSPC, so a large `kubectl cp` cannot exhaust the server's memory.
 *
 * @module
 */

/** Bytes of file content one container may hold. */
export const MAX_FS_BYTES = 64 * 1024 * 1024;

export type Entry =
  | { readonly type: 'dir'; mode: number; mtime: number }
  | { readonly type: 'file'; mode: number; mtime: number; data: Buffer };

/** A filesystem error as the shell reports it (`No such file or directory`). */
export class FsError extends Error {
  readonly code: 'ENOENT' | 'ENOTDIR' | 'EISDIR' | 'EEXIST' | 'ENOSPC' | 'ENOTEMPTY';
  constructor(code: FsError['code'], message: string) {
    super(message);
    this.code = code;
  }
}

const MESSAGES: Record<FsError['code'], string> = {
  ENOENT: 'No such file or directory',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  EEXIST: 'File exists',
  ENOSPC: 'No space left on device',
  ENOTEMPTY: 'Directory not empty',
};

function fail(code: FsError['code']): never {
  throw new FsError(code, MESSAGES[code]);
}

/** `path` made absolute against `cwd`, with `.`, `..` and repeated slashes resolved. */
export function resolvePath(cwd: string, path: string): string {
  const parts: string[] = [];
  for (const p of (path.startsWith('/') ? path : `${cwd}/${path}`).split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') parts.pop();
    else parts.push(p);
  }
  return `/${parts.join('/')}`;
}

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

export class MemFs {
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;
  readonly #now: () => number;

  constructor(now: () => number, files: Readonly<Record<string, string>> = {}) {
    this.#now = now;
    this.#entries.set('/', { type: 'dir', mode: 0o755, mtime: now() });
    for (const dir of ['/etc', '/tmp', '/root', '/var']) this.mkdir(dir, false);
    for (const [path, text] of Object.entries(files)) {
      this.mkdir(parentOf(path), true);
      this.writeFile(path, Buffer.from(text));
    }
  }

  get(path: string): Entry | undefined {
    return this.#entries.get(path);
  }

  /** Children's names of a directory, sorted. */
  list(path: string): string[] {
    const e = this.#entries.get(path);
    if (e === undefined) fail('ENOENT');
    if (e.type !== 'dir') fail('ENOTDIR');
    const prefix = path === '/' ? '/' : `${path}/`;
    const names: string[] = [];
    for (const key of this.#entries.keys()) {
      if (key !== '/' && key.startsWith(prefix) && !key.slice(prefix.length).includes('/')) {
        names.push(key.slice(prefix.length));
      }
    }
    return names.sort();
  }

  readFile(path: string): Buffer {
    const e = this.#entries.get(path);
    if (e === undefined) fail('ENOENT');
    if (e.type !== 'file') fail('EISDIR');
    return e.data;
  }

  writeFile(path: string, data: Buffer, append = false, mode = 0o644): void {
    const parent = this.#entries.get(parentOf(path));
    if (parent === undefined) fail('ENOENT');
    if (parent.type !== 'dir') fail('ENOTDIR');
    const e = this.#entries.get(path);
    if (e?.type === 'dir') fail('EISDIR');
    const next = append && e !== undefined ? Buffer.concat([e.data, data]) : data;
    const grown = next.length - (e?.data.length ?? 0);
    if (this.#bytes + grown > MAX_FS_BYTES) fail('ENOSPC');
    this.#bytes += grown;
    this.#entries.set(path, {
      type: 'file',
      mode: e?.mode ?? mode,
      mtime: this.#now(),
      data: next,
    });
  }

  mkdir(path: string, recursive: boolean, mode = 0o755): void {
    const e = this.#entries.get(path);
    if (e !== undefined) {
      if (recursive && e.type === 'dir') return;
      fail(e.type === 'dir' ? 'EEXIST' : 'ENOTDIR');
    }
    const parent = parentOf(path);
    if (!this.#entries.has(parent)) {
      if (!recursive) fail('ENOENT');
      this.mkdir(parent, true);
    }
    if (this.#entries.get(parent)?.type !== 'dir') fail('ENOTDIR');
    this.#entries.set(path, { type: 'dir', mode, mtime: this.#now() });
  }

  remove(path: string, recursive: boolean): void {
    const e = this.#entries.get(path);
    if (e === undefined) fail('ENOENT');
    if (e.type === 'dir') {
      if (!recursive) fail('EISDIR');
      for (const child of this.list(path)) this.remove(resolvePath(path, child), true);
    }
    if (e.type === 'file') this.#bytes -= e.data.length;
    if (path !== '/') this.#entries.delete(path);
  }

  /** Every path under `path` (itself first), depth-first in name order. */
  walk(path: string): string[] {
    const e = this.#entries.get(path);
    if (e === undefined) fail('ENOENT');
    if (e.type === 'file') return [path];
    return [path, ...this.list(path).flatMap((c) => this.walk(resolvePath(path, c)))];
  }
}
