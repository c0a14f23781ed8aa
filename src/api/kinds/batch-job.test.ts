import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { jobResource, parseIndexIntervals } from './batch-job.js';
import { simulateCreate, simulateUpdate } from './harness.js';

type Spec = Record<string, unknown>;
const UID = '5f1c2d3e-0000-4000-8000-000000000001';

/** A Job as a client sends it; the uid stands in for the one the server assigns first. */
const job = (spec: Spec = {}, name = 'pi'): KubeObject => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name, namespace: 'default', uid: UID },
  spec: {
    template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl' }] } },
    ...spec,
  },
});
const create = (obj: KubeObject) => simulateCreate(jobResource, obj);

describe('Job defaults and generated selector', () => {
  it('applies SetDefaults_Job and generateSelector', () => {
    const { object, messages } = create(job());
    assert.deepEqual(messages, []);
    const spec = object.spec as Spec;
    assert.equal(spec.completions, 1);
    assert.equal(spec.parallelism, 1);
    assert.equal(spec.backoffLimit, 6);
    assert.equal(spec.completionMode, 'NonIndexed');
    assert.equal(spec.suspend, false);
    assert.equal(spec.manualSelector, false);
    assert.equal(spec.podReplacementPolicy, 'TerminatingOrFailed');
    assert.deepEqual(spec.selector, { matchLabels: { 'batch.kubernetes.io/controller-uid': UID } });
    const labels = {
      'batch.kubernetes.io/controller-uid': UID,
      'batch.kubernetes.io/job-name': 'pi',
      'controller-uid': UID,
      'job-name': 'pi',
    };
    assert.deepEqual((spec.template as { metadata: unknown }).metadata, { labels });
    // Upstream's Job shares the template's labels map when it has none of its own.
    assert.deepEqual(object.metadata?.labels, labels);
  });

  const cases: { name: string; spec: Spec; want: Spec }[] = [
    {
      name: 'parallelism only',
      spec: { parallelism: 3 },
      want: { parallelism: 3, completions: undefined },
    },
    {
      name: 'completions only',
      spec: { completions: 4 },
      want: { completions: 4, parallelism: 1 },
    },
    {
      name: 'backoffLimitPerIndex raises backoffLimit to max int32',
      spec: { completionMode: 'Indexed', completions: 2, backoffLimitPerIndex: 1 },
      want: { backoffLimit: 2147483647 },
    },
    {
      name: 'podFailurePolicy makes podReplacementPolicy Failed',
      spec: {
        podFailurePolicy: {
          rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }],
        },
      },
      want: { podReplacementPolicy: 'Failed' },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { object, messages } = create(job(c.spec));
      assert.deepEqual(messages, []);
      const spec = object.spec as Spec;
      for (const [k, v] of Object.entries(c.want)) assert.deepEqual(spec[k], v, k);
    });
  }

  it('defaults an onPodConditions pattern status to True', () => {
    const pfp = { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] };
    const { object } = create(job({ podFailurePolicy: pfp }));
    const rules = ((object.spec as Spec).podFailurePolicy as { rules: Spec[] }).rules;
    assert.deepEqual(rules[0]?.onPodConditions, [{ type: 'DisruptionTarget', status: 'True' }]);
  });
});

describe('Job validation', () => {
  const tmpl = (restartPolicy: string) => ({
    spec: { restartPolicy, containers: [{ name: 'c', image: 'busybox' }] },
  });
  const cases: { name: string; spec: Spec; want: string[] }[] = [
    {
      name: 'restartPolicy Always',
      spec: { template: tmpl('Always') },
      want: [
        'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
      ],
    },
    {
      name: 'negative parallelism',
      spec: { parallelism: -1 },
      want: ['spec.parallelism: Invalid value: -1: must be greater than or equal to 0'],
    },
    {
      name: 'Indexed without completions',
      spec: { completionMode: 'Indexed', parallelism: 1 },
      want: ['spec.completions: Required value: when completion mode is Indexed'],
    },
    {
      name: 'backoffLimitPerIndex on a NonIndexed Job',
      spec: { backoffLimitPerIndex: 1 },
      want: ['spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode'],
    },
    {
      name: 'podFailurePolicy with OnFailure',
      spec: {
        template: tmpl('OnFailure'),
        podFailurePolicy: {
          rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }],
        },
      },
      want: [
        'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
      ],
    },
    {
      name: 'podFailurePolicy exit codes: 0 with In, unordered',
      spec: {
        podFailurePolicy: {
          rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [3, 0] } }],
        },
      },
      want: [
        'spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator',
        'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [3,0]: must be ordered',
      ],
    },
    {
      name: 'FailIndex without backoffLimitPerIndex',
      spec: {
        podFailurePolicy: {
          rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [1] } }],
        },
      },
      want: [
        'spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set',
      ],
    },
    {
      name: 'successPolicy on a NonIndexed Job',
      spec: { successPolicy: { rules: [{ succeededCount: 1 }] } },
      want: [
        'spec.successPolicy: Invalid value: {"rules":[{"succeededCount":1}]}: requires indexed completion mode',
      ],
    },
    {
      name: 'successPolicy indexes out of range',
      spec: {
        completionMode: 'Indexed',
        completions: 3,
        successPolicy: { rules: [{ succeededIndexes: '0-5' }] },
      },
      want: [
        'spec.successPolicy.rules[0].succeededIndexes: Invalid value: "0-5": error parsing succeededIndexes: too large index: "5"',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(create(job(c.spec)).messages, c.want));
  }

  it('refuses an Indexed Job whose last hostname is no DNS label', () => {
    const name = 'x'.repeat(62);
    const { messages } = create(job({ completionMode: 'Indexed', completions: 10 }, name));
    assert.ok(
      messages.some((m) => m.includes('will not able to create pod with invalid DNS label')),
    );
  });
});

