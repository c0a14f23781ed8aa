/**
 * Cluster time on the page. The server samples the clock (CLOCK frames at most once a second
 * while it runs); between samples the page extrapolates: `time + (now − wallTime) × speed`,
 * frozen while paused, and not extrapolated at speed `max` (time jumps timer to timer there,
 * so any guess would be wrong).
 *
 * @module
 */
import type { ClockState } from './json.js';

export function clusterNowMs(clock: ClockState, wallNow: number): number {
  const base = Date.parse(clock.time);
  if (clock.paused || clock.state === 'Paused' || clock.speed === 'max') return base;
  const speed = Number(clock.speed);
  if (!Number.isFinite(speed) || speed <= 0) return base;
  return base + Math.max(0, wallNow - clock.wallTime) * speed;
}

/** `4m 12s`, `1h 0m 5s`, `12s`, `0s`: whole seconds, rounded up so a countdown never shows 0 early. */
export function formatDuration(ms: number): string {
  let s = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(s / 86_400);
  s -= d * 86_400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  if (d > 0) return `${d}d ${h}h ${m}m`;
  if (h > 0) return `${h}h ${m}m ${s}s`;
  if (m > 0) return `${m}m ${s}s`;
  return `${s}s`;
}

/** The countdown text of a fleet member: from `replacementDue` minus cluster time now. */
export function countdownText(dueMs: number, nowMs: number): string {
  const left = dueMs - nowMs;
  return left > 0 ? `replaced in ${formatDuration(left)}` : 'replacement due now';
}

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** A Go duration (`90s`, `5m`, `1h30m`, `1.5h`, `500ms`) in ms; undefined when invalid or not > 0. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/y;
  let total = 0;
  let pos = 0;
  while (pos < t.length) {
    re.lastIndex = pos;
    const m = re.exec(t);
    if (m === null) return undefined;
    total += Number(m[1]) * (UNIT_MS[m[2] ?? ''] ?? Number.NaN);
    pos = re.lastIndex;
  }
  return Number.isFinite(total) && total > 0 ? Math.round(total) : undefined;
}

/** `2026-01-01 00:05:12` in UTC: cluster times are shown as the cluster has them. */
export function formatClusterTime(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

/** RFC 3339 with ms, as the Clock's `spec.runUntil` takes it. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString();
}
