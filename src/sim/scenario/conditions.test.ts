import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseJsonPath } from '../../api/jsonpath/index.js';
import type { KubeObject } from '../../api/object.js';
import { compileCel } from './cel.js';
import {
  type CheckView,
  conditionMet,
  evaluateCondition,
  jsonPathMet,
  parseWaitFor,
} from './conditions.js';
import type { Condition } from './types.js';

function pod(
  name: string,
  status: Record<string, unknown>,
  meta: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, ...meta },
    status,
  };
}

const READY = pod('web-0', { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] });
const UNREADY = pod('web-1', {
  phase: 'Running',
  conditions: [{ type: 'Ready', status: 'False' }],
});

describe('parseWaitFor (kubectl wait --for)', () => {
  const ok: [string, unknown][] = [
    ['delete', { type: 'delete' }],
    ['create', { type: 'create' }],
    ['condition=Ready', { type: 'condition', condition: 'Ready', status: 'True' }],
    ['condition=Ready=false', { type: 'condition', condition: 'Ready', status: 'false' }],
    ['condition=Available=True', { type: 'condition', condition: 'Available', status: 'True' }],
  ];
  for (const [text, want] of ok) {
    test(text, () => assert.deepEqual(parseWaitFor(text), want));
  }
  const paths: [string, string, string | undefined][] = [
    ['jsonpath={.status.phase}=Running', '{.status.phase}', 'Running'],
    ["jsonpath='{.status.phase}'=Running", '{.status.phase}', 'Running'],
    ['jsonpath=.status.phase=Running', '{.status.phase}', 'Running'],
    ['jsonpath={.status.loadBalancer.ingress}', '{.status.loadBalancer.ingress}', undefined],
    [
      'jsonpath={.status.conditions[?(@.type=="Ready")].status}=True',
      '{.status.conditions[?(@.type=="Ready")].status}',
      'True',
    ],
  ];
  for (const [text, source, value] of paths) {
    test(text, () => {
      const w = parseWaitFor(text);
      assert.ok(w.type === 'jsonpath');
      assert.equal(w.path.source, source);
      assert.equal(w.value, value);
    });
  }
  const bad: [string, RegExp][] = [
    ['ready', /unrecognized condition "ready"/],
    ['condition=', /condition name is empty/],
    ['condition=Ready=', /condition value is empty/],
    ['jsonpath={.a}x', /junk after the path/],
  ];
  for (const [text, err] of bad) {
    test(`rejects ${text}`, () => assert.throws(() => parseWaitFor(text), err));
  }
});

describe('conditionMet (kubectl ConditionalWait.checkCondition)', () => {
  const cases: [string, KubeObject, string, string, boolean][] = [
    ['True is met', READY, 'Ready', 'True', true],
    ['type and status fold case', READY, 'ready', 'true', true],
    ['False is not True', UNREADY, 'Ready', 'True', false],
    ['waiting for False', UNREADY, 'Ready', 'False', true],
    ['no such condition', READY, 'Initialized', 'True', false],
    ['no conditions at all', pod('p', {}), 'Ready', 'True', false],
    [
      'a condition observed for an older generation is not met',
      pod(
        'p',
        { conditions: [{ type: 'Ready', status: 'True', observedGeneration: 1 }] },
        { generation: 2 },
      ),
      'Ready',
      'True',
      false,
    ],
    [
      'status.observedGeneration counts when the condition has none',
      pod(
        'p',
        { observedGeneration: 1, conditions: [{ type: 'Ready', status: 'True' }] },
        { generation: 2 },
      ),
      'Ready',
      'True',
      false,
    ],
    [
      'observed the current generation',
      pod(
        'p',
        { observedGeneration: 2, conditions: [{ type: 'Ready', status: 'True' }] },
        { generation: 2 },
      ),
      'Ready',
      'True',
      true,
    ],
  ];
  for (const [title, obj, name, status, want] of cases) {
    test(title, () => assert.equal(conditionMet(name, status, obj).ok, want));
  }
});

describe('jsonPathMet (kubectl JSONPathWait)', () => {
  const p = (s: string) => parseJsonPath(s);
  test('compares the printed value, trimmed', () => {
    assert.equal(jsonPathMet(p('{.status.phase}'), 'Running', READY).ok, true);
    assert.equal(jsonPathMet(p('{.status.phase}'), ' Running ', READY).ok, true);
    assert.equal(jsonPathMet(p('{.status.phase}'), 'Pending', READY).ok, false);
  });
  test('numbers print as Go prints them', () => {
    const o = { kind: 'X', spec: { replicas: 3, ratio: 0.5 } };
    assert.equal(jsonPathMet(p('{.spec.replicas}'), '3', o).ok, true);
    assert.equal(jsonPathMet(p('{.spec.ratio}'), '0.5', o).ok, true);
  });
  test('a missing field is not met yet, not an error', () => {
    const r = jsonPathMet(p('{.status.podIP}'), '10.0.0.1', READY);
    assert.deepEqual([r.ok, r.error], [false, undefined]);
  });
  test('without a value, finding one is enough', () => {
    assert.equal(jsonPathMet(p('{.status.phase}'), undefined, READY).ok, true);
    assert.equal(jsonPathMet(p('{.status.podIP}'), undefined, READY).ok, false);
  });
  test('more than one value, or a map with a value, is an error', () => {
    assert.throws(
      () =>
        jsonPathMet(
          p('{.status.conditions[*].type}'),
          'Ready',
          pod('p', { conditions: [{ type: 'A' }, { type: 'B' }] }),
        ),
      /more than one value/,
    );
    assert.throws(() => jsonPathMet(p('{.status}'), 'x', READY), /nested object/);
  });
});

