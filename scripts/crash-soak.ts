/**
 * Crash soak: many SIGKILL (or SIGTERM) rounds of the real `fleetyard up` under concurrent
 * load on one SQLite data dir, verifying every acknowledged write after each restart. Same
 * logic as `test/e2e/crash.test.ts` (`runCrashSeries` in `test/e2e/testing/load.ts`).
 *
 *   npm run build && node --import tsx scripts/crash-soak.ts --rounds 200
 *
 * Options: `--rounds N` (200), `--mode kill|term` (kill), `--workers N` (24),
 * `--objects N` per worker (4), `--min-ms`/`--max-ms` stop delay after the load starts
 * (50/400), `--keep` keeps the data dir when something failed. Exits 1 on any violation.
 *
 * @module
 */
import { parseArgs } from 'node:util';
import { runCrashSeries, type StopMode } from '../test/e2e/testing/load.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '200' },
    mode: { type: 'string', default: 'kill' },
    workers: { type: 'string', default: '24' },
    objects: { type: 'string', default: '4' },
    'min-ms': { type: 'string', default: '50' },
    'max-ms': { type: 'string', default: '400' },
    keep: { type: 'boolean', default: false },
  },
  strict: true,
});

function positiveInt(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: want a positive integer`);
  return n;
}

const mode = values.mode;
if (mode !== 'kill' && mode !== 'term') throw new Error('--mode: kill or term');
const rounds = positiveInt('rounds', values.rounds);
const width = String(rounds).length;
const endings: Record<string, number> = {};
const watchEnds: Record<string, number> = {};
let pendingApplied = 0;
let pendingLost = 0;

const report = await runCrashSeries({
  rounds,
  mode: mode satisfies StopMode,
  workers: positiveInt('workers', values.workers),
  objectsPerWorker: positiveInt('objects', values.objects),
  stopAfterMs: [positiveInt('min-ms', values['min-ms']), positiveInt('max-ms', values['max-ms'])],
  keepFailedDataDir: values.keep,
  onRound: (r) => {
    pendingApplied += r.verify.pendingApplied;
    pendingLost += r.verify.pendingLost;
    for (const [k, n] of Object.entries(r.endings)) endings[k] = (endings[k] ?? 0) + n;
    if (r.watchEnd !== undefined) {
      const key = r.watchEnd === 'end' ? 'end' : 'cut';
      watchEnds[key] = (watchEnds[key] ?? 0) + 1;
    }
    const exit = r.exitCode === undefined ? '' : ` exit=${r.exitCode}`;
    const watch = r.watchEnd === undefined ? '' : ` watch=${r.watchEnd}`;
    process.stdout.write(
      `round ${String(r.round).padStart(width)}  stop@${String(r.stopAfterMs).padStart(3)}ms  acked=${String(r.acknowledged).padStart(4)}  in-flight applied=${r.verify.pendingApplied} lost=${r.verify.pendingLost}  objects=${r.verify.present}  rv=${r.verify.firstRevisionAfter}${exit}${watch}  ${r.durationMs}ms${r.violations.length > 0 ? `  VIOLATIONS=${r.violations.length}` : ''}\n`,
    );
  },
});

const a = report.acknowledged;
const total = a.create + a.update + a.patch + a.delete;
const lines = [
  '',
  `crash soak (${mode}): ${report.rounds.length} rounds in ${(report.durationMs / 1000).toFixed(1)} s`,
  `  acknowledged writes verified: ${total} (${a.create} creates, ${a.update} updates, ${a.patch} patches, ${a.delete} deletes)`,
  `  in flight at the stop: ${pendingApplied} turned out committed, ${pendingLost} not`,
  `  how the last requests ended: ${JSON.stringify(endings)}`,
  ...(mode === 'term' ? [`  open watch at SIGTERM: ${JSON.stringify(watchEnds)}`] : []),
  `  violations: ${report.violations.length}`,
  ...report.violations.slice(0, 50).map((v) => `    ${v}`),
  ...(report.keptDataDir ? [`  data dir kept: ${report.keptDataDir}`] : []),
];
process.stdout.write(`${lines.join('\n')}\n`);
if (report.violations.length > 0) {
  process.stdout.write(`\n--- server logs of failing rounds ---\n${report.logs.join('\n')}\n`);
  process.exitCode = 1;
}
