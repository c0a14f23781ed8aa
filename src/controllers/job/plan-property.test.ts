/**
 * Properties of the Job planner over random histories: pods end (succeed, fail, get deleted)
 * at random, finalizer removals get lost at random, and the planner runs after every change.
 * Checked after every sync: a pod is counted at most once (succeeded + failed, counted and
 * uncounted, never exceed the pods that ended), the counters never go down, no more
 * pods are active than parallelism, an Indexed Job never runs two pods of one index, and a
 * finished Job stays finished. Once disturbances stop and every pod succeeds, the Job finishes
 * and every ended pod is counted exactly once.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { JobSpec } from '../../api/model/batch.generated.js';
import { COMPLETION_INDEX_KEY } from './constants.js';
import { isJobFinished } from './plan.js';
import { JobWorld } from './testing/world.js';

type Event = { kind: 'succeed' | 'fail' | 'delete'; pick: number } | { kind: 'tick' };

const event: fc.Arbitrary<Event> = fc.oneof(
  fc.record({ kind: fc.constantFrom('succeed', 'fail', 'delete'), pick: fc.nat(20) }),
  fc.constant({ kind: 'tick' as const }),
);

const spec: fc.Arbitrary<Partial<JobSpec>> = fc.oneof(
  fc.record({
    completions: fc.integer({ min: 1, max: 6 }),
    parallelism: fc.integer({ min: 1, max: 4 }),
    backoffLimit: fc.integer({ min: 0, max: 8 }),
    podReplacementPolicy: fc.constantFrom('TerminatingOrFailed', 'Failed'),
  }),
  fc.record({
    completionMode: fc.constant('Indexed'),
    completions: fc.integer({ min: 1, max: 5 }),
    parallelism: fc.integer({ min: 1, max: 5 }),
    backoffLimit: fc.integer({ min: 0, max: 8 }),
  }),
  fc.record({
    completionMode: fc.constant('Indexed'),
    completions: fc.integer({ min: 1, max: 5 }),
    parallelism: fc.integer({ min: 1, max: 5 }),
    backoffLimitPerIndex: fc.integer({ min: 0, max: 2 }),
    backoffLimit: fc.constant(2147483647),
  }),
);

function checkInvariants(w: JobWorld, before: { succeeded: number; failed: number }): void {
  const s = w.job.status ?? {};
  // A deleted pod may still succeed before it is seen, so only the total is exact.
  const succeeded = (s.succeeded ?? 0) + (s.uncountedTerminatedPods?.succeeded?.length ?? 0);
  const failed = (s.failed ?? 0) + (s.uncountedTerminatedPods?.failed?.length ?? 0);
  assert.ok(succeeded + failed <= w.ended.size, 'a pod was counted twice');
  assert.ok((s.succeeded ?? 0) >= before.succeeded, 'succeeded went down');
  assert.ok((s.failed ?? 0) >= before.failed, 'failed went down');
  const active = w.active();
  assert.ok(active.length <= (w.job.spec?.parallelism ?? 1), 'more active pods than parallelism');
  if (w.job.spec?.completionMode === 'Indexed') {
    const indexes = active.map((p) => p.metadata?.annotations?.[COMPLETION_INDEX_KEY]);
    assert.equal(new Set(indexes).size, indexes.length, 'two active pods of one index');
  }
}

/** Runs one random history, checking the invariants after every sync, then the convergence. */
function runHistory(
  s: Partial<JobSpec>,
  events: readonly Event[],
  lose: (uid: string) => boolean,
): void {
  const w = new JobWorld(s);
  let finished = false;
  const sync = (lossy: boolean): void => {
    const before = { succeeded: w.job.status?.succeeded ?? 0, failed: w.job.status?.failed ?? 0 };
    w.step(lossy ? lose : undefined);
    w.collect();
    checkInvariants(w, before);
    if (finished) assert.ok(isJobFinished(w.job), 'a finished Job came back');
    finished = isJobFinished(w.job);
  };
  sync(false);
  for (const e of events) {
    const uid = [...w.pods.keys()][e.kind === 'tick' ? -1 : e.pick % Math.max(1, w.pods.size)];
    if (e.kind !== 'tick' && uid !== undefined) w.end(uid, ENDINGS[e.kind]);
    sync(true);
  }
  // Quiet: removals go through, pods succeed, deleted ones end; backoffs pass (6 min each).
  for (let i = 0; i < 200 && !isJobFinished(w.job); i++) {
    for (const [uid, p] of w.pods)
      w.end(uid, p.metadata?.deletionTimestamp ? 'failed' : 'succeeded');
    w.now += 360_000;
    sync(false);
  }
  for (let i = 0; i < 3; i++) sync(false);
  assert.ok(isJobFinished(w.job), `not finished: ${JSON.stringify(w.job.status)}`);
  const st = w.job.status ?? {};
  assert.deepEqual(st.uncountedTerminatedPods, {});
  if (w.job.spec?.completionMode !== 'Indexed') {
    const counted = (st.succeeded ?? 0) + (st.failed ?? 0);
    assert.equal(counted, w.ended.size, 'an ended pod was lost or counted twice');
  }
}

const ENDINGS = { succeed: 'succeeded', fail: 'failed', delete: 'deleted' } as const;

describe('planJob properties', () => {
  it('counts each pod once, respects parallelism and indexes, and converges', () => {
    fc.assert(
      fc.property(spec, fc.array(event, { maxLength: 40 }), fc.func(fc.boolean()), runHistory),
      { numRuns: 300 },
    );
  });
});
