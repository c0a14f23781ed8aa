/**
 * Nothing in the process reads the wall clock for cluster behaviour (issue 15): a story on
 * the virtual clock (start 2026-01-01, about 62 minutes) runs in a process whose wall clock
 * (Date.now, `new Date()`, in every thread) is frozen at the moment it started. Every
 * timestamp the cluster stored (creation, conditions, events, leases, claims) must lie in the
 * virtual interval, and the story must finish: nothing waits for the frozen clock to move.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const STORY = fileURLToPath(new URL('./testing/wall-clock/story.ts', import.meta.url));
const FREEZE = fileURLToPath(new URL('./testing/wall-clock/freeze.mjs', import.meta.url));

describe('the virtual clock with the wall clock frozen', () => {
  it('stamps everything with virtual time', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--import', FREEZE, STORY], {
      timeout: 120_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
      now: string;
      count: number;
      outside: [string, string][];
    };
    assert.equal(result.now, '2026-01-01T01:02:00.000Z');
    assert.ok(result.count > 1000, `only ${result.count} timestamps`);
    assert.deepEqual(result.outside, [], 'timestamps outside virtual time (the wall clock leaked)');
  });
});
