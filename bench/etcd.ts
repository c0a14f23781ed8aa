/**
 * etcd 3.4's durable put ceiling on this machine, the reference for the storage target
 * (fleetyard's backend ≥ 10× etcd).
 *
 * A `node:http` client process saturates a core at ~2,600 puts/s while etcd idles, so the load
 * comes from generator processes with a lean client (`lib/raw-http.ts`, ~0.2 cores at
 * 5,600 puts/s) over keep-alive connections to etcd's JSON gRPC gateway, one put in flight
 * per connection, 1 KiB values, distinct keys. The load is raised level by level (more
 * connections, then more processes) until puts/s stop rising (less than +3% twice in a
 * row); the best level is then measured {@link runCount} times on a fresh etcd each, and
 * its median is the ceiling. Measured here: 1×1 1,134/s, 1×8 3,586/s, 1×64 5,620/s,
 * 1×256 4,595/s, 2×256 3,715/s: etcd peaks at 32–64 in flight using ~1.5 of the 2 cores,
 * and more in flight only adds contention.
 *
 * @module
 */
import { contentionNote, quietRuns } from './lib/contention.js';
import { type EtcdBinary, ensureEtcd, startEtcd } from './lib/etcd-process.js';
import { cpuSummary, runLoad } from './lib/load.js';
import { type BenchOptions, round, runCount } from './lib/options.js';
import { type BenchRow, median } from './lib/report.js';

export const ETCD_CEILING_ROW = 'etcd 3.4 durable puts/s (ceiling, 1 KiB values)';

/** Load levels as [processes, connections per process], in increasing puts in flight. */
const LEVELS: ReadonlyArray<readonly [number, number]> = [
  [1, 16],
  [1, 32],
  [1, 64],
  [2, 64],
  [3, 64],
  [4, 64],
  [6, 64],
];
/** A level counts as rising when it beats the best so far by this factor. */
const RISE = 1.03;

interface LevelResult {
  readonly perSecond: number;
  readonly note: string;
  /** Cores other processes used meanwhile (see lib/contention.ts). */
  readonly others: number;
}

async function measure(
  binary: EtcdBinary,
  [processes, connections]: readonly [number, number],
  warmupMs: number,
  durationMs: number,
  etcd?: { pid: number; port: number; putPath: string },
): Promise<LevelResult> {
  const own = etcd === undefined ? await startEtcd(binary) : undefined;
  const server = etcd ?? own!;
  try {
    const r = await runLoad({
      target: { host: '127.0.0.1', port: server.port },
      workload: {
        kind: 'etcd-put',
        authority: `127.0.0.1:${server.port}`,
        path: server.putPath,
        valueBytes: 1024,
      },
      processes,
      connectionsPerProcess: connections,
      warmupMs,
      durationMs,
      observePids: [server.pid],
      // Distinct keys across ramp levels that share one etcd.
      workerIdBase: processes * 1000 + connections,
    });
    if (r.errors > 0) throw new Error(`etcd puts failed (${r.errors}): ${r.firstError}`);
    const note = cpuSummary(r, server.pid, 'etcd');
    return { perSecond: r.perSecond, note, others: r.otherCores };
  } finally {
    await own?.stop();
  }
}

type Level = readonly [number, number];
const levelName = ([p, c]: Level) => `${p}×${c}`;

/** Raises the load until puts/s stop rising; returns the best level. */
async function ramp(
  binary: EtcdBinary,
  options: BenchOptions,
): Promise<{ best: Level; log: string[] }> {
  const etcd = await startEtcd(binary);
  const lines: string[] = [];
  try {
    let best = 0;
    let bestLevel = LEVELS[0]!;
    let flat = 0;
    for (const level of LEVELS) {
      if (flat >= 2) break;
      const measured = await quietRuns(
        1,
        () => measure(binary, level, 500, options.quick ? 1500 : 3000, etcd),
        (m) => m.others,
        options.log,
      );
      const r = measured.runs[0]!;
      lines.push(`${levelName(level)}: ${Math.round(r.perSecond)}/s`);
      options.log(`  etcd ramp ${levelName(level)}: ${Math.round(r.perSecond)} puts/s; ${r.note}`);
      if (r.perSecond > best * RISE) {
        flat = 0;
        bestLevel = level;
      } else flat++;
      best = Math.max(best, r.perSecond);
    }
    return { best: bestLevel, log: lines };
  } finally {
    await etcd.stop();
  }
}

export async function benchEtcd(options: BenchOptions): Promise<BenchRow[]> {
  const binary = ensureEtcd(options.log);
  if (typeof binary === 'string') {
    const message = `etcd column skipped: ${binary}`;
    options.log(message);
    return [{ name: ETCD_CEILING_ROW, value: Number.NaN, unit: 'puts/s', note: message }];
  }
  options.log(`  etcd ${binary.version}`);
  const { best, log } = await ramp(binary, options);
  const kept = await quietRuns(
    runCount(options),
    async (i) => {
      const r = await measure(binary, best, 1000, options.quick ? 3000 : 8000);
      options.log(`  etcd run ${i + 1}: ${Math.round(r.perSecond)} puts/s; ${r.note}`);
      return r;
    },
    (r) => r.others,
    options.log,
  );
  const runs = kept.runs.map((r) => r.perSecond);
  return [
    {
      name: ETCD_CEILING_ROW,
      value: Math.round(median(runs)),
      unit: 'puts/s',
      runs: runs.map(round),
      note: `etcd ${binary.version}, ${best[0]} generator process(es) × ${best[1]} connections, the best level of the ramp (processes×connections: ${log.join(', ')}); last run: ${kept.runs.at(-1)?.note}; ${contentionNote(kept)}`,
    },
  ];
}
