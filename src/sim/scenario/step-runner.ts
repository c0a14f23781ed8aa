/**
 * What each kind of step does, given an {@link ActionContext}: time (`advance`), looks
 * (`wait`, `expect`), the longer procedures (`drain`, `random-faults`) and the writes.
 *
 * After a write the cluster runs to quiescence at the same virtual time (`advance(0)`): the
 * controllers react to the write (a StatefulSet's first pod is created) before anything
 * looks, so a step's effects are the same in every run and show under that step.
 *
 * `wait` looks, then moves time by its interval (the last move cut to end at the timeout)
 * and looks again: it ends at most one interval after the condition became true, and a
 * timeout means the condition did not hold at any look up to the timeout.
 *
 * @module
 */
import {
  type ActionContext,
  fetchView,
  interrupted,
  runWriteAction,
  StepFailure,
} from './actions.js';
import { evaluateCondition } from './conditions.js';
import { drain } from './drain.js';
import { formatDuration } from './format.js';
import { runRandomFaults } from './random-faults.js';
import { conditionText } from './titles.js';
import type { StepAction } from './types.js';

/** Runs one step; resolves to the timeline's closing note, rejects with {@link StepFailure}. */
export async function runStepAction(
  ctx: ActionContext,
  a: StepAction,
): Promise<string | undefined> {
  const clock = ctx.cluster.clock;
  switch (a.action) {
    case 'advance':
      return advance(ctx, a.durationMs);
    case 'wait':
      return wait(ctx, a);
    case 'expect': {
      const view = await fetchView(ctx, a.check);
      const outcome = evaluateCondition(a.check.condition, view, { now: clock.now().getTime() });
      if (!outcome.ok) {
        throw new StepFailure(`expected ${conditionText(a.check.condition)}: ${outcome.detail}`);
      }
      return outcome.detail;
    }
    case 'drain':
      return drain(ctx, a.node, a.timeoutMs, a.outcome);
    case 'random-faults':
      return runRandomFaults(ctx, a.plan);
    default: {
      const note = await runWriteAction(ctx, a);
      await clock.advance(0);
      return note;
    }
  }
}

/**
 * Long advances go a minute at a time, so a violation an hour into a 24-hour advance ends
 * the run there (the cluster runs the same either way: every timer fires at its time).
 */
const ADVANCE_CHUNK_MS = 60_000;

async function advance(ctx: ActionContext, durationMs: number): Promise<undefined> {
  const clock = ctx.cluster.clock;
  let done = 0;
  do {
    if (ctx.stopped()) throw interrupted(done);
    const chunk = Math.min(ADVANCE_CHUNK_MS, durationMs - done);
    await clock.advance(chunk);
    done += chunk;
  } while (done < durationMs);
  return undefined;
}

async function wait(
  ctx: ActionContext,
  a: Extract<StepAction, { action: 'wait' }>,
): Promise<string> {
  const clock = ctx.cluster.clock;
  const now = (): number => clock.now().getTime();
  const start = now();
  const deadline = start + a.timeoutMs;
  const first = await fetchView(ctx, a.check);
  // `for: delete` waits for the objects there at the start to go (or be replaced by name).
  const baseline =
    first.mode === 'one'
      ? { baselineUid: first.object?.metadata?.uid }
      : { baselineUids: new Set(first.objects.map((o) => o.metadata?.uid ?? '')) };
  let view = first;
  for (;;) {
    const outcome = evaluateCondition(a.check.condition, { ...view, ...baseline }, { now: now() });
    const waited = now() - start;
    if (outcome.ok)
      return `${waited === 0 ? 'at once' : `after ${formatDuration(waited)}`}: ${outcome.detail}`;
    if (ctx.stopped())
      throw new StepFailure(`interrupted by the invariant violation (${outcome.detail})`);
    if (now() >= deadline) {
      throw new StepFailure(
        `timed out after ${formatDuration(a.timeoutMs)} waiting for ${conditionText(a.check.condition)}: ${outcome.detail}`,
      );
    }
    await clock.advance(Math.min(a.intervalMs, deadline - now()));
    view = await fetchView(ctx, a.check);
  }
}
