/**
 * The determinism property (issue 15): under the virtual clock at speed `max`, two runs of
 * the same story with the same seed produce the same sequence of watch events (type, kind,
 * name, resourceVersion, and every timestamp and generated name and UID in the objects); a
 * different seed gives a different one.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startCluster } from './index.js';
import { createWebStatefulSet, recordEvents } from './testing/record-events.js';

/** A StatefulSet with claims comes up; a node is lost; 10 minutes pass. */
async function story(seed: number): Promise<string[]> {
  const cluster = await startCluster({ nodes: 3, seed });
  try {
    const recording = await recordEvents(cluster);
    await createWebStatefulSet(cluster);
    await cluster.clock.advance('2m');
    await cluster.chaos.nodeDown('fleetyard-node-2');
    await cluster.clock.advance('10m');
    await recording.caughtUp();
    recording.stop();
    return recording.lines();
  } finally {
    await cluster.stop();
  }
}

/** The first line where two runs differ, for the failure message. */
function firstDifference(a: readonly string[], b: readonly string[]): string {
  const i = a.findIndex((line, k) => line !== b[k]);
  if (i < 0) return a.length === b.length ? 'none' : `lengths ${a.length} and ${b.length}`;
  return `event ${i}:\n  ${a[i]?.slice(0, 300)}\n  ${b[i]?.slice(0, 300)}`;
}

describe('deterministic runs (--seed, virtual clock)', () => {
  it('the same seed gives the same watch events; another seed gives others', async () => {
    const first = await story(11);
    const second = await story(11);
    assert.ok(first.length > 300, `only ${first.length} events recorded`);
    assert.equal(firstDifference(first, second), 'none');
    const other = await story(12);
    assert.notEqual(firstDifference(first, other), 'none');
  });
});
