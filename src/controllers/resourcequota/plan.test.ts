import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { asKind, type ResourceQuota } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import type { QuotaEvaluator } from '../../api/quota/evaluators.js';
import { podEvaluator } from '../../api/quota/evaluators.js';
import { planQuota, usageFingerprint } from './plan.js';

const quota = (
  hard: Record<string, string>,
  status?: Record<string, unknown>,
  spec = {},
): ResourceQuota =>
  asKind(
    {
      metadata: { name: 'q', namespace: 'ns' },
      spec: { hard, ...spec },
      ...(status === undefined ? {} : { status }),
    },
    'ResourceQuota',
  );

const pod = (
  name: string,
  cpu?: string,
  extra: Record<string, unknown> = {},
  phase = 'Running',
): KubeObject => ({
  metadata: { name, namespace: 'ns', ...(extra.meta as object) },
  spec: {
    containers: [
      { name: 'app', resources: cpu === undefined ? {} : { requests: { cpu }, limits: { cpu } } },
    ],
    ...(extra.spec as object),
  },
  status: { phase },
});

/** Objects by resource plural; a kind missing from the map could not be listed. */
function lister(objects: Record<string, KubeObject[]>) {
  return (ev: QuotaEvaluator) => objects[ev.resource];
}

describe('planQuota', () => {
  it('first sync: copies spec.hard and counts from zero', () => {
    const plan = planQuota(
      quota({ pods: '5', 'requests.cpu': '2', secrets: '3' }),
      lister({ pods: [], secrets: [] }),
      0,
    );
    assert.deepEqual(plan.status, {
      hard: { pods: '5', 'requests.cpu': '2', secrets: '3' },
      used: { pods: '0', 'requests.cpu': '0', secrets: '0' },
    });
  });

  it('counts pods, not terminal ones, within the scopes', () => {
    const pods = [pod('a', '100m'), pod('b', '250m'), pod('done', '1', {}, 'Succeeded'), pod('be')];
    const all = planQuota(
      quota({ pods: '9', 'count/pods': '9', 'requests.cpu': '4' }),
      lister({ pods }),
      0,
    );
    assert.deepEqual(all.status?.used, { 'count/pods': '4', pods: '3', 'requests.cpu': '350m' });
    const scoped = planQuota(
      quota({ pods: '9' }, undefined, { scopes: ['BestEffort'] }),
      lister({ pods }),
      0,
    );
    assert.deepEqual(scoped.status?.used, { pods: '1' });
  });

  it('writes nothing when the status already says it (values compared, not text)', () => {
    const status = { hard: { memory: '1Gi', pods: '2' }, used: { memory: '0', pods: '1' } };
    const plan = planQuota(
      quota({ memory: '1024Mi', pods: '2' }, status),
      lister({ pods: [pod('a')] }),
      0,
    );
    assert.equal(plan.status, undefined);
  });

  it('keeps the last value of a kind it could not list, and drops names no longer hard', () => {
    const status = {
      hard: { 'count/widgets.example.com': '5', pods: '2', secrets: '1' },
      used: { 'count/widgets.example.com': '3', pods: '0', secrets: '1' },
    };
    const plan = planQuota(
      quota({ 'count/widgets.example.com': '5', pods: '2' }, status),
      lister({ pods: [pod('a')] }),
      0,
    );
    assert.deepEqual(plan.status, {
      hard: { 'count/widgets.example.com': '5', pods: '2' },
      used: { 'count/widgets.example.com': '3', pods: '1' },
    });
  });

  it('asks for a recount when a deleting pod stops being charged', () => {
    const deleting = pod('d', undefined, {
      meta: { deletionTimestamp: '2024-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 },
    });
    const end = Date.parse('2024-01-01T00:00:30Z');
    const before = planQuota(quota({ pods: '2' }), lister({ pods: [deleting] }), end - 10_000);
    assert.equal(before.recountAt, end);
    assert.deepEqual(before.status?.used, { pods: '1' });
    const after = planQuota(quota({ pods: '2' }), lister({ pods: [deleting] }), end + 1);
    assert.equal(after.recountAt, undefined);
    assert.deepEqual(after.status?.used, { pods: '0' });
  });

  it('a plan applied is a fixed point: the next plan writes nothing (property)', () => {
    const podArb = fc.record({
      cpuMilli: fc.option(fc.integer({ min: 1, max: 4000 }), { nil: undefined }),
      phase: fc.constantFrom('Pending', 'Running', 'Succeeded', 'Failed'),
      terminating: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(podArb, { maxLength: 12 }),
        fc.constantFrom([], ['BestEffort'], ['NotTerminating']),
        (specs, scopes) => {
          const pods = specs.map((s, i) =>
            pod(
              `p${i}`,
              s.cpuMilli === undefined ? undefined : `${s.cpuMilli}m`,
              s.terminating ? { spec: { activeDeadlineSeconds: 30 } } : {},
              s.phase,
            ),
          );
          const q = quota({ pods: '100', 'count/pods': '100', 'requests.cpu': '100' }, undefined, {
            scopes,
          });
          const first = planQuota(q, lister({ pods }), 0);
          assert.ok(first.status);
          const second = planQuota(
            asKind({ ...q, status: first.status }, 'ResourceQuota'),
            lister({ pods }),
            0,
          );
          assert.equal(second.status, undefined);
          const live = pods.filter((p) =>
            ['Pending', 'Running'].includes((p.status as { phase: string }).phase),
          );
          if (scopes.length === 0) assert.equal(first.status.used.pods, String(live.length));
        },
      ),
    );
  });
});

describe('usageFingerprint', () => {
  it('changes with what quota sees, not with status noise', () => {
    const a = pod('a', '1');
    const ready = {
      ...a,
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    };
    assert.equal(usageFingerprint(podEvaluator, a), usageFingerprint(podEvaluator, ready));
    const done = { ...a, status: { phase: 'Succeeded' } };
    assert.notEqual(usageFingerprint(podEvaluator, a), usageFingerprint(podEvaluator, done));
    const deleting = {
      ...a,
      metadata: {
        ...a.metadata,
        deletionTimestamp: '2024-01-01T00:00:00Z',
        deletionGracePeriodSeconds: 30,
      },
    };
    assert.notEqual(usageFingerprint(podEvaluator, a), usageFingerprint(podEvaluator, deleting));
  });
});
