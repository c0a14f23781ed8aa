/**
 * The self-healing planner (docs/design/operator.md §6): observed members in, at most one
 * destructive action out, with the Blocked condition, the per-member status table and the
 * next time the plan changes by the clock alone. Pure; the reconcile issues the deletes.
 *
 * Rules, first match wins (one action per plan):
 * 1. A member pod past its deletionTimestamp + 2 min is force-deleted (grace 0); disk kept.
 * 2. A claim being deleted while a scheduled pod pins it: delete that pod (finishes a
 *    replacement interrupted between its two deletes, or a claim deleted by hand).
 * 3. A `Lost` claim: replace the member at once, even while others are down.
 * 4. Exactly one member down (among ordinals below `replicas`) for the replacement delay, its
 *    pod present and not terminating, its claim `Bound` and older than the pod by 1 min, not
 *    waiting on image or config, every other member Ready for 5 min: replace it.
 * Rules 2–4 make a fresh disk, so they also need `fresh`: the workload settled and every other
 * member's pod decided by the scheduler, i.e. present, not terminating, and bound to a node or
 * `PodScheduled=False/Unschedulable` (#79: a fresh disk must not take the zone a kept disk
 * needs; a pod the scheduler found no node for takes none). A down member unschedulable for
 * the delay and not being replaced makes the fleet Blocked (`MemberUnschedulable`).
 */

import { formatTime } from '../../api/time.js';
import {
  forceDeleteAction,
  lostDiskAction,
  releaseDiskAction,
  replaceMemberAction,
} from './healing-actions.js';
import { type MemberFacts, memberFacts } from './member-facts.js';
import {
  ABSORB_WINDOW_MS,
  DEFAULT_MEMBER_REPLACEMENT_DELAY_MS,
  type HealingAction,
  type HealingBlocked,
  type HealingInput,
  type HealingPlan,
  type MemberObservation,
  type MemberStatusRow,
  MIN_MEMBER_REPLACEMENT_DELAY_MS,
} from './types.js';

/** The replacement delay in force: default 10 min, never under 1 min. */
export function replacementDelayMs(configured: number | undefined): number {
  return Math.max(
    configured ?? DEFAULT_MEMBER_REPLACEMENT_DELAY_MS,
    MIN_MEMBER_REPLACEMENT_DELAY_MS,
  );
}

interface Context {
  facts: MemberFacts[];
  /** Members with ordinal below `replicas`: the ones healing keeps. */
  active: MemberFacts[];
  replicas: number;
  delay: number;
  settled: boolean;
  name: (ordinal: number) => string;
}

interface Decision {
  action?: HealingAction;
  blocked?: HealingBlocked;
  rows: MemberStatusRow[];
}

/** Plans one reconcile's healing at `input.now`. */
export function planHealing(input: HealingInput): HealingPlan {
  const ctx = context(input);
  const now = decide(ctx, input.now);
  const plan: HealingPlan = { memberStatus: now.rows };
  if (now.action !== undefined) plan.action = now.action;
  if (now.blocked !== undefined) plan.blocked = now.blocked;
  const next = nextChange(ctx, input.now, now);
  if (next !== undefined) plan.requeueAfterMs = next - input.now;
  return plan;
}

function context(input: HealingInput): Context {
  const replicas = Math.max(0, input.settings.replicas);
  const byOrdinal = new Map<number, MemberObservation>();
  for (const m of input.members) if (!byOrdinal.has(m.ordinal)) byOrdinal.set(m.ordinal, m);
  // Every ordinal the fleet wants gets a row, even when nothing was observed for it.
  for (let o = 0; o < replicas; o++) if (!byOrdinal.has(o)) byOrdinal.set(o, { ordinal: o });
  const facts = [...byOrdinal.values()]
    .sort((a, b) => a.ordinal - b.ordinal)
    .map((m) => memberFacts(m, input.workloadUid));
  return {
    facts,
    active: facts.filter((f) => f.ordinal < replicas),
    replicas,
    delay: replacementDelayMs(input.settings.memberReplacementDelayMs),
    settled: input.workloadSettled,
    name: (o) => `${input.workloadName}-${o}`,
  };
}

