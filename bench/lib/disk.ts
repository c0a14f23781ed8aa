/**
 * The disk's own durable-write latency, to read request latencies against: every durable
 * create waits for at least one fsync, so a create p99 can't beat the fsync p99.
 *
 * @module
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, tempDir } from './cleanup.js';

/** Latencies (ms) of 1 KiB append + fsync in a loop for `durationMs`, in the temp dir's filesystem. */
export function fsyncLatencies(durationMs: number): number[] {
  const dir = tempDir('fleetyard-bench-fsync-');
  const fd = openSync(join(dir, 'append.bin'), 'a');
  const block = Buffer.alloc(1024, 0x61);
  const out: number[] = [];
  try {
    const end = performance.now() + durationMs;
    while (performance.now() < end) {
      const t0 = performance.now();
      writeSync(fd, block);
      fsyncSync(fd);
      out.push(performance.now() - t0);
    }
  } finally {
    closeSync(fd);
    removeDir(dir);
  }
  return out;
}
