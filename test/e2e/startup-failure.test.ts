/**
 * A start that cannot complete (a read-only or full disk, a kubeconfig it cannot write) fails
 * fast and whole: exit code 1 within seconds, one line on stderr saying where and why, no
 * `ready`, and nothing left behind: no process, no listening port, no database lock.
 *
 * Root ignores file modes, so a read-only or full disk is made for real: a tmpfs mounted
 * read-only, or a small tmpfs filled up (needs root with CAP_SYS_ADMIN; skipped, with the
 * reason printed, where mount is refused). A kubeconfig path that is a directory makes the
 * last write of the start fail anywhere, after the server is listening.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { exitWithin, freePort, portIsFree, spawnUp, type UpProcess } from './testing/up-process.js';

/** Fail-fast budget: a failed start must be over well within this (it takes ~0.5 s here). */
const EXIT_WITHIN_MS = 10_000;
const root = mkdtempSync(join(tmpdir(), 'fleetyard-startup-failure-'));
const mounts: string[] = [];

after(() => {
  for (const m of mounts.reverse()) execFileSync('umount', ['-l', m]);
  rmSync(root, { recursive: true, force: true });
});

/** Mounts a tmpfs at a new dir under root; throws if mount is refused. */
function tmpfs(name: string, options: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'pipe' });
  mounts.push(dir);
  return dir;
}

/** Why the mount-based cases cannot run here, or `undefined` when they can. */
function mountUnavailable(): string | undefined {
  if (process.platform !== 'linux') return 'tmpfs mounts need Linux';
  try {
    const probe = tmpfs('probe', 'size=64k');
    execFileSync('umount', [probe]);
    mounts.pop();
    return undefined;
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return `cannot mount a tmpfs here (${why}): needs root with CAP_SYS_ADMIN`;
  }
}
const noMount = mountUnavailable();
if (noMount) process.stdout.write(`# skipping the read-only and full-disk cases: ${noMount}\n`);

/** Fills the file system holding `dir` until a write fails for lack of space. */
function fill(dir: string): void {
  const chunk = Buffer.alloc(64 * 1024);
  const file = join(dir, 'filler');
  try {
    for (;;) writeFileSync(file, chunk, { flag: 'a' });
  } catch (err) {
    assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC');
  }
}

/** Starts `up` on a fixed port, expects it to fail; returns its stderr message line. */
async function failedStart(dataDir: string, port: number): Promise<string> {
  const up = spawnUp(['--data-dir', dataDir, '--port', String(port)]);
  const exit = await exitWithin(up, EXIT_WITHIN_MS);
  assert.equal(exit.code, 1, `exit code; stderr: ${up.stderr()}`);
  assert.ok(exit.ms < EXIT_WITHIN_MS, `took ${exit.ms} ms`);
  assert.ok(!up.stdout().includes('ready'), up.stdout());
  return oneMessage(up);
}

/** The one line that is not a JSON log line; no stack trace anywhere. */
function oneMessage(up: UpProcess): string {
  const lines = up
    .stderr()
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('{'));
  assert.equal(lines.length, 1, `want one message, got:\n${up.stderr()}`);
  assert.ok(!/\n\s+at /.test(up.stderr()), `a stack trace:\n${up.stderr()}`);
  const line = lines[0]!;
  assert.match(line, /^fleetyard up: cannot start: \S.*: \S.*$/);
  return line;
}

/** A start that works (the state for the later, failing ones); stopped before returning. */
async function goodStart(dataDir: string): Promise<void> {
  const up = spawnUp(['--data-dir', dataDir, '--port', '0', '--controllers=']);
  await up.ready;
  assert.equal((await up.stop()).code, 0);
}

describe('fleetyard up: a start that fails stops whole and fast', () => {
  it('a kubeconfig it cannot write (after listening): exit 1, one message, nothing left', async () => {
    const dataDir = join(root, 'kubeconfig-dir');
    mkdirSync(join(dataDir, 'kubeconfig'), { recursive: true });
    const port = await freePort();
    const message = await failedStart(dataDir, port);
    assert.equal(
      message,
      `fleetyard up: cannot start: ${join(dataDir, 'kubeconfig')}: illegal operation on a directory`,
    );
    assert.ok(await portIsFree(port), `port ${port} still taken`);
    // The database lock was released: the same data dir starts once the cause is gone.
    rmSync(join(dataDir, 'kubeconfig'), { recursive: true });
    const again = spawnUp(['--data-dir', dataDir, '--port', String(port), '--controllers=']);
    assert.equal(await again.ready, `https://127.0.0.1:${port}`);
    assert.equal((await again.stop()).code, 0);
  });

  it('a read-only data dir: exit 1 naming it', { skip: noMount }, async () => {
    const dataDir = tmpfs('read-only', 'ro,size=1m');
    const port = await freePort();
    const message = await failedStart(dataDir, port);
    assert.equal(message, `fleetyard up: cannot start: ${dataDir}: read-only file system`);
    assert.ok(await portIsFree(port));
  });

  it('existing state on a disk remounted read-only: exit 1', { skip: noMount }, async () => {
    const mount = tmpfs('remounted', 'size=16m');
    const dataDir = join(mount, 'data');
    await goodStart(dataDir);
    execFileSync('mount', ['-o', 'remount,ro', mount]);
    const port = await freePort();
    const message = await failedStart(dataDir, port);
    assert.ok(message.includes(dataDir), message);
    assert.ok(await portIsFree(port));
  });

  it('a full disk at the first start: exit 1, no space left', { skip: noMount }, async () => {
    const mount = tmpfs('full-first', 'size=1m');
    fill(mount);
    const port = await freePort();
    const message = await failedStart(join(mount, 'data'), port);
    assert.match(message, /no space left on device/);
    assert.ok(await portIsFree(port));
  });

  it('existing state on a full disk (opens, then the kubeconfig write fails): exit 1', {
    skip: noMount,
  }, async () => {
    const mount = tmpfs('full-later', 'size=16m');
    const dataDir = join(mount, 'data');
    await goodStart(dataDir);
    fill(mount);
    const port = await freePort();
    const message = await failedStart(dataDir, port);
    assert.equal(message, `fleetyard up: cannot start: ${dataDir}: no space left on device`);
    assert.ok(await portIsFree(port));
  });
});
