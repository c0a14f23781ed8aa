/**
 * Everything a benchmark starts (servers, etcd, load generators, temp dirs) is registered
 * here, so that a failure, Ctrl-C or SIGTERM still kills the children and removes the dirs.
 * Each group also cleans up in its own `finally`; this is the safety net.
 *
 * @module
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const children = new Set<ChildProcess>();
const dirs = new Set<string>();

/** Registers a child; it is unregistered when it exits. */
export function track<T extends ChildProcess>(child: T): T {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Waits for the child to exit, SIGKILLing it after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  dirs.delete(dir);
}

/** Synchronous, so it also works from an `exit` handler: SIGKILL children, remove dirs. */
export function cleanupAll(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
}

/** Installs the safety net once: on exit, SIGINT and SIGTERM. */
export function installCleanupHandlers(): void {
  process.once('exit', cleanupAll);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      cleanupAll();
      process.exit(130);
    });
  }
}