/**
 * #79: a fresh disk for `ordinal` only when the scheduler has decided every other member's pod
 * (bound to a node, or found no node: Go `fresh`/`scheduleDecided`). A missing, terminating or
 * not-yet-tried pod may still take the zone its kept disk needs; an Unschedulable one holds no
 * zone, and waiting for it delays a Lost member until the scheduler places it, which after a
 * node loss took ~2 min and with its node gone may never happen (issue 14 item 9).
 */
function freshAllowed(ctx: Context, ordinal: number): boolean {
  return ctx.settled && ctx.active.every((g) => g.ordinal === ordinal || g.scheduleDecided);
}

const WAIT_FRESH = 'waits until the workload is settled and no other member awaits the scheduler';
const ABSORB_WAIT_TAIL = 'every other member has been Ready for 5 minutes';
const ABSORB_WAIT = `not before ${ABSORB_WAIT_TAIL}`;

function decide(ctx: Context, now: number): Decision {
  const notes = new Map<number, string>();
  const dues = new Map<number, number>();
  const action =
    stuckPod(ctx, now) ??
    pinnedClaim(ctx, notes) ??
    lostClaim(ctx, notes) ??
    oneDown(ctx, now, notes, dues);
  const blocked = blockedCondition(ctx, now, action?.ordinal);
  const rows = ctx.facts.map((f) => row(f, notes.get(f.ordinal), dues.get(f.ordinal)));
  const d: Decision = { rows };
  if (action !== undefined) d.action = action;
  if (blocked !== undefined) d.blocked = blocked;
  return d;
}

function stuckPod(ctx: Context, now: number): HealingAction | undefined {
  for (const f of ctx.facts) {
    if (f.terminating && f.forceDeleteAt !== undefined && now >= f.forceDeleteAt) {
      const a = forceDeleteAction(f, ctx.name(f.ordinal));
      if (a !== undefined) return a;
    }
  }
  return undefined;
}

function pinnedClaim(ctx: Context, notes: Map<number, string>): HealingAction | undefined {
  for (const f of ctx.active) {
    if (!f.claimTerminating || f.pod === undefined || f.terminating || f.awaitsScheduler) continue;
    if (!freshAllowed(ctx, f.ordinal)) {
      notes.set(f.ordinal, `its disk is being deleted; releasing it ${WAIT_FRESH}`);
      continue;
    }
    const a = releaseDiskAction(f, ctx.name(f.ordinal));
    if (a !== undefined) return a;
  }
  return undefined;
}

function lostClaim(ctx: Context, notes: Map<number, string>): HealingAction | undefined {
  for (const f of ctx.active) {
    if (f.claimPhase !== 'Lost' || f.claimTerminating) continue;
    if (!freshAllowed(ctx, f.ordinal)) {
      notes.set(f.ordinal, `its volume is lost; replacing it ${WAIT_FRESH}`);
      continue;
    }
    const a = lostDiskAction(f, ctx.name(f.ordinal));
    if (a !== undefined) return a;
  }
  return undefined;
}

function oneDown(
  ctx: Context,
  now: number,
  notes: Map<number, string>,
  dues: Map<number, number>,
): HealingAction | undefined {
  const down = ctx.active.filter((f) => f.down);
  const [f, second] = down;
  if (f === undefined) return undefined;
  const name = ctx.name(f.ordinal);
  if (second !== undefined) {
    for (const d of down) {
      const other = down.find((o) => o !== d);
      if (other !== undefined && !notes.has(d.ordinal))
        notes.set(d.ordinal, `not replaced while member ${ctx.name(other.ordinal)} is also down`);
    }
    return undefined;
  }
  const refusal = ineligible(f);
  if (refusal !== undefined || f.downSince === undefined) {
    notes.set(f.ordinal, refusal ?? 'down since an unknown time; not replaced');
    return undefined;
  }
  const due = f.downSince + ctx.delay;
  dues.set(f.ordinal, due);
  const stable = othersStable(ctx, f.ordinal, now);
  if (now < due) {
    // Both waits are named when both hold: the countdown alone would promise a time the
    // absorb window may overrun, the window alone would hide the countdown.
    const countdown = `member ${name} is down; it is replaced on a fresh disk at ${formatTime(due)} unless it returns`;
    notes.set(f.ordinal, stable ? countdown : `${countdown}, and ${ABSORB_WAIT}`);
    return undefined;
  }
  if (!stable) {
    notes.set(f.ordinal, `replaced only after ${ABSORB_WAIT_TAIL}`);
    return undefined;
  }
  if (!freshAllowed(ctx, f.ordinal)) {
    notes.set(
      f.ordinal,
      `member ${name} is down; it is due to be replaced on a fresh disk and ${WAIT_FRESH}`,
    );
    return undefined;
  }
  return replaceMemberAction(f, name, f.downSince);
}