describe('evaluateCondition', () => {
  const cond = (text: string): Condition => ({ form: 'for', text, waitFor: parseWaitFor(text) });
  const one = (object: KubeObject | undefined, baselineUid?: string): CheckView => ({
    mode: 'one',
    object,
    baselineUid,
  });
  const list = (objects: KubeObject[], baselineUids?: Set<string>): CheckView => ({
    mode: 'list',
    objects,
    baselineUids,
  });
  const now = { now: Date.UTC(2026, 0, 1) };
  const cases: [string, Condition, CheckView, boolean, string][] = [
    [
      'a named object that does not exist yet is not ready yet',
      cond('condition=Ready'),
      one(undefined),
      false,
      'not found',
    ],
    [
      'ready',
      cond('condition=Ready'),
      one(READY),
      true,
      'Pod default/web-0: condition Ready is True',
    ],
    ['delete: gone', cond('delete'), one(undefined, 'uid-web-0'), true, 'deleted'],
    [
      'delete: still there',
      cond('delete'),
      one(READY, 'uid-web-0'),
      false,
      'Pod default/web-0 still exists',
    ],
    [
      'delete: replaced under the same name',
      cond('delete'),
      one(READY, 'uid-old'),
      true,
      'deleted',
    ],
    [
      'delete of a list: the objects seen first are gone',
      cond('delete'),
      list([UNREADY], new Set(['uid-web-0'])),
      true,
      'deleted',
    ],
    [
      'delete of a list: one left',
      cond('delete'),
      list([READY], new Set(['uid-web-0'])),
      false,
      'left: Pod default/web-0',
    ],
    ['create', cond('create'), one(READY), true, 'exists'],
    ['create: not yet', cond('create'), list([]), false, 'not found'],
    [
      'a list: every object must meet it',
      cond('condition=Ready'),
      list([READY, UNREADY]),
      false,
      'Pod default/web-1: condition Ready is False',
    ],
    [
      'a list: all ready',
      cond('condition=Ready'),
      list([READY, READY]),
      true,
      '2 objects: condition Ready is True',
    ],
    [
      'an empty list does not meet a condition',
      cond('condition=Ready'),
      list([]),
      false,
      'no matching objects',
    ],
    [
      'count',
      { form: 'count', count: { equals: 2 } },
      list([READY, UNREADY]),
      true,
      'count is 2, want exactly 2',
    ],
    [
      'count bounds',
      { form: 'count', count: { min: 3 } },
      list([READY]),
      false,
      'count is 1, want at least 3',
    ],
    [
      'count of JSONPath values over the list',
      {
        form: 'count',
        count: {
          max: 0,
          jsonpath: parseJsonPath(
            '{.items[?(@.status.conditions[0].status=="False")].metadata.name}',
          ),
        },
      },
      list([READY, UNREADY]),
      false,
      'count is 1, want at most 0',
    ],
    [
      'cel over a named object',
      { form: 'cel', cel: compileCel("object.status.phase == 'Running'", 'object') },
      one(READY),
      true,
      "object.status.phase == 'Running' is true",
    ],
    [
      'cel over a list',
      { form: 'cel', cel: compileCel('objects.size() == 2', 'objects') },
      list([READY, UNREADY]),
      true,
      'objects.size() == 2 is true (2 objects)',
    ],
    [
      'jsonpath form',
      { form: 'jsonpath', path: parseJsonPath('{.status.phase}'), equals: 'Running' },
      one(READY),
      true,
      'Pod default/web-0: {.status.phase} is "Running"',
    ],
  ];
  for (const [title, c, view, ok, detail] of cases) {
    test(title, () => {
      const r = evaluateCondition(c, view, now);
      assert.deepEqual([r.ok, r.detail], [ok, detail]);
    });
  }

  test('a CEL error is an outcome, not a throw', () => {
    const r = evaluateCondition(
      { form: 'cel', cel: compileCel('object.status.nope == 1', 'object') },
      one(READY),
      now,
    );
    assert.equal(r.ok, false);
    assert.equal(r.error, true);
    assert.match(r.detail, /nope/);
  });

  test('now is the virtual time', () => {
    const c = compileCel("now == timestamp('2026-01-01T00:00:00Z')", 'object');
    assert.equal(evaluateCondition({ form: 'cel', cel: c }, one(READY), now).ok, true);
  });
});
