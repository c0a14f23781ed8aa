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
import { assertPrivateFile, ensurePrivateDir, writeFileAtomic } from './files.js';

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
