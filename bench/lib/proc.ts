/**
 * Reading a process's memory and CPU time from /proc (Linux), to tell which side of a
 * benchmark (server, load generator, etcd) was CPU-bound.
 *
 * @module
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second for /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

function statusField(pid: number, field: string): number {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(text);
  if (!m) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(m[1]) / 1024;
}

/** Resident set size in MiB (VmRSS). */
export function rssMb(pid: number): number {
  return statusField(pid, 'VmRSS');
}

/** Peak resident set size in MiB (VmHWM). */
export function peakRssMb(pid: number): number {
  return statusField(pid, 'VmHWM');
}

/**
 * The sum of two clock-tick fields of a /proc stat file, in seconds; `first` counts from the
 * field after `(comm)` (the state, field 3), so utime + stime is 11 and cutime + cstime 13.
 */
function statSeconds(path: string, first = 11): number {
  const text = readFileSync(path, 'utf8');
  // comm may contain spaces, so split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[first]) + Number(fields[first + 1])) / TICKS_PER_SECOND;
}

/**
 * CPU seconds (user + system) of this process's children that have exited and been waited
 * for (cutime + cstime of /proc/self/stat): measured around one child's run, its own CPU.
 * Children still running (a server under test) are not in it until they exit.
 */
export function exitedChildrenCpuSeconds(): number {
  return statSeconds('/proc/self/stat', 13);
}

export interface CpuTimes {
  /** All threads of the process, seconds. */
  readonly total: number;
  /** The main thread (the JavaScript event loop for Node), seconds. */
  readonly main: number;
}

export function cpuTimes(pid: number): CpuTimes {
  return {
    total: statSeconds(`/proc/${pid}/stat`),
    main: statSeconds(`/proc/${pid}/task/${pid}/stat`),
  };
}

export interface MachineCpu {
  /** Jiffies spent busy (everything but idle and iowait), all cores. */
  readonly busy: number;
  readonly at: number;
}

/** Machine-wide CPU counters (/proc/stat), to see what else used the cores meanwhile. */
export function machineCpu(): MachineCpu {
  const fields = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, at: performance.now() };
}

/** Busy cores of the whole machine between two samples. */
export function machineBusyCores(before: MachineCpu, after: MachineCpu): number {
  return (after.busy - before.busy) / TICKS_PER_SECOND / ((after.at - before.at) / 1000);
}
