import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { parseJsonPath } from '../../api/jsonpath/index.js';
import type { KubeObject } from '../../api/object.js';
import { compileCel } from './cel.js';
import { type EventType, InvariantEngine } from './invariants.js';
import type { Invariant } from './types.js';

const T0 = Date.UTC(2026, 0, 1);

function pod(
  name: string,
  ready: boolean,
  extra: { ns?: string; labels?: Record<string, string>; rv?: number } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: extra.ns ?? 'default',
      labels: extra.labels ?? { app: 'web' },
      resourceVersion: String(extra.rv ?? 1),
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

function claim(name: string, phase: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'default' },
    status: { phase },
  };
}

const UNREADY_CEL =
  "objects.filter(p, !p.status.?conditions.orValue([]).exists(c, c.type == 'Ready' && c.status == 'True')).size() <= 1";

function celInvariant(
  name: string,
  cel: string,
  target: Invariant['target'] = { kind: 'Pod' },
  after?: string,
): Invariant {
  return {
    name,
    target,
    rule: { form: 'cel', cel: compileCel(cel, 'invariant') },
    text: cel,
    after,
  };
}

function engineFor(invariants: Invariant[], key = 'pods', historySize = 20): InvariantEngine {
  const e = new InvariantEngine(invariants, { historySize });
  for (const inv of invariants) e.bind(inv, key, T0);
  e.sync(key, [], T0);
  return e;
}

