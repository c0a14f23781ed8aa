/**
 * `leaderElected`: of two managers running the same controller behind one Lease, only the
 * holder runs it; when the holder stops (hands the Lease back), the other takes over.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ControllerContext, ControllerDefinition } from './context.js';
import { leaderElected } from './leader-elected.js';
import { type Harness, startHarness } from './testing/harness.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(async () => {
  await h.close();
});

/** A controller that records whether it runs, until its context stops. */
function probe(running: Set<string>, id: string): ControllerDefinition {
  return {
    name: 'probe',
    agent: 'probe-agent',
    start: async (ctx: ControllerContext) => {
      running.add(id);
      await new Promise<void>((done) =>
        ctx.signal.addEventListener('abort', () => done(), { once: true }),
      );
      running.delete(id);
    },
  };
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('leaderElected', () => {
  it('keeps the name, agent and metrics hook of the wrapped controller', () => {
    const def = leaderElected(probe(new Set(), 'x'), { name: 'l', namespace: 'kube-system' });
    assert.equal(def.name, 'probe');
    assert.equal(def.agent, 'probe-agent');
  });

  it('runs the controller in one manager at a time and fails over when the holder stops', async () => {
    const running = new Set<string>();
    const lease = { name: 'probe-lease', namespace: 'kube-system' };
    const a = new AbortController();
    const b = new AbortController();
    const startIn = (id: string, stop: AbortController) =>
      leaderElected(probe(running, id), lease).start({ ...h.ctx, signal: stop.signal });
    const doneA = startIn('a', a);
    await until(() => running.has('a'));
    const doneB = startIn('b', b);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual([...running], ['a'], 'the standby must not run while the Lease is held');
    a.abort();
    await doneA;
    await until(() => running.has('b'), 20_000);
    assert.deepEqual([...running], ['b']);
    b.abort();
    await doneB;
  });
});
