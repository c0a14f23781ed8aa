/**
 * Self-verifying values for the crash test: each carries its key, its revision and a checksum
 * over both plus a random-length pad, so a torn or misplaced value cannot pass for a good one.
 *
 * @module
 */
import { createHash } from 'node:crypto';

function sum(key: string, rv: number, pad: string): string {
  return createHash('sha256').update(`${key}\n${rv}\n${pad}`).digest('hex').slice(0, 16);
}

/** A value for `key` written at revision `rv`, with `padLength` filler characters. */
export function makeValue(key: string, rv: number, padLength: number): string {
  const pad = 'x'.repeat(padLength);
  return JSON.stringify({ key, rv, pad, sum: sum(key, rv, pad) });
}

/** A short digest of a whole value, printed with each acknowledgement. */
export function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 16);
}

/** Throws unless `value` parses, matches its checksum, and names `key` and `rv`. */
export function verifyValue(value: string, key: string, rv: number): void {
  const v = JSON.parse(value) as { key: string; rv: number; pad: string; sum: string };
  if (v.key !== key || v.rv !== rv || v.sum !== sum(v.key, v.rv, v.pad)) {
    throw new Error(`torn or misplaced value at ${key}@${rv}: ${value.slice(0, 80)}`);
  }
}
