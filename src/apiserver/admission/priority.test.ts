/**
 * The Priority admission plugin: its pure rules as tables (after upstream
 * `plugin/pkg/admission/priority/admission_test.go`), then pods and PriorityClasses written
 * through a real API server (403 texts, the default class, system classes protected).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { globalDefaultConflict, type PriorityClassView, resolvePodPriority } from './priority.js';

const cls = (
  name: string,
  value: number,
  globalDefault = false,
  preemptionPolicy: string | undefined = 'PreemptLowerPriority',
): PriorityClassView => ({ name, value, globalDefault, preemptionPolicy });

describe('resolvePodPriority', () => {
  const classes = [cls('low', 10), cls('never', 50, false, 'Never')];
  const withDefault = [...classes, cls('dflt', 7, true), cls('dflt-high', 9, true)];
  const cases: Array<
    [string, string, number | undefined, string | undefined, PriorityClassView[], unknown]
  > = [
    [
      'no class, no default → 0',
      '',
      undefined,
      undefined,
      classes,
      { ok: { className: '', priority: 0, preemptionPolicy: 'PreemptLowerPriority' } },
    ],
    [
      'no class → the lowest-valued global default, named in the pod',
      '',
      undefined,
      undefined,
      withDefault,
      { ok: { className: 'dflt', priority: 7, preemptionPolicy: 'PreemptLowerPriority' } },
    ],
    [
      "the Pod strategy's 0 is not the client's when a default exists",
      '',
      0,
      'PreemptLowerPriority',
      withDefault,
      { ok: { className: 'dflt', priority: 7, preemptionPolicy: 'PreemptLowerPriority' } },
    ],
    [
      'named class',
      'never',
      undefined,
      undefined,
      classes,
      { ok: { className: 'never', priority: 50, preemptionPolicy: 'Never' } },
    ],
    [
      'matching client priority is fine',
      'low',
      10,
      undefined,
      classes,
      { ok: { className: 'low', priority: 10, preemptionPolicy: 'PreemptLowerPriority' } },
    ],
    [
      'unknown class',
      'gold',
      undefined,
      undefined,
      classes,
      { forbidden: 'no PriorityClass with name gold was found' },
    ],
    [
      'client priority disagrees',
      'low',
      99,
      undefined,
      classes,
      {
        forbidden:
          'the integer value of priority (99) must not be provided in pod spec; priority admission controller computed 10 from the given PriorityClass name',
      },
    ],
    [
      'client policy disagrees',
      'never',
      undefined,
      'PreemptLowerPriority',
      classes,
      {
        forbidden:
          'the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name',
      },
    ],
  ];
  for (const [name, className, priority, policy, list, want] of cases) {
    it(name, () => assert.deepEqual(resolvePodPriority(className, priority, policy, list), want));
  }
});

describe('globalDefaultConflict', () => {
  const existing = [cls('a', 1, true), cls('b', 2)];
  const cases: Array<[string, PriorityClassView, 'create' | 'update', string | undefined]> = [
    ['not default → fine', cls('c', 3), 'create', undefined],
    [
      'second default on create',
      cls('c', 3, true),
      'create',
      'PriorityClass a is already marked as default. Only one default can exist',
    ],
    [
      'another class made default on update',
      cls('b', 2, true),
      'update',
      'PriorityClass a is already marked as default. Only one default can exist',
    ],
    ['the default itself updated', cls('a', 1, true), 'update', undefined],
    ['first default', cls('c', 3, true), 'create', undefined],
  ];
  for (const [name, pc, op, want] of cases) {
    const list = name === 'first default' ? [cls('b', 2)] : existing;
    it(name, () => assert.equal(globalDefaultConflict(pc, list, op), want));
  }
});

describe('Priority admission through the API', () => {
  let api: TestServer;
  before(async () => {
    api = await startTestServer();
  });
  after(() => api.close());
  const pods = '/api/v1/namespaces/default/pods';
  const classes = '/apis/scheduling.k8s.io/v1/priorityclasses';
  const pod = (name: string, spec: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
  });
  const pc = (name: string, value: number, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name },
    value,
    ...extra,
  });

  it('refuses an unknown class with 403', async () => {
    const res = await api.request('POST', pods, { body: pod('p1', { priorityClassName: 'gold' }) });
    assert.equal(res.status, 403, res.text);
    assert.equal(
      res.body.message,
      'pods "p1" is forbidden: no PriorityClass with name gold was found',
    );
    assert.equal(res.body.reason, 'Forbidden');
  });

  it('resolves a class, then a global default, and allows only one default', async () => {
    assert.equal((await api.request('POST', classes, { body: pc('gold', 500) })).status, 201);
    const gold = await api.request('POST', pods, {
      body: pod('p2', { priorityClassName: 'gold' }),
    });
    assert.equal(gold.status, 201, gold.text);
    const spec = gold.body.spec as Record<string, unknown>;
    assert.equal(spec.priority, 500);
    assert.equal(spec.preemptionPolicy, 'PreemptLowerPriority');

    const dflt = pc('dflt', 5, { globalDefault: true, preemptionPolicy: 'Never' });
    assert.equal((await api.request('POST', classes, { body: dflt })).status, 201);
    const plain = await api.request('POST', pods, { body: pod('p3') });
    assert.equal(plain.status, 201, plain.text);
    const plainSpec = plain.body.spec as Record<string, unknown>;
    assert.deepEqual(
      [plainSpec.priorityClassName, plainSpec.priority, plainSpec.preemptionPolicy],
      ['dflt', 5, 'Never'],
    );

    const second = await api.request('POST', classes, {
      body: pc('dflt2', 6, { globalDefault: true }),
    });
    assert.equal(second.status, 403, second.text);
    assert.equal(
      second.body.message,
      'priorityclasses.scheduling.k8s.io "dflt2" is forbidden: PriorityClass dflt is already marked as default. Only one default can exist',
    );
    const promote = await api.request('PATCH', `${classes}/gold`, {
      body: { globalDefault: true },
      contentType: 'application/merge-patch+json',
    });
    assert.equal(promote.status, 403, promote.text);
  });

  it('resolves a system class even before its object exists', async () => {
    const res = await api.request('POST', pods, {
      body: pod('critical', { priorityClassName: 'system-cluster-critical' }),
    });
    assert.equal(res.status, 201, res.text);
    assert.equal((res.body.spec as Record<string, unknown>).priority, 2_000_000_000);
  });

  it('refuses to delete a system class', async () => {
    const sys = pc('system-node-critical', 2_000_001_000);
    assert.equal((await api.request('POST', classes, { body: sys })).status, 201);
    const res = await api.request('DELETE', `${classes}/system-node-critical`);
    assert.equal(res.status, 403, res.text);
    assert.equal(
      res.body.message,
      'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted',
    );
  });
});
