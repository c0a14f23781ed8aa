/**
 * What every benchmark group receives, and small shared helpers.
 *
 * @module
 */
import net from 'node:net';
import type { BenchRow } from './report.js';

export interface BenchOptions {
  /** Fewer and shorter runs, for development; the default is the full honest run. */
  readonly quick: boolean;
  /** Progress lines (stderr), so a long run shows where it is. */
  log(line: string): void;
  /** `--soak D`: how much cluster time the soak group covers, e.g. `48h`, `30m`. */
  readonly soakDuration?: string;
}

export type BenchGroup = (options: BenchOptions) => Promise<BenchRow[]>;

/** Full runs: at least 3 (runs vary 10–20% on this machine); quick: 1. */
export function runCount(options: BenchOptions, full = 3): number {
  return options.quick ? 1 : full;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A free TCP port on 127.0.0.1 (bind to 0, read it, release it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Rounds for display: 3 significant digits below 100, integers above. */
export function round(x: number): number {
  if (!Number.isFinite(x)) return x;
  if (Math.abs(x) >= 100) return Math.round(x);
  return Number(x.toPrecision(3));
}
