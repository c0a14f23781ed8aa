/**
 * Crash safety of the real `fleetyard up` on SQLite (not `--ephemeral`): concurrent writes
 * over HTTPS, SIGKILL at a random moment, restart on the same data dir, and every
 * acknowledged write must be there exactly as acknowledged (the model is in
 * `support/load.ts`). Then the same with SIGTERM, which must exit 0 while the load runs.
 *
 * `scripts/crash-soak.ts` runs the same series for hundreds of rounds.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CrashSeriesReport, runCrashSeries } from './testing/load.js';

function failureText(report: CrashSeriesReport): string {
  return [...report.violations.slice(0, 30), '--- server logs ---', ...report.logs].join('\n');
}

function inFlightAtStop(report: CrashSeriesReport): number {
  return report.rounds.reduce((n, r) => n + r.verify.pendingApplied + r.verify.pendingLost, 0);
}

function summary(report: CrashSeriesReport): string {
  const a = report.acknowledged;
  return `${report.rounds.length} rounds in ${report.durationMs} ms: acknowledged ${a.create} creates, ${a.update} updates, ${a.patch} patches, ${a.delete} deletes; ${inFlightAtStop(report)} writes in flight at the stop`;
}

/**
 * The stop must usually land after writes were acknowledged (a 50 ms stop on a busy machine
 * may come before the first answer, so not every round).
 */
function assertLoadReachedTheServer(report: CrashSeriesReport): void {
  const withWrites = report.rounds.filter((r) => r.acknowledged > 0).length;
  assert.ok(
    withWrites * 2 >= report.rounds.length,
    `only ${withWrites} of ${report.rounds.length} rounds had acknowledged writes before the stop`,
  );
}

describe('crash safety (SQLite)', () => {
  it('keeps every acknowledged write across 10 SIGKILLs under concurrent load', async (t) => {
    const report = await runCrashSeries({ rounds: 10, mode: 'kill', workers: 24 });
    t.diagnostic(summary(report));
    assert.deepEqual(report.violations, [], failureText(report));
    assert.equal(report.rounds.length, 10);
    assertLoadReachedTheServer(report);
    // The kill must land mid-write at least sometimes, or the in-flight case goes untested.
    assert.ok(inFlightAtStop(report) > 0, 'no write was in flight at any kill');
  });

  it('stops cleanly on SIGTERM under load', async (t) => {
    const report = await runCrashSeries({
      rounds: 5,
      mode: 'term',
      workers: 24,
      stopAfterMs: [100, 300],
    });
    t.diagnostic(summary(report));

    await t.test('exits 0 and keeps every acknowledged write', () => {
      assert.deepEqual(report.violations, [], failureText(report));
      for (const r of report.rounds) assert.equal(r.exitCode, 0, `round ${r.round}: exit code`);
      assertLoadReachedTheServer(report);
    });

    await t.test('ends an open watch with its terminating chunk, not a cut connection', () => {
      assert.deepEqual(
        report.rounds.map((r) => `round ${r.round}: ${r.watchEnd}`),
        report.rounds.map((r) => `round ${r.round}: end`),
      );
    });
  });
});
