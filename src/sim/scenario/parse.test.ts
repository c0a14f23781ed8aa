import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseScenario, ScenarioParseError } from './parse.js';
import type { Scenario } from './types.js';

const POD = `apiVersion: v1
kind: Pod
metadata: {name: web-0, labels: {app: web}}
spec: {containers: [{name: c, image: nginx}]}`;

function indent(text: string, n: number): string {
  return text
    .split('\n')
    .map((l) => ' '.repeat(n) + l)
    .join('\n');
}

async function problems(text: string, files: Record<string, string> = {}): Promise<string[]> {
  try {
    await parseScenario(text, { file: 's.yaml', readText: (p) => read(files, p) });
  } catch (err) {
    if (err instanceof ScenarioParseError) return err.message.split('\n');
    throw err;
  }
  return [];
}

async function read(files: Record<string, string>, path: string): Promise<string> {
  const name = Object.keys(files).find((f) => path.endsWith(`/${f}`));
  if (name === undefined) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
  return files[name] ?? '';
}

describe('parseScenario: good files', () => {
  const cases: [string, string, (s: Scenario) => void][] = [
    [
      'the example of the format',
      `
name: node-loss-force-delete
description: a story
cluster: {nodes: 3, zones: [a, b, c], seed: 1, start: "2026-01-01T00:00:00Z", flags: ["--member-replacement-delay", "10m"]}
invariants:
  - name: at most one member of web unready
    kind: Pod
    namespace: default
    selector: app=web
    cel: "objects.filter(p, !p.status.?conditions.orValue([]).exists(c, c.type == 'Ready' && c.status == 'True')).size() <= 1"
steps:
  - apply: |
${indent(POD, 6)}
  - wait: {for: "condition=Ready", kind: Pod, name: web-0, namespace: default, timeout: 5m}
  - fault: {node-down: fleetyard-node-1}
  - advance: 15m
  - patch: {kind: StatefulSet, name: web, namespace: default, type: merge, patch: {spec: {replicas: 2}}}
  - scale: {kind: StatefulSet, name: web, replicas: 5}
  - delete: {kind: Pod, name: web-0, gracePeriodSeconds: 0, force: true}
  - expect: {kind: Pod, name: web-0, cel: "object.status.phase == 'Running'"}
  - expect: {kind: Pod, name: web-0, jsonpath: '{.status.phase}', equals: Running}
  - expect: {kind: Pod, selector: app=web, count: {equals: 3}}
`,
      (s) => {
        assert.equal(s.name, 'node-loss-force-delete');
        assert.equal(s.cluster.seed, 1);
        assert.deepEqual(s.cluster.flags, ['--member-replacement-delay', '10m']);
        assert.equal(s.invariants[0]?.target.selector, 'app=web');
        assert.deepEqual(
          s.steps.map((x) => x.title),
          [
            'apply pod/web-0',
            'wait condition=Ready Pod default/web-0 (timeout 5m)',
            'fault node-down fleetyard-node-1',
            'advance 15m',
            'patch StatefulSet default/web (merge)',
            'scale StatefulSet default/web to 5',
            'delete Pod default/web-0 (grace 0s)',
            "expect Pod default/web-0: object.status.phase == 'Running'",
            'expect Pod default/web-0: {.status.phase}=Running',
            'expect Pods app=web: count exactly 3',
          ],
        );
        const wait = s.steps[1]?.action;
        assert.ok(wait?.action === 'wait');
        assert.equal(wait.timeoutMs, 300_000);
        assert.equal(wait.intervalMs, 1000);
      },
    ],
    [
      'defaults: wait timeout 30s (kubectl), namespace default in titles, not for nodes',
      `
name: d
steps:
  - wait: {for: delete, kind: Pod, name: p}
  - expect: {kind: Node, name: fleetyard-node-1, for: "condition=Ready"}
  - drain: {node: fleetyard-node-1}
  - delete: {kind: Pod, name: p, force: true}
`,
      (s) => {
        const [wait, , drain, del] = s.steps.map((x) => x.action);
        assert.ok(wait?.action === 'wait' && wait.timeoutMs === 30_000);
        assert.equal(s.steps[1]?.title, 'expect Node fleetyard-node-1: condition=Ready');
        assert.ok(
          drain?.action === 'drain' && drain.outcome === 'drained' && drain.timeoutMs === 300_000,
        );
        assert.ok(del?.action === 'delete' && del.gracePeriodSeconds === 0);
      },
    ],
    [
      'applyFile relative to the scenario, a List, random faults, after',
      `
name: f
invariants:
  - {name: bound, kind: PersistentVolumeClaim, count: {max: 3}, after: setup}
steps:
  - {name: setup, applyFile: manifests/pods.yaml}
  - random-faults: {duration: 24h, every: 30m, faults: [node-down, node-up, lose-volume], seed: 7}
`,
      (s) => {
        const apply = s.steps[0]?.action;
        assert.ok(apply?.action === 'apply');
        assert.deepEqual(
          apply.objects.map((o) => o.metadata?.name),
          ['a', 'b'],
        );
        assert.equal(s.steps[0]?.title, 'apply manifests/pods.yaml: pod/a, pod/b');
        const rf = s.steps[1]?.action;
        assert.ok(rf?.action === 'random-faults');
        assert.deepEqual(rf.plan, {
          durationMs: 86_400_000,
          everyMs: 1_800_000,
          faults: ['node-down', 'node-up', 'lose-volume'],
          seed: 7,
          namespace: undefined,
          selector: undefined,
          maxNodesDown: undefined,
        });
        assert.equal(s.invariants[0]?.after, 'setup');
      },
    ],
  ];
  const files = {
    'pods.yaml': `kind: List\napiVersion: v1\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: a}}\n- {apiVersion: v1, kind: Pod, metadata: {name: b}}\n`,
  };
  for (const [title, text, check] of cases) {
    test(title, async () => {
      check(await parseScenario(text, { file: 's.yaml', readText: (p) => read(files, p) }));
    });
  }
});

