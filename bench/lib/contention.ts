/**
 * This machine is shared: other engineers' test suites and benchmarks can take one or both
 * of its 2 cores at any moment, which halves a throughput figure or triples a p99 (seen
 * while writing this harness: 1.9 cores busy with other processes for minutes at a time).
 * So every run measures the CPU that processes other than ours used during it (machine busy
 * time from /proc/stat minus the CPU time of our server, generators and this process), and
 * a run during which others used more than {@link QUIET_OTHER_CORES} is discarded and
 * repeated, up to as many extra attempts as runs wanted. If the machine never settles, the
 * least disturbed runs are kept and the note says so.
 *
 * @module
 */
import { type CpuTimes, cpuTimes, machineBusyCores, machineCpu } from './proc.js';

/** Other processes may use this much (cores) during a run that is kept. */
export const QUIET_OTHER_CORES = 0.3;

export interface Kept<T> {
  readonly runs: T[];
  /** Other processes' cores during each kept run. */
  readonly others: number[];
  /** Other processes' cores during each discarded run. */
  readonly discarded: number[];
  /** True when not enough quiet runs were found and disturbed ones were kept. */
  readonly disturbed: boolean;
}

/**
 * Runs `attempt` until `count` runs were quiet (or `2 × count` attempts were made, then the
 * least disturbed are kept). `others` tells how many cores other processes used in a run.
 */
export async function quietRuns<T>(
  count: number,
  attempt: (index: number) => Promise<T>,
  others: (run: T) => number,
  log: (line: string) => void,
): Promise<Kept<T>> {
  const quiet: Array<{ run: T; others: number }> = [];
  const noisy: Array<{ run: T; others: number }> = [];
  for (let i = 0; i < 2 * count && quiet.length < count; i++) {
    const run = await attempt(i);
    const o = others(run);
    if (o <= QUIET_OTHER_CORES) quiet.push({ run, others: o });
    else {
      noisy.push({ run, others: o });
      log(`    run disturbed: other processes used ${o.toFixed(2)} cores; repeating it`);
    }
  }
  noisy.sort((a, b) => a.others - b.others);
  const fill = noisy.splice(0, count - quiet.length);
  const kept = [...quiet, ...fill];
  return {
    runs: kept.map((k) => k.run),
    others: kept.map((k) => k.others),
    discarded: noisy.map((k) => k.others),
    disturbed: fill.length > 0,
  };
}

/** `other processes ≤ 0.12 cores during kept runs; 2 disturbed runs repeated`. */
export function contentionNote(k: Kept<unknown>): string {
  const max = Math.max(0, ...k.others);
  const parts = [`other processes used ≤ ${max.toFixed(2)} cores during the kept runs`];
  if (k.discarded.length > 0) {
    parts.push(
      `${k.discarded.length} disturbed run(s) discarded (others ${k.discarded.map((o) => o.toFixed(2)).join(', ')} cores)`,
    );
  }
  if (k.disturbed)
    parts.push(`DISTURBED: fewer than wanted quiet runs; the least disturbed were kept`);
  return parts.join('; ');
}

/**
 * Starts a CPU window over `pids` (our server, etc.) and this process; the returned function
 * ends it and tells how many cores everything else on the machine used meanwhile.
 * `extraOwnSeconds` adds CPU our other processes reported themselves (e.g. exited workers).
 */
export function cpuWindow(pids: readonly number[]): (extraOwnSeconds?: number) => number {
  const machine0 = machineCpu();
  const own0 = process.cpuUsage();
  const pid0 = new Map<number, CpuTimes>(pids.map((p) => [p, cpuTimes(p)]));
  return (extraOwnSeconds = 0) => {
    const machine1 = machineCpu();
    const seconds = (machine1.at - machine0.at) / 1000;
    const own = process.cpuUsage(own0);
    let ours = (own.user + own.system) / 1e6 + extraOwnSeconds;
    for (const [pid, before] of pid0) ours += cpuTimes(pid).total - before.total;
    return Math.max(0, machineBusyCores(machine0, machine1) - ours / seconds);
  };
}
