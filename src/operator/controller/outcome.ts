/**
 * One reconcile's result, before it becomes status: the Go operator's single
 * `report(reason, message, provisioned)` funnel, made explicit. Every step returns an
 * {@link Outcome} or hands on to the next; the status, conditions, `blockedSince`, the
 * Blocked-change events and the metrics are all derived from the one outcome (`status.ts`).
 *
 * @module
 */
import type { FleetReason } from '../api/types.js';
import type { MemberStatusRow } from '../healing/types.js';

/**
 * - `ready`: rolled out and every member Ready;
 * - `progress`: working towards it (rolling, growing, waiting for the scheduler, healing);
 * - `blocked`: cannot proceed until a person acts (a missing ServiceAccount, a foreign
 *   object, a reserved bucket, a member that cannot be placed or replaced);
 * - `paused`: `maintenance.paused`, nothing written;
 * - `deleting`: the fleet has a deletionTimestamp.
 */
export type OutcomeKind = 'ready' | 'progress' | 'blocked' | 'paused' | 'deleting';

export interface Outcome {
  readonly kind: OutcomeKind;
  readonly reason: FleetReason;
  /** An operator-facing sentence: what is happening and what comes next. */
  readonly message: string;
  /** Run again after this long even if nothing changes (a due time on the clock). */
  readonly requeueAfterMs?: number;
  /** The per-member table, when the step computed one. */
  readonly members?: readonly MemberStatusRow[];
}

export const outcome = {
  ready: (message: string): Outcome => ({ kind: 'ready', reason: 'Provisioned', message }),
  progress: (reason: FleetReason, message: string): Outcome => ({
    kind: 'progress',
    reason,
    message,
  }),
  blocked: (reason: FleetReason, message: string): Outcome => ({
    kind: 'blocked',
    reason,
    message,
  }),
};

/** `outcome` with `requeueAfterMs` lowered to `ms` (the earlier of two due times wins). */
export function withRequeue(o: Outcome, ms: number | undefined): Outcome {
  if (ms === undefined) return o;
  const next = o.requeueAfterMs === undefined ? ms : Math.min(o.requeueAfterMs, ms);
  return { ...o, requeueAfterMs: Math.max(1, next) };
}