describe('parseScenario: bad files name the place, the step and the field', () => {
  const cases: [string, string, string[]][] = [
    [
      'YAML syntax',
      'name: x\nsteps: [\n',
      [
        's.yaml:3:1: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]',
      ],
    ],
    [
      'duplicate keys',
      'name: x\nname: y\nsteps: [{advance: 1s}]\n',
      ['s.yaml:2:1: invalid YAML: Map keys must be unique'],
    ],
    ['no steps', 'name: x\n', ['s.yaml:1:1: missing required field "steps"']],
    [
      'unknown top-level field',
      'name: x\nstep: []\nsteps: [{advance: 1s}]\n',
      ['s.yaml:2:1: step: unknown field "step" (did you mean "steps"?)'],
    ],
    [
      'a typo in a wait',
      'name: x\nsteps:\n  - advance: 1s\n  - wait: {for: delete, kind: Pod, name: p, tmeout: 5m}\n',
      ['s.yaml:4:45: step 2 (wait) wait.tmeout: unknown field "tmeout" (did you mean "timeout"?)'],
    ],
    [
      'a bad duration',
      'name: x\nsteps:\n  - advance: 5 minutes\n',
      [
        's.yaml:3:5: step 1 (advance) advance: must be a Go duration such as 30s, 5m or 1h30m, got "5 minutes"',
      ],
    ],
    [
      'two actions',
      'name: x\nsteps:\n  - {advance: 1s, cordon: n}\n',
      [
        's.yaml:3:5: step 1 (advance): has "advance" and "cordon", but only one of them may be given',
      ],
    ],
    [
      'no action',
      'name: x\nsteps:\n  - {name: n}\n',
      [
        's.yaml:3:5: step 1: needs exactly one of the fields apply, applyFile, wait, expect, fault, advance, patch, scale, delete, cordon, uncordon, drain, random-faults',
      ],
    ],
    [
      'exitCode without crash',
      'name: x\nsteps:\n  - fault: {node-up: n, exitCode: 3}\n',
      ['s.yaml:3:25: step 1 (fault) fault.exitCode: applies to "crash" only'],
    ],
    [
      'an unknown fault',
      'name: x\nsteps:\n  - fault: {reboot: n}\n',
      [
        's.yaml:3:5: step 1 (fault) fault: needs exactly one of the fields node-down, node-up, crash, break-readiness, restore-readiness, lose-volume, fail-zone, restore-zone, fail-node-storage, restore-node-storage',
        's.yaml:3:13: step 1 (fault) fault.reboot: unknown field "reboot"',
      ],
    ],
    [
      'an unknown wait form',
      'name: x\nsteps:\n  - wait: {kind: Pod, name: p, for: ready}\n',
      [
        's.yaml:3:32: step 1 (wait) wait.for: must be delete, create, condition=NAME[=VALUE] or jsonpath={PATH}[=VALUE], got "ready"',
      ],
    ],
    [
      'invalid CEL',
      'name: x\nsteps:\n  - expect: {kind: Pod, name: p, cel: "object.x ==="}\n',
      ['s.yaml:3:34: step 1 (expect) expect.cel: invalid CEL: Unexpected character: ='],
    ],
    [
      'CEL with the list variable on a named object',
      'name: x\nsteps:\n  - expect: {kind: Pod, name: p, cel: "objects.size() > 0"}\n',
      [
        's.yaml:3:34: step 1 (expect) expect.cel: invalid CEL: Unknown variable: objects (with a name, the variable is object)',
      ],
    ],
    [
      'CEL that is not a condition',
      'name: x\nsteps:\n  - expect: {kind: Pod, cel: "objects.size()"}\n',
      ['s.yaml:3:25: step 1 (expect) expect.cel: invalid CEL: must evaluate to bool, not int'],
    ],
    [
      'invalid JSONPath',
      'name: x\nsteps:\n  - expect: {kind: Pod, name: p, jsonpath: "{.status[", equals: x}\n',
      ['s.yaml:3:34: step 1 (expect) expect.jsonpath: invalid JSONPath: unterminated array'],
    ],
    [
      'invalid selector',
      'name: x\nsteps:\n  - expect: {kind: Pod, selector: "a in (", count: {min: 1}}\n',
      [
        "s.yaml:3:25: step 1 (expect) expect.selector: invalid label selector: unable to parse requirement: found '', expected: ',', ')' or identifier",
      ],
    ],
    [
      'name with selector',
      'name: x\nsteps:\n  - expect: {kind: Pod, name: p, selector: a=b, for: create}\n',
      ['s.yaml:3:34: step 1 (expect) expect.selector: name and selector exclude each other'],
    ],
    [
      'timeout on expect',
      'name: x\nsteps:\n  - expect: {kind: Pod, name: p, for: create, timeout: 5s}\n',
      ['s.yaml:3:47: step 1 (expect) expect.timeout: applies to wait only (an expect looks once)'],
    ],
    [
      'min above max',
      'name: x\nsteps:\n  - expect: {kind: Pod, count: {min: 3, max: 1}}\n',
      ['s.yaml:3:33: step 1 (expect) expect.count.min: is more than max (3 > 1)'],
    ],
    [
      'a manifest without a name',
      `name: x\nsteps:\n  - apply: "apiVersion: v1\\nkind: Pod\\n"\n`,
      ['s.yaml:3:5: step 1 (apply) apply: document 1: Pod: metadata.name is missing'],
    ],
    [
      'a missing applyFile',
      'name: x\nsteps:\n  - applyFile: nope.yaml\n',
      ['s.yaml:3:5: step 1 (applyFile) applyFile: cannot read nope.yaml: no such file'],
    ],
    [
      'every longer than duration',
      'name: x\nsteps:\n  - random-faults: {duration: 1h, every: 2h, faults: [node-down]}\n',
      ['s.yaml:3:35: step 1 (random-faults) random-faults.every: is longer than duration'],
    ],
    [
      'a zero interval',
      'name: x\nsteps:\n  - wait: {kind: Pod, name: p, for: delete, interval: 0s}\n',
      ['s.yaml:3:45: step 1 (wait) wait.interval: must be more than 0'],
    ],
    [
      'invariants: after an unknown step, duplicate names, both forms',
      'name: x\ninvariants:\n  - {name: a, kind: Pod, count: {max: 1}, after: nope}\n  - {name: a, kind: Pod, count: {max: 1}}\nsteps: [{advance: 1s}]\n',
      [
        's.yaml:3:43: invariant 1 "a" after: no step is named "nope"',
        's.yaml:4:6: invariant 2 "a" name: another invariant is named "a"',
      ],
    ],
    [
      'an invariant with cel and count',
      'name: x\ninvariants:\n  - {name: a, kind: Pod, cel: "true", count: {max: 1}}\nsteps: [{advance: 1s}]\n',
      ['s.yaml:3:5: invariant 1 "a": has "cel" and "count", but only one of them may be given'],
    ],
    [
      'duplicate step names',
      'name: x\nsteps:\n  - {name: a, advance: 1s}\n  - {name: a, advance: 1s}\n',
      ['s.yaml:4:6: step 2 (advance) name: another step is named "a"'],
    ],
  ];
  for (const [title, text, want] of cases) {
    test(title, async () => {
      const got = await problems(text);
      assert.equal(got.length, want.length, got.join('\n'));
      for (const [i, w] of want.entries())
        assert.ok(got[i]?.startsWith(w), `got:\n${got[i]}\nwant prefix:\n${w}`);
    });
  }
});
