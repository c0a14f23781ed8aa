/**
 * The runner against the real API server in-process (real HTTP, watches and discovery) on a
 * fake clock, with a few lines of "kubelet" as the cluster's behaviour (`react`): a pod bound
 * to a node that exists and is not down runs and is Ready 5 s after its creation; a pod
 * being deleted is finished at once unless its node is down.
 *
 * Event times in the timeline are when the runner received the event: exact at a wait's
 * looks, possibly a virtual second late inside an advance (the fake runs 1 s at a time).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ApiClient } from '../../client/api-client.js';
import { parseScenario } from './parse.js';
import type { ScenarioResult } from './results.js';
import { runScenario } from './runner.js';
import { type FakeClusterRecord, fakeStartCluster } from './testing/fake-cluster.js';
import { Timeline } from './timeline.js';

const PODS = { group: '', version: 'v1', plural: 'pods' } as const;
const START_DELAY_MS = 5000;

async function kubelet(client: ApiClient, now: number): Promise<void> {
  const nodes = await client.list({ group: '', version: 'v1', plural: 'nodes' });
  const up = new Set(
    nodes.items
      .filter((n) => n.metadata?.annotations?.['sim.fleetyard.dev/state'] !== 'down')
      .map((n) => n.metadata?.name),
  );
  for (const p of (await client.list(PODS)).items) {
    const meta = p.metadata ?? {};
    const node =
      typeof p.spec === 'object' && p.spec !== null ? Reflect.get(p.spec, 'nodeName') : undefined;
    if (typeof node !== 'string' || !up.has(node)) continue;
    const ref = { ...PODS, namespace: meta.namespace, name: meta.name ?? '' };
    if (meta.deletionTimestamp) {
      await client.delete(ref, { gracePeriodSeconds: 0 }).catch(() => undefined);
      continue;
    }
    const phase =
      typeof p.status === 'object' && p.status !== null
        ? Reflect.get(p.status, 'phase')
        : undefined;
    if (phase === 'Running' || now - Date.parse(meta.creationTimestamp ?? '') < START_DELAY_MS)
      continue;
    const status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
    await client.patch(ref, { status }, 'merge', { subresource: 'status' });
  }
}

function podYaml(name: string, node: string, labels = '{app: web}'): string {
  return `apiVersion: v1
kind: Pod
metadata: {name: ${name}, labels: ${labels}}
spec: {nodeName: ${node}, containers: [{name: c, image: nginx}]}`;
}

function block(text: string, n = 6): string {
  return text
    .split('\n')
    .map((l) => `${' '.repeat(n)}${l}`)
    .join('\n');
}

async function run(
  text: string,
  record?: FakeClusterRecord,
): Promise<{ result: ScenarioResult; lines: string[] }> {
  const scenario = await parseScenario(text, { file: 't.yaml' });
  const lines: string[] = [];
  const result = await runScenario(scenario, {
    startCluster: fakeStartCluster({ react: kubelet }, record),
    listener: new Timeline((l) => lines.push(l)),
  });
  return { result, lines };
}

function statuses(r: ScenarioResult): string[] {
  return r.steps.map(
    (s) => `${s.step.index} ${s.status}${s.status === 'failed' ? `: ${s.message}` : ''}`,
  );
}

describe('runScenario', () => {
  test('a run where everything holds: waits end when the condition holds, writes land', async () => {
    const record: FakeClusterRecord = { stopped: false };
    const { result, lines } = await run(
      `
name: happy
cluster: {nodes: 2, seed: 3, start: "2026-03-01T00:00:00Z"}
invariants:
  - name: at most one pod not ready
    kind: Pod
    selector: app=web
    cel: "objects.filter(p, !p.status.?conditions.orValue([]).exists(c, c.type == 'Ready' && c.status == 'True')).size() <= 1"
steps:
  - apply: |
${block(podYaml('web-0', 'fleetyard-node-1'))}
  - wait: {for: condition=Ready, kind: Pod, name: web-0, timeout: 1m}
  - expect: {kind: Pod, name: web-0, jsonpath: '{.status.phase}', equals: Running}
  - fault: {node-down: fleetyard-node-2}
  - expect: {kind: Node, name: fleetyard-node-2, jsonpath: "{.metadata.annotations['sim\\\\.fleetyard\\\\.dev/state']}", equals: down}
  - cordon: fleetyard-node-1
  - expect: {kind: Node, name: fleetyard-node-1, cel: "object.spec.unschedulable"}
  - uncordon: fleetyard-node-1
  - patch: {kind: Pod, name: web-0, patch: {metadata: {labels: {tier: a}}}}
  - expect: {kind: Pod, selector: tier=a, count: {equals: 1}}
  - delete: {kind: Pod, name: web-0}
  - wait: {for: delete, kind: Pod, name: web-0}
  - advance: 15m
`,
      record,
    );
    assert.deepEqual(
      statuses(result),
      Array.from({ length: 13 }, (_, i) => `${i + 1} passed`),
    );
    assert.equal(result.passed, true);
    assert.equal(record.stopped, true);
    assert.deepEqual(record.options, {
      clock: 'virtual',
      speed: 0,
      nodes: 2,
      seed: 3,
      start: '2026-03-01T00:00:00Z',
      logLevel: 'silent',
    });
    // The wait moved time in 1 s steps and stopped when the pod turned Ready at +5 s.
    assert.equal(result.steps[1]?.virtualMs, START_DELAY_MS);
    assert.equal(result.steps[1]?.message, 'after 5s: Pod default/web-0: condition Ready is True');
    assert.equal(result.virtualMs, START_DELAY_MS + 1000 + 15 * 60_000);
    assert.ok((result.invariants[0]?.checks ?? 0) >= 3, 'checked at each pod event');
    const has = (re: RegExp) =>
      assert.ok(
        lines.some((l) => re.test(l)),
        `${re}\n${lines.join('\n')}`,
      );
    has(
      /^\[\+00:00:05\.000\] {3}MODIFIED Pod default\/web-0 rv=\d+: Running, Ready, on fleetyard-node-1$/,
    );
    has(
      /^\[\+00:00:05\.000\] {3}MODIFIED Node fleetyard-node-2 rv=\d+: Ready=Unknown, kubelet down$/,
    );
    has(
      /^\[\+00:00:05\.000\] {3}MODIFIED Pod default\/web-0 rv=\d+: Running, Ready, on fleetyard-node-1, Terminating$/,
    );
    has(
      /^\[\+00:00:06\.000\] {3}DELETED Pod default\/web-0 rv=\d+: Running, Ready, on fleetyard-node-1, Terminating$/,
    );
    assert.ok(lines.includes('[+00:00:06.000] step 13 advance 15m'), lines.join('\n'));
    assert.match(
      lines.at(-1) ?? '',
      /^--- PASS happy: 13\/13 steps, 1 invariants, 15m6s of virtual time in /,
    );
  });

  test('a wait that times out fails its step at the timeout and skips the rest', async () => {
    const { result } = await run(`
name: timeout
steps:
  - apply: |
${block(podYaml('web-0', 'nowhere'))}
  - wait: {for: condition=Ready, kind: Pod, name: web-0, timeout: 10s, interval: 3s}
  - advance: 1m
`);
    assert.deepEqual(statuses(result), [
      '1 passed',
      '2 failed: timed out after 10s waiting for condition=Ready: Pod default/web-0: no condition Ready',
      '3 skipped',
    ]);
    // 3 s steps, the last one cut to end at the timeout.
    assert.equal(result.steps[1]?.virtualMs, 10_000);
    assert.equal(result.passed, false);
  });

  test('a violated invariant fails the run with the events that led to it', async () => {
    const { result, lines } = await run(`
name: broken
invariants:
  - name: never two pods on one node
    kind: Pod
    cel: "objects.all(a, objects.filter(b, b.spec.nodeName == a.spec.nodeName).size() == 1)"
steps:
  - apply: |
${block(podYaml('web-0', 'fleetyard-node-1'))}
  - advance: 10s
  - {name: second, apply: "${podYaml('web-1', 'fleetyard-node-1').replaceAll('\n', '\\n')}"}
  - advance: 10s
`);
    assert.deepEqual(statuses(result), ['1 passed', '2 passed', '3 passed', '4 skipped']);
    const inv = result.invariants[0];
    assert.equal(inv?.status, 'failed');
    assert.equal(inv?.duringStep, 3);
    assert.equal(inv?.violation?.event?.name, 'web-1');
    const text = lines.join('\n');
    assert.match(
      text,
      /\[\+00:00:10\.000\] {3}VIOLATED invariant "never two pods on one node": objects\.all/,
    );
    assert.match(
      text,
      /invariant "never two pods on one node" violated at \[\+00:00:10\.000\] during step 3/,
    );
    assert.match(
      text,
      /event history \(last 3 events\):\n {8}\[\+00:00:00\.000\] ADDED Pod default\/web-0 rv=\d+: Pending, on fleetyard-node-1\n {8}\[\+00:00:0[56]\.000\] MODIFIED Pod default\/web-0 rv=\d+: Running, Ready, on fleetyard-node-1\n {5}>> \[\+00:00:10\.000\] ADDED Pod default\/web-1 rv=\d+: Pending, on fleetyard-node-1\n/,
    );
    assert.match(text, /--- FAIL broken: 3\/4 steps/);
  });

  test('drain evicts and waits for the pods; a PodDisruptionBudget blocks it', async () => {
    const { result } = await run(`
name: drain
steps:
  - apply: |
${block(podYaml('a', 'fleetyard-node-1'))}
      ---
${block(podYaml('b', 'fleetyard-node-2'))}
  - wait: {for: condition=Ready, kind: Pod, selector: app=web, timeout: 1m}
  - drain: {node: fleetyard-node-1, timeout: 1m}
  - expect: {kind: Pod, selector: app=web, count: {equals: 1}}
  - apply: |
      apiVersion: policy/v1
      kind: PodDisruptionBudget
      metadata: {name: web}
      spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}
  - drain: {node: fleetyard-node-2, timeout: 20s, outcome: blocked}
  - expect: {kind: Pod, name: b, for: create}
`);
    assert.deepEqual(
      statuses(result),
      Array.from({ length: 7 }, (_, i) => `${i + 1} passed`),
    );
    assert.match(result.steps[5]?.message ?? '', /^drain blocked for 20s: /);
  });

  test('random faults: the same seed injects the same faults at the same virtual times', async () => {
    const text = `
name: random
cluster: {nodes: 3}
steps:
  - random-faults: {duration: 2m, every: 20s, faults: [node-down, node-up], seed: 7, maxNodesDown: 2}
  - expect: {kind: Node, count: {equals: 3}}
`;
    const notes = (lines: string[]) => lines.filter((l) => l.includes('random fault'));
    const first = await run(text);
    const second = await run(text);
    assert.equal(first.result.passed, true, statuses(first.result).join('\n'));
    assert.equal(notes(first.lines).length, 6);
    assert.deepEqual(notes(first.lines), notes(second.lines));
    assert.match(first.result.steps[0]?.message ?? '', /^6 faults in 2m$/);
  });

  test('a cluster that does not start fails the run, every step not run', async () => {
    const scenario = await parseScenario('name: x\nsteps: [{advance: 1s}]\n', { file: 'x.yaml' });
    const result = await runScenario(scenario, {
      startCluster: async () => {
        throw new Error('no port');
      },
    });
    assert.deepEqual(result.error, { phase: 'start', message: 'no port' });
    assert.deepEqual(statuses(result), ['1 skipped']);
  });
});
