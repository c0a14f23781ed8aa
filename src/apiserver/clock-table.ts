/**
 * `kubectl get clock`: the Clock's server-side printer. Loaded with the other printers on the
 * first Table request (`handlers/clock.ts`), not at startup.
 *
 * ```
 * NAME      TIME                       SPEED   STATE       TIMERS   AGE
 * cluster   2026-01-01T00:15:00.000Z   max     Advancing   12       15m
 * ```
 * `-o wide` adds the next timer, whether the cluster is quiescent, and the mode.
 *
 * @module
 */
import { isJsonObject, type KubeObject } from '../api/object.js';
import { column, NAME } from '../api/printers/columns.js';
import { translateTimestampSince } from '../api/printers/duration.js';
import type { KindPrinter, PrintedRow } from '../api/printers/types.js';

const text = (t: string) => ({ text: t });
const WIDE = { priority: 1 };

export const CLOCK_PRINTER: KindPrinter = {
  columns: [
    NAME,
    column('Time', 'string', text("The cluster's time (status.time).")),
    column('Speed', 'string', text('Virtual milliseconds per wall millisecond, or max.')),
    column('State', 'string', text('Running, Paused or Advancing (a run-until is ahead).')),
    column('Timers', 'integer', text('Timers waiting to fire.')),
    // Not the shared AGE column: its description is ObjectMeta's, this one is time since start.
    column('Age', 'string', text('Cluster time since the API server started.')),
    column('Next Timer', 'string', text('When the earliest timer is due.'), WIDE),
    column('Quiescent', 'boolean', text('Nothing in flight and no timer due.'), WIDE),
    column('Mode', 'string', text('virtual, or real (the wall clock).'), WIDE),
  ],
  row(obj: KubeObject, now: Date): PrintedRow {
    const spec = isJsonObject(obj.spec) ? obj.spec : {};
    const status = isJsonObject(obj.status) ? obj.status : {};
    const speed = String(spec.speed ?? '');
    return {
      cells: [
        obj.metadata?.name ?? '',
        String(status.time ?? ''),
        spec.paused === true ? `${speed} (paused)` : speed,
        String(status.state ?? ''),
        typeof status.pendingTimers === 'number' ? status.pendingTimers : 0,
        translateTimestampSince(obj.metadata?.creationTimestamp, now),
        String(status.nextTimer ?? '<none>'),
        status.quiescent === true,
        String(status.mode ?? ''),
      ],
    };
  },
};
