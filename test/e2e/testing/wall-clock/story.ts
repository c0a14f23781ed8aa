/**
 * A story on the virtual clock, run by `wall-clock-frozen.test.ts` in a process whose wall
 * clock is frozen: a StatefulSet with claims comes up, a node is lost, pods are evicted, an
 * hour passes. Prints, as one JSON line, the virtual time at the end, how many timestamps the
 * run's watch events carried, and those outside the run's virtual interval.
 */
import { startCluster } from '../../../../src/harness/index.js';
import {
  createWebStatefulSet,
  recordEvents,
} from '../../../../src/harness/testing/record-events.js';

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

function timestamps(value: unknown, path: string, out: Map<string, string>): void {
  if (typeof value === 'string' && RFC3339.test(value)) out.set(path, value);
  else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) timestamps(v, `${path}[${i}]`, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) timestamps(v, `${path}.${k}`, out);
  }
}

const START = '2026-01-01T00:00:00Z';
const cluster = await startCluster({ nodes: 3, seed: 5, start: START });
try {
  const recording = await recordEvents(cluster);
  await createWebStatefulSet(cluster);
  await cluster.clock.advance('2m');
  await cluster.chaos.nodeDown('fleetyard-node-1');
  await cluster.clock.advance('1h');
  await recording.caughtUp();
  recording.stop();
  const found = new Map<string, string>();
  for (const [i, e] of recording.events.entries()) {
    const { namespace = '', name } = e.object.metadata ?? {};
    timestamps(e.object, `${i} ${e.type} ${e.path}/${namespace}/${name}`, found);
  }
  const start = Date.parse(START);
  const end = cluster.clock.now().getTime();
  const outside = [...found].filter(([, t]) => Date.parse(t) < start || Date.parse(t) > end);
  const result = {
    now: new Date(end).toISOString(),
    count: found.size,
    outside: outside.slice(0, 20),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await cluster.stop();
}
