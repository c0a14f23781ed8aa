import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterRole, PolicyRule } from '../../api/model/index.js';
import { aggregatedRules, planAggregation } from './plan.js';

const r = (resource: string, verb = 'get'): PolicyRule => ({
  apiGroups: [''],
  resources: [resource],
  verbs: [verb],
});
const role = (
  name: string,
  labels: Record<string, string>,
  rules?: PolicyRule[],
  selectors?: Record<string, string>[],
): ClusterRole => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name, labels },
  ...(rules === undefined ? {} : { rules }),
  ...(selectors === undefined
    ? {}
    : { aggregationRule: { clusterRoleSelectors: selectors.map((m) => ({ matchLabels: m })) } }),
});

const A = { agg: 'a' };
const B = { agg: 'b' };

describe('aggregatedRules', () => {
  const cases: {
    name: string;
    target: ClusterRole;
    others: ClusterRole[];
    want: PolicyRule[] | undefined;
  }[] = [
    {
      name: 'not aggregated: nothing',
      target: role('t', {}, [r('x')]),
      others: [],
      want: undefined,
    },
    {
      name: 'sorted by name, rules in order',
      target: role('t', {}, undefined, [A]),
      others: [role('zeta', A, [r('z1'), r('z2')]), role('alpha', A, [r('a1')])],
      want: [r('a1'), r('z1'), r('z2')],
    },
    {
      name: 'duplicates skipped (first kept), across selectors in selector order',
      target: role('t', {}, undefined, [B, A]),
      others: [role('a-role', A, [r('x'), r('shared')]), role('b-role', B, [r('shared'), r('y')])],
      want: [r('shared'), r('y'), r('x')],
    },
    {
      name: 'a rule with an empty list equals one without it',
      target: role('t', {}, undefined, [A]),
      others: [role('one', A, [{ ...r('x'), resourceNames: [] }]), role('two', A, [r('x')])],
      want: [{ ...r('x'), resourceNames: [] }],
    },
    {
      name: 'itself excluded even when it matches its own selector',
      target: role('t', A, [r('stale')], [A]),
      others: [role('other', A, [r('x')])],
      want: [r('x')],
    },
    {
      name: 'non-matching labels contribute nothing',
      target: role('t', {}, undefined, [A]),
      others: [role('other', B, [r('x')])],
      want: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(aggregatedRules(c.target, [c.target, ...c.others]), c.want);
    });
  }
});

describe('planAggregation', () => {
  it('writes nothing when the rules already equal the union (absent == empty)', () => {
    const empty = role('t', {}, undefined, [A]);
    assert.equal(planAggregation(empty, [empty]), undefined);
    const done = role('t', {}, [r('x')], [A]);
    assert.equal(planAggregation(done, [done, role('o', A, [r('x')])]), undefined);
  });

  it('replaces stale rules, keeping the rest of the object', () => {
    const stale = role('t', { keep: 'me' }, [r('old')], [A]);
    const next = planAggregation(stale, [stale, role('o', A, [r('new')])]);
    assert.deepEqual(next?.rules, [r('new')]);
    assert.deepEqual(next?.metadata, stale.metadata);
    assert.deepEqual(next?.aggregationRule, stale.aggregationRule);
  });
});