/** Why a lone down member may not be replaced at all, whatever the clock says. */
function ineligible(f: MemberFacts): string | undefined {
  if (f.pod === undefined) return 'its pod does not exist yet';
  if (f.terminating) return 'its pod is terminating';
  if (f.claim === undefined || f.claimTerminating || f.claimPhase !== 'Bound')
    return 'its disk is not Bound';
  if (f.waitingOnConfig) return 'waiting on its image or configuration; a new disk cannot fix that';
  if (f.diskMadeForPod)
    return 'its disk was made for its current pod; replacing it again would not help';
  return undefined;
}

/** Every other active member is ready with a known Ready time at least 5 min old (5:00 counts). */
function othersStable(ctx: Context, ordinal: number, now: number): boolean {
  return ctx.active.every(
    (g) =>
      g.ordinal === ordinal ||
      (g.ready && g.readySince !== undefined && now - g.readySince >= ABSORB_WINDOW_MS),
  );
}

function blockedCondition(
  ctx: Context,
  now: number,
  acting: number | undefined,
): HealingBlocked | undefined {
  const down = ctx.active.filter((f) => f.down);
  for (const f of down) {
    if (
      f.ordinal === acting ||
      f.unschedulableSince === undefined ||
      now - f.unschedulableSince < ctx.delay
    )
      continue;
    const other = down.find((o) => o !== f);
    const msg = `Member ${ctx.name(f.ordinal)} has not been scheduled since ${formatTime(f.unschedulableSince)}: ${f.unschedulableMessage ?? ''}`;
    return {
      reason: 'MemberUnschedulable',
      message:
        other === undefined
          ? msg
          : `${msg}; it is not replaced while member ${ctx.name(other.ordinal)} is also down`,
    };
  }
  return undefined;
}

function row(f: MemberFacts, note: string | undefined, due: number | undefined): MemberStatusRow {
  const r: MemberStatusRow = {
    ordinal: f.ordinal,
    pod: f.pod?.metadata?.name ?? null,
    ready: f.ready,
    node: f.node?.name ?? null,
    zone: f.node?.zone ?? null,
    claim: f.claim?.metadata?.name ?? null,
    claimPhase: f.claimPhase ?? null,
    downSince: f.down && f.downSince !== undefined ? formatTime(f.downSince) : null,
    replacementDue: due === undefined ? null : formatTime(due),
  };
  if (note !== undefined) r.note = note;
  return r;
}

/**
 * The earliest future time at which the decision (action or Blocked) changes by the clock
 * alone. The decision is piecewise constant between the facts' thresholds, so checking those
 * thresholds is complete; a threshold that changes nothing is skipped, so the reconcile never
 * wakes for nothing.
 */
function nextChange(ctx: Context, now: number, current: Decision): number | undefined {
  // Rows count too: a note or due time that changes by the clock alone (the end of the others'
  // 5-minute window) must be reported when it changes, not at the next unrelated event.
  const key = (d: Decision): string => JSON.stringify([d.action, d.blocked, d.rows]);
  const currentKey = key(current);
  const candidates = new Set<number>();
  for (const f of ctx.facts) {
    if (f.forceDeleteAt !== undefined) candidates.add(f.forceDeleteAt);
    if (f.downSince !== undefined) candidates.add(f.downSince + ctx.delay);
    if (f.readySince !== undefined) candidates.add(f.readySince + ABSORB_WINDOW_MS);
    if (f.unschedulableSince !== undefined) candidates.add(f.unschedulableSince + ctx.delay);
  }
  const future = [...candidates].filter((t) => t > now).sort((a, b) => a - b);
  return future.find((t) => key(decide(ctx, t)) !== currentKey);
}