describe('InvariantEngine', () => {
  test('the first violating event is reported, with the history that led to it', () => {
    const inv = celInvariant('at most one unready', UNREADY_CEL, {
      kind: 'Pod',
      selector: 'app=web',
    });
    const e = engineFor([inv]);
    const seq: [EventType, KubeObject][] = [
      ['ADDED', pod('web-0', true)],
      ['ADDED', pod('web-1', true)],
      ['MODIFIED', pod('web-0', false, { rv: 2 })],
      ['MODIFIED', pod('web-1', false, { rv: 3 })], // the second unready pod: violation
      ['MODIFIED', pod('web-1', true, { rv: 4 })],
    ];
    const results = seq.map(([type, object], i) =>
      e.observe({ time: T0 + i * 1000, type, key: 'pods', object }),
    );
    assert.deepEqual(
      results.map((r) => r.violation !== undefined),
      [false, false, false, true, false],
    );
    const v = e.violation;
    assert.ok(v);
    assert.equal(v.event?.name, 'web-1');
    assert.equal(v.event?.resourceVersion, '3');
    assert.equal(v.time, T0 + 3000);
    assert.match(v.message, /is false \(2 objects\)/);
    const h = e.history();
    assert.deepEqual(
      h.before.map((x) => `${x.type} ${x.name} ${x.summary}`),
      [
        'ADDED web-0 Running, Ready',
        'ADDED web-1 Running, Ready',
        'MODIFIED web-0 Running, not ready',
        'MODIFIED web-1 Running, not ready',
      ],
    );
    assert.deepEqual(
      h.after.map((x) => x.resourceVersion),
      ['4'],
    );
  });

  test('only events of matching objects re-evaluate an invariant', () => {
    const inv = celInvariant('web in default', 'objects.size() <= 5', {
      kind: 'Pod',
      namespace: 'default',
      selector: 'app=web',
    });
    const e = engineFor([inv]);
    e.observe({ time: T0, type: 'ADDED', key: 'pods', object: pod('a', true) });
    e.observe({ time: T0, type: 'ADDED', key: 'pods', object: pod('b', true, { ns: 'other' }) });
    e.observe({
      time: T0,
      type: 'ADDED',
      key: 'pods',
      object: pod('c', true, { labels: { app: 'db' } }),
    });
    e.observe({
      time: T0,
      type: 'ADDED',
      key: 'nodes',
      object: { kind: 'Node', metadata: { name: 'n' } },
    });
    // A label change that takes a pod out of the selector is a change of the selected set.
    e.observe({
      time: T0,
      type: 'MODIFIED',
      key: 'pods',
      object: pod('a', true, { labels: { app: 'db' }, rv: 2 }),
    });
    // sync (1) + a (1) + a leaving (1)
    assert.equal(e.statuses()[0]?.checks, 3);
  });

  test('event and oldObject: no claim deleted unless it was Lost', () => {
    const inv = celInvariant(
      'claims are deleted only when Lost',
      "event.type != 'DELETED' || event.object.status.phase == 'Lost'",
      { kind: 'PersistentVolumeClaim' },
    );
    const e = engineFor([inv], 'pvcs');
    const steps: [EventType, KubeObject][] = [
      ['ADDED', claim('data-0', 'Bound')],
      ['MODIFIED', claim('data-0', 'Lost')],
      ['DELETED', claim('data-0', 'Lost')],
      ['ADDED', claim('data-1', 'Bound')],
      ['DELETED', claim('data-1', 'Bound')],
    ];
    const violated = steps.map(
      ([type, object]) =>
        e.observe({ time: T0, type, key: 'pvcs', object }).violation !== undefined,
    );
    assert.deepEqual(violated, [false, false, false, false, true]);
  });

  test('oldObject is the state before the event', () => {
    const inv = celInvariant(
      'never from Lost back to Bound',
      "!has(event.oldObject) || event.oldObject.status.phase != 'Lost' || event.object.status.phase == 'Lost'",
      { kind: 'PersistentVolumeClaim' },
    );
    const e = engineFor([inv], 'pvcs');
    e.observe({ time: T0, type: 'ADDED', key: 'pvcs', object: claim('c', 'Lost') });
    assert.equal(
      e.observe({ time: T0, type: 'MODIFIED', key: 'pvcs', object: claim('c', 'Bound') }).violation
        ?.invariant,
      inv,
    );
  });

  test('an invariant with after is checked from the end of that step on', () => {
    const inv: Invariant = {
      name: 'three pods',
      target: { kind: 'Pod' },
      rule: { form: 'count', count: { min: 3 } },
      text: 'count {min: 3}',
      after: 'setup',
    };
    const e = engineFor([inv]);
    for (const n of ['a', 'b'])
      assert.equal(
        e.observe({ time: T0, type: 'ADDED', key: 'pods', object: pod(n, true) }).violation,
        undefined,
      );
    const v = e.stepDone('setup', T0 + 5000);
    assert.equal(v?.message, 'count is 2, want at least 3');
    assert.equal(v?.event, undefined);
  });

  test('count with a JSONPath counts values in the list', () => {
    const inv: Invariant = {
      name: 'no unready',
      target: { kind: 'Pod' },
      rule: {
        form: 'count',
        count: {
          max: 0,
          jsonpath: parseJsonPath(
            '{.items[?(@.status.conditions[0].status=="False")].metadata.name}',
          ),
        },
      },
      text: 'count',
    };
    const e = engineFor([inv]);
    assert.equal(
      e.observe({ time: T0, type: 'ADDED', key: 'pods', object: pod('a', true) }).violation,
      undefined,
    );
    assert.equal(
      e.observe({ time: T0, type: 'ADDED', key: 'pods', object: pod('b', false) }).violation
        ?.message,
      'count is 1, want at most 0',
    );
  });

  test('events before a kind is synced are history, not state', () => {
    const inv: Invariant = {
      name: 'one pod',
      target: { kind: 'Pod' },
      rule: { form: 'count', count: { max: 1 } },
      text: 'count',
    };
    const e = new InvariantEngine([inv]);
    e.bind(inv, 'pods', T0);
    assert.equal(
      e.observe({ time: T0, type: 'ADDED', key: 'pods', object: pod('a', true) }).violation,
      undefined,
    );
    assert.equal(
      e.observe({ time: T0, type: 'ADDED', key: 'pods', object: pod('b', true) }).violation,
      undefined,
    );
    assert.equal(e.statuses()[0]?.checks, 0);
    assert.equal(
      e.sync('pods', [pod('a', true), pod('b', true)], T0)?.message,
      'count is 2, want at most 1',
    );
  });

  test('a rule that cannot be evaluated is a violation marked as an error', () => {
    const inv = celInvariant('bad', 'objects.all(p, p.spec.nope == 1)');
    const e = engineFor([inv]);
    const v = e.observe({ time: T0, type: 'ADDED', key: 'pods', object: pod('a', true) }).violation;
    assert.equal(v?.error, true);
    assert.match(v?.message ?? '', /^could not be evaluated: /);
  });

  test('the history keeps the last N events before the violation', () => {
    const inv: Invariant = {
      name: 'at most 30',
      target: { kind: 'Pod' },
      rule: { form: 'count', count: { max: 30 } },
      text: 'count',
    };
    const e = engineFor([inv], 'pods', 5);
    for (let i = 0; i < 40; i++)
      e.observe({ time: T0 + i, type: 'ADDED', key: 'pods', object: pod(`p${i}`, true) });
    const h = e.history();
    assert.deepEqual(
      h.before.map((x) => x.name),
      ['p26', 'p27', 'p28', 'p29', 'p30'],
    );
    assert.deepEqual(
      h.after.map((x) => x.name),
      ['p31', 'p32', 'p33', 'p34', 'p35'],
    );
  });

  test('property: the reported violation is the first prefix of the sequence that breaks the rule', () => {
    const event = fc.record({
      name: fc.constantFrom('a', 'b', 'c', 'd'),
      ready: fc.boolean(),
      del: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 40 }),
        fc.integer({ min: 0, max: 3 }),
        (events, limit) => {
          const cel = `objects.filter(p, !p.status.conditions.exists(c, c.type == 'Ready' && c.status == 'True')).size() <= ${limit}`;
          const e = engineFor([celInvariant('limit', cel)]);
          // The model: the state after each prefix, checked directly.
          const state = new Map<string, boolean>();
          let expected: number | undefined;
          events.forEach((ev, i) => {
            if (ev.del) state.delete(ev.name);
            else state.set(ev.name, ev.ready);
            const unready = [...state.values()].filter((r) => !r).length;
            if (expected === undefined && unready > limit) expected = i;
          });
          let got: number | undefined;
          const known = new Set<string>();
          events.forEach((ev, i) => {
            const type: EventType = ev.del ? 'DELETED' : known.has(ev.name) ? 'MODIFIED' : 'ADDED';
            if (ev.del) known.delete(ev.name);
            else known.add(ev.name);
            const r = e.observe({
              time: T0 + i,
              type,
              key: 'pods',
              object: pod(ev.name, ev.ready, { rv: i }),
            });
            if (r.violation && got === undefined) got = i;
          });
          assert.equal(got, expected);
        },
      ),
    );
  });
});