describe('Job updates', () => {
  const stored = (spec: Spec = {}, status: Spec = {}): KubeObject => {
    const { object } = create(job(spec));
    return { ...object, status };
  };
  const withSpec = (old: KubeObject, change: Spec): KubeObject => ({
    ...old,
    spec: { ...(old.spec as Spec), ...change },
  });

  it('lets parallelism change and freezes completions, selector and template', () => {
    const old = stored();
    assert.deepEqual(
      simulateUpdate(jobResource, withSpec(old, { parallelism: 5 }), old).messages,
      [],
    );
    const frozen = simulateUpdate(jobResource, withSpec(old, { completions: 2 }), old).messages;
    assert.deepEqual(frozen, ['spec.completions: Invalid value: 2: field is immutable']);
  });

  it('lets an Indexed Job scale completions in tandem with parallelism', () => {
    const old = stored({ completionMode: 'Indexed', completions: 2, parallelism: 2 });
    const ok = simulateUpdate(jobResource, withSpec(old, { completions: 4, parallelism: 4 }), old);
    assert.deepEqual(ok.messages, []);
    const bad = simulateUpdate(jobResource, withSpec(old, { completions: 4 }), old);
    assert.deepEqual(bad.messages, [
      'spec.completions: Invalid value: 4: can only be modified in tandem with spec.parallelism',
    ]);
  });

  it('lets a suspended, never started Job change its scheduling directives only', () => {
    const old = stored({ suspend: true });
    const template = structuredClone((old.spec as Spec).template) as { spec: Spec };
    template.spec.nodeSelector = { zone: 'a' };
    const ok = simulateUpdate(jobResource, withSpec(old, { template }), old);
    assert.deepEqual(ok.messages, []);
    const started = { ...old, status: { startTime: '2026-01-01T00:00:00Z' } };
    const refused = simulateUpdate(jobResource, withSpec(started, { template }), started).messages;
    assert.equal(refused.length, 1);
    assert.match(refused[0] ?? '', /^spec.template: Invalid value: .*field is immutable$/);
  });

  it('refuses status writes that break the counters and terminal conditions', () => {
    const old = stored({}, { failed: 2, conditions: [{ type: 'Failed', status: 'True' }] });
    const obj = {
      ...old,
      status: { failed: 1, conditions: [{ type: 'Complete', status: 'True' }] },
    };
    const errs = jobResource.strategy.validateStatusUpdate?.(obj, old) ?? [];
    assert.deepEqual(
      errs.map((e) => `${e.field}: ${e.detail}`),
      [
        'status.conditions: cannot disable the terminal Failed=True condition',
        'status.failed: cannot decrease the failed counter',
      ],
    );
  });
});

describe('parseIndexIntervals', () => {
  const cases: { text: string; completions: number; want: [number, number][]; error?: string }[] = [
    { text: '', completions: 3, want: [] },
    {
      text: '0,2-4,7',
      completions: 8,
      want: [
        [0, 0],
        [2, 4],
        [7, 7],
      ],
    },
    {
      text: '1,1',
      completions: 3,
      want: [[1, 1]],
      error: 'non-increasing order, previous: 1, current: 1',
    },
    {
      text: '2-1',
      completions: 3,
      want: [],
      error: 'non-increasing order, previous: 2, current: 1',
    },
    {
      text: 'a',
      completions: 3,
      want: [],
      error: 'cannot convert string to integer for index: "a"',
    },
  ];
  for (const c of cases) {
    it(JSON.stringify(c.text), () => {
      const got = parseIndexIntervals(c.text, c.completions);
      assert.deepEqual(got.intervals, c.want);
      assert.equal(got.error, c.error);
    });
  }
});
