import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { eventually, type Harness, startHarness } from '../../controller/testing/harness.js';
import { FakeClock } from '../../util/clock.js';
import { type SimulatedNodesHandle, simulatedNodes } from './index.js';

describe('heartbeats of many nodes on the shared stop signal', () => {
  const MANY = 50;
  let h: Harness;
  const handle: SimulatedNodesHandle = { heartbeats: new Map() };

  before(async () => {
    h = await startHarness({ clock: new FakeClock(Date.parse('2026-01-01T00:00:00Z')) });
    h.run(simulatedNodes({ count: MANY }, handle));
    await eventually(() => handle.heartbeats.size === MANY);
  });
  after(() => h.close());

  // Every request on that signal adds and removes a listener, walking the list each time.
  // Once the first requests (each with its own listener while in flight) have settled.
  it(`adds one listener for ${MANY} nodes, not one each`, async () => {
    const listeners = () => getEventListeners(h.ctx.signal, 'abort').length;
    await eventually(() => listeners() < MANY / 2).catch(() =>
      assert.fail(`${listeners()} listeners on the shared signal`),
    );
  });
});
