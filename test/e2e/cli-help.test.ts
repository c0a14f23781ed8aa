/**
 * Every command answers --help (and -h) with its usage on stdout and exit 0, as kubectl's
 * commands do; `fleetyard up --help` answered `Unknown option '--help'` (issue 14, item 13).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { FLEETYARD_BIN } from './testing/cluster.js';

function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [FLEETYARD_BIN, ...args], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('fleetyard <command> --help', () => {
  const commands: [string[], RegExp][] = [
    [['--help'], /^Usage: fleetyard <command>/],
    [['help'], /^Usage: fleetyard <command>/],
    [['up', '--help'], /Options for up:/],
    [['up', '-h'], /Options for up:/],
    [['up', '--port', '0', '--help'], /Options for up:/],
    [['chaos', '--help'], /^Usage: fleetyard chaos/],
    [['dns', '--help'], /^Usage: fleetyard dns/],
    [['controllers', '--help'], /^Usage: fleetyard controllers/],
    [['operator', '--help'], /^Usage: fleetyard operator/],
    [['scenario', '--help'], /^Usage: fleetyard scenario/],
    [['clock', '--help'], /^Usage: fleetyard clock/],
  ];
  for (const [args, usage] of commands) {
    it(`fleetyard ${args.join(' ')}: usage on stdout, exit 0`, () => {
      const r = run(...args);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, usage);
      assert.equal(r.stderr, '');
    });
  }

  it('an unknown command: usage on stderr, exit 2', () => {
    const r = run('nope');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^Usage: fleetyard <command>/);
  });
});
