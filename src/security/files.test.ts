import assert from 'node:assert/strict';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import {
  assertPrivateFile,
  ensurePrivateDir,
  ensurePrivateFile,
  ensurePrivateSqliteFiles,
  writeFileAtomic,
} from './files.js';

const root = mkdtempSync(join(tmpdir(), 'fleetyard-files-'));
after(() => rmSync(root, { recursive: true, force: true }));

const modeOf = (p: string) => statSync(p).mode & 0o777;
let n = 0;
const fresh = () => join(root, `case-${n++}`);

describe('writeFileAtomic', () => {
  it('creates the file with exactly the requested mode and leaves no temp file', async () => {
    const dir = fresh();
    mkdirSync(dir);
    const p = join(dir, 'secret');
    await writeFileAtomic(p, 'one\n', 0o600);
    assert.equal(readFileSync(p, 'utf8'), 'one\n');
    assert.equal(modeOf(p), 0o600);
    assert.deepEqual(readdirSync(dir), ['secret']);
  });

  it('replaces an existing file, which takes the new mode', async () => {
    const dir = fresh();
    mkdirSync(dir);
    const p = join(dir, 'secret');
    writeFileSync(p, 'old', { mode: 0o644 });
    await writeFileAtomic(p, Buffer.from('new'), 0o600);
    assert.equal(readFileSync(p, 'utf8'), 'new');
    assert.equal(modeOf(p), 0o600);
    assert.deepEqual(readdirSync(dir), ['secret']);
  });

  it('honours other modes (certificates are 0644)', async () => {
    const dir = fresh();
    mkdirSync(dir);
    await writeFileAtomic(join(dir, 'c'), 'x', 0o644);
    assert.equal(modeOf(join(dir, 'c')), 0o644);
  });

  it('still gives exactly 0600 under a umask that strips owner bits', async () => {
    const dir = fresh();
    mkdirSync(dir);
    const old = process.umask(0o277);
    try {
      await writeFileAtomic(join(dir, 's'), 'x', 0o600);
    } finally {
      process.umask(old);
    }
    assert.equal(modeOf(join(dir, 's')), 0o600);
  });

  it('removes its temp file when the rename fails', async () => {
    const dir = fresh();
    mkdirSync(join(dir, 'target'), { recursive: true });
    // Renaming a file over a directory fails (EISDIR).
    await assert.rejects(writeFileAtomic(join(dir, 'target'), 'x', 0o600));
    assert.deepEqual(readdirSync(dir), ['target']);
  });
});

describe('ensurePrivateDir', () => {
  it('creates missing directories with mode 0700', async () => {
    const dir = join(fresh(), 'a', 'b');
    await ensurePrivateDir(dir);
    assert.equal(modeOf(dir), 0o700);
    await ensurePrivateDir(dir); // idempotent
    assert.equal(modeOf(dir), 0o700);
  });

  it('tightens an existing directory to 0700', async () => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    await ensurePrivateDir(dir);
    assert.equal(modeOf(dir), 0o700);
  });

  it('refuses a path that is a file', async () => {
    const p = fresh();
    writeFileSync(p, '');
    await assert.rejects(ensurePrivateDir(p));
  });
});

describe('assertPrivateFile', () => {
  it('accepts 0600 and 0400 files', async () => {
    const p = fresh();
    writeFileSync(p, 'x', { mode: 0o600 });
    await assertPrivateFile(p);
    chmodSync(p, 0o400);
    await assertPrivateFile(p);
  });

  it('refuses a file others can read, naming the fix', async () => {
    const p = fresh();
    writeFileSync(p, 'x');
    chmodSync(p, 0o644);
    await assert.rejects(assertPrivateFile(p), /mode 0644.*chmod 600/);
  });

  it('refuses a directory and a missing file', async () => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o700 });
    await assert.rejects(assertPrivateFile(dir), /not a regular file/);
    await assert.rejects(assertPrivateFile(join(dir, 'nope')), { code: 'ENOENT' });
  });
});

/** Runs `fn` under `mask`, the process umask restored after. */
async function underUmask<T>(mask: number, fn: () => Promise<T> | T): Promise<T> {
  const old = process.umask(mask);
  try {
    return await fn();
  } finally {
    process.umask(old);
  }
}

describe('ensurePrivateFile', () => {
  it('creates a missing file empty with exactly 0600, even under umask 000', async () => {
    const p = fresh();
    assert.equal(await underUmask(0, () => ensurePrivateFile(p)), true);
    assert.equal(modeOf(p), 0o600);
    assert.equal(readFileSync(p, 'utf8'), '');
  });

  it('tightens an existing 0644 file and keeps its contents', async () => {
    const p = fresh();
    writeFileSync(p, 'objects');
    chmodSync(p, 0o644);
    await ensurePrivateFile(p);
    assert.equal(modeOf(p), 0o600);
    assert.equal(readFileSync(p, 'utf8'), 'objects');
  });

  it('leaves a missing file missing when not asked to create it', async () => {
    const p = fresh();
    assert.equal(await ensurePrivateFile(p, false), false);
    assert.throws(() => statSync(p), { code: 'ENOENT' });
  });

  it('refuses a directory', async () => {
    const dir = fresh();
    mkdirSync(dir);
    await assert.rejects(ensurePrivateFile(dir), { code: 'EISDIR' });
    await assert.rejects(ensurePrivateFile(dir, false), /not a regular file/);
  });
});

describe('ensurePrivateSqliteFiles', () => {
  it('keeps a new database and its WAL 0600 under umask 000 (SQLite alone: 0644)', async () => {
    const dir = fresh();
    mkdirSync(dir);
    const file = join(dir, 'state.db');
    await underUmask(0, async () => {
      await ensurePrivateSqliteFiles(file);
      const db = new Database(file);
      try {
        db.pragma('journal_mode = WAL');
        db.exec('CREATE TABLE t (v TEXT); INSERT INTO t VALUES (1)');
        assert.equal(modeOf(file), 0o600);
        assert.equal(modeOf(`${file}-wal`), 0o600);
      } finally {
        db.close();
      }
      // The control: what SQLite makes on its own (SQLITE_DEFAULT_FILE_PERMISSIONS, 0644).
      const bare = new Database(join(dir, 'bare.db'));
      bare.pragma('journal_mode = WAL');
      bare.exec('CREATE TABLE t (v TEXT)');
      assert.equal(modeOf(join(dir, 'bare.db')), 0o644);
      bare.close();
    });
  });

  it('tightens an old 0644 database and the companion files it left', async () => {
    const dir = fresh();
    mkdirSync(dir);
    const file = join(dir, 'state.db');
    for (const f of [file, `${file}-wal`, `${file}-shm`]) writeFileSync(f, '', { mode: 0o644 });
    await ensurePrivateSqliteFiles(file);
    for (const f of [file, `${file}-wal`, `${file}-shm`]) assert.equal(modeOf(f), 0o600, f);
    assert.throws(() => statSync(`${file}-journal`), { code: 'ENOENT' });
  });
});
