import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { FakeClock } from '../../util/clock.js';
import { LogBackend } from './log-backend.js';
import { backupName, backupTime } from './rotation.js';

const dirs: string[] = [];
after(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'fy-audit-'));
  dirs.push(d);
  return d;
}

const START = Date.UTC(2026, 11, 2, 5, 10, 0);
const posix = process.platform !== 'win32';

/** Lines of every file in `dir`, backups oldest first, then the live file. */
async function allLines(dir: string, name = 'audit.log'): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => f !== name).sort();
  const out: string[] = [];
  for (const f of [...files, name]) {
    const text = await readFile(join(dir, f), 'utf8');
    out.push(...text.split('\n').filter((l) => l !== ''));
  }
  return out;
}

describe('LogBackend', () => {
  it('creates the directory 0700 and the file 0600, and writes every line by close', async () => {
    const dir = join(await tempDir(), 'nested', 'audit');
    const path = join(dir, 'audit.log');
    const log = await LogBackend.open({ path });
    if (posix) {
      assert.equal((await stat(path)).mode & 0o777, 0o600);
      assert.equal((await stat(dir)).mode & 0o777, 0o700);
    }
    for (let i = 0; i < 1000; i++) assert.equal(log.write(`{"n":${i}}`), true);
    await log.close();
    const lines = (await readFile(path, 'utf8')).split('\n');
    assert.equal(lines.pop(), '');
    assert.deepEqual(
      lines,
      Array.from({ length: 1000 }, (_, i) => `{"n":${i}}`),
    );
    assert.deepEqual(log.stats, { written: 1000, dropped: 0, lost: 0 });
    assert.equal(log.write('late'), false);
    assert.equal(log.stats.dropped, 1);
  });

  it('tightens an existing world-readable log to 0600 and appends to it', async () => {
    const path = join(await tempDir(), 'audit.log');
    await writeFile(path, 'old\n', { mode: 0o644 });
    const log = await LogBackend.open({ path });
    log.write('new');
    await log.close();
    if (posix) assert.equal((await stat(path)).mode & 0o777, 0o600);
    assert.equal(await readFile(path, 'utf8'), 'old\nnew\n');
  });

  it('rotates by size into lumberjack names, keeping every line whole and in order', async () => {
    const dir = await tempDir();
    const path = join(dir, 'audit.log');
    const clock = new FakeClock(START);
    // 0.001 MB = 1048 bytes: about ten 100-byte lines per file.
    const log = await LogBackend.open({ path, maxSizeMB: 0.001, clock });
    const line = (i: number) => JSON.stringify({ i, pad: 'x'.repeat(80) });
    for (let i = 0; i < 50; i++) {
      log.write(line(i));
      if (i % 7 === 0) {
        await log.flush();
        await clock.step(1000);
      }
    }
    await log.close();
    const files = await readdir(dir);
    assert.ok(files.length >= 5, `${files.length} files`);
    for (const f of files) {
      if (f === 'audit.log') continue;
      assert.match(f, /^audit-2026-12-02T05-1\d-\d\d\.\d{3}\.log$/);
      assert.ok((await stat(join(dir, f))).size <= 1048);
      if (posix) assert.equal((await stat(join(dir, f))).mode & 0o777, 0o600);
    }
    if (posix) assert.equal((await stat(path)).mode & 0o777, 0o600);
    assert.deepEqual(
      await allLines(dir),
      Array.from({ length: 50 }, (_, i) => line(i)),
    );
  });

  it('keeps at most maxBackups backups, the newest', async () => {
    const dir = await tempDir();
    const path = join(dir, 'audit.log');
    const clock = new FakeClock(START);
    const log = await LogBackend.open({ path, maxSizeMB: 0.0001, maxBackups: 2, clock });
    for (let i = 0; i < 6; i++) {
      log.write('y'.repeat(80));
      await log.flush();
      await clock.step(60_000);
    }
    await log.close();
    assert.deepEqual((await readdir(dir)).sort(), [
      'audit-2026-12-02T05-14-00.000.log',
      'audit-2026-12-02T05-15-00.000.log',
      'audit.log',
    ]);
  });

  it('deletes backups older than maxAge days by the time in their name', async () => {
    const dir = await tempDir();
    const path = join(dir, 'audit.log');
    const clock = new FakeClock(START);
    await writeFile(join(dir, 'audit-2026-11-20T00-00-00.000.log'), 'old\n');
    await writeFile(join(dir, 'audit-2026-12-01T00-00-00.000.log'), 'recent\n');
    await writeFile(join(dir, 'unrelated.txt'), 'keep\n');
    const log = await LogBackend.open({ path, maxSizeMB: 0.0001, maxAgeDays: 7, clock });
    log.write('z'.repeat(80));
    log.write('z'.repeat(80));
    await log.close();
    assert.deepEqual((await readdir(dir)).sort(), [
      'audit-2026-12-01T00-00-00.000.log',
      'audit-2026-12-02T05-10-00.000.log',
      'audit.log',
      'unrelated.txt',
    ]);
  });

  it('refuses a line larger than a whole file and keeps the others', async () => {
    const dir = await tempDir();
    const errors: string[] = [];
    const log = await LogBackend.open({
      path: join(dir, 'audit.log'),
      maxSizeMB: 0.0001, // 104 bytes
      onError: (m) => errors.push(m),
    });
    log.write('a');
    log.write('b'.repeat(200));
    log.write('c');
    await log.close();
    assert.deepEqual(await allLines(dir), ['a', 'c']);
    assert.deepEqual(log.stats, { written: 2, dropped: 0, lost: 1 });
    assert.deepEqual(errors, [
      "Error in audit plugin 'log' affecting 1 audit events: write length 201 exceeds maximum file size 104",
    ]);
  });

  it('drops and counts beyond its buffer instead of blocking, and says so once', async () => {
    const path = join(await tempDir(), 'audit.log');
    const errors: string[] = [];
    const log = await LogBackend.open({ path, bufferSize: 10, onError: (m) => errors.push(m) });
    const accepted = Array.from({ length: 25 }, (_, i) => log.write(`${i}`));
    assert.deepEqual(
      accepted,
      Array.from({ length: 25 }, (_, i) => i < 10),
    );
    await log.close();
    assert.deepEqual(log.stats, { written: 10, dropped: 15, lost: 0 });
    assert.deepEqual(errors, [
      "Error in audit plugin 'buffered' affecting 15 audit events: audit buffer queue blocked",
    ]);
  });
});

describe('backup names', () => {
  it('are lumberjack names in UTC', () => {
    assert.equal(
      backupName(join('logs', 'audit.log'), START + 5),
      join('logs', 'audit-2026-12-02T05-10-00.005.log'),
    );
    assert.equal(backupName('kube-audit', START), 'kube-audit-2026-12-02T05-10-00.000');
  });
  it('parse back to their time', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(9999, 0, 1) }), (t) => {
        const name = backupName('audit.log', t);
        assert.equal(backupTime('audit.log', name), t);
      }),
    );
    assert.equal(backupTime('audit.log', 'audit.log'), undefined);
    assert.equal(backupTime('audit.log', 'other-2026-12-02T05-10-00.000.log'), undefined);
  });
});
