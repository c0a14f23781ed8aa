import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { PolicyRule } from '../../../api/model/index.js';
import type { UserInfo } from '../../authentication/user.js';
import type { Attributes } from '../types.js';
import { RbacAuthorizer } from './authorizer.js';
import { ruleAllows } from './rule-match.js';
import {
  clusterRole,
  clusterRoleBinding,
  group,
  indexOf,
  role,
  roleBinding,
  serviceAccount,
  user,
} from './test-fixtures.js';

const getPods: PolicyRule = { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] };
const jane: UserInfo = { username: 'jane', groups: ['devs', 'system:authenticated'] };
const robot: UserInfo = {
  username: 'system:serviceaccount:ns1:robot',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'],
};
const anonymous: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

const pods = (u: UserInfo, verb: string, namespace = 'ns1'): Attributes => ({
  user: u,
  verb,
  resourceRequest: true,
  namespace,
  apiGroup: '',
  resource: 'pods',
});

describe('RbacAuthorizer', () => {
  const authz = new RbacAuthorizer(
    indexOf([
      clusterRole('pod-reader', [getPods]),
      clusterRole('metrics', [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]),
      role('ns1', 'pod-reader', [getPods]),
      clusterRoleBinding('jane-reads', 'pod-reader', [user('jane')]),
      clusterRoleBinding('anon-metrics', 'metrics', [group('system:unauthenticated')]),
      roleBinding('ns1', 'robot-reads', { kind: 'Role', name: 'pod-reader' }, [
        user('someone-else'),
        serviceAccount('robot'),
      ]),
      roleBinding('ns2', 'devs-read', { kind: 'ClusterRole', name: 'pod-reader' }, [group('devs')]),
    ]),
  );

  const cases: [string, Attributes, string, string][] = [
    [
      'a User subject',
      pods(jane, 'list', 'ns9'),
      'Allow',
      'RBAC: allowed by ClusterRoleBinding "jane-reads" of ClusterRole "pod-reader" to User "jane"',
    ],
    [
      'a ServiceAccount subject in its binding namespace',
      pods(robot, 'get'),
      'Allow',
      'RBAC: allowed by RoleBinding "robot-reads/ns1" of Role "pod-reader" to ServiceAccount "robot/ns1"',
    ],
    ['a RoleBinding only in its namespace', pods(robot, 'get', 'ns2'), 'NoOpinion', ''],
    [
      'a Group subject',
      pods({ username: 'x', groups: ['devs'] }, 'get', 'ns2'),
      'Allow',
      'RBAC: allowed by RoleBinding "devs-read/ns2" of ClusterRole "pod-reader" to Group "devs"',
    ],
    ['a verb not granted', pods(jane, 'delete'), 'NoOpinion', ''],
    [
      'a non-resource URL by group',
      { user: anonymous, verb: 'get', resourceRequest: false, path: '/metrics' },
      'Allow',
      'RBAC: allowed by ClusterRoleBinding "anon-metrics" of ClusterRole "metrics" to Group "system:unauthenticated"',
    ],
    ['a cluster-wide request ignores RoleBindings', pods(robot, 'get', ''), 'NoOpinion', ''],
  ];
  for (const [name, attrs, decision, reason] of cases) {
    it(name, () => assert.deepEqual(authz.authorize(attrs), { decision, reason }));
  }
});

describe('RbacAuthorizer with missing roles', () => {
  const authz = new RbacAuthorizer(
    indexOf([
      clusterRole('pod-reader', [getPods]),
      clusterRoleBinding('a-gone', 'gone', [user('jane')]),
      clusterRoleBinding('b-reads', 'pod-reader', [user('jane')]),
      roleBinding('ns1', 'rb-gone', { kind: 'Role', name: 'gone-role' }, [user('jane')]),
      roleBinding('ns1', 'rb-gone-too', { kind: 'ClusterRole', name: 'gone' }, [user('jane')]),
    ]),
  );

  it('goes on past a binding to a missing role', () => {
    assert.equal(authz.authorize(pods(jane, 'get')).decision, 'Allow');
  });
  it('names every resolution error when nothing allows, each once', () => {
    assert.deepEqual(authz.authorize(pods(jane, 'delete')), {
      decision: 'NoOpinion',
      reason:
        'RBAC: [clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "gone-role" not found]',
    });
  });
  it('one error prints bare', () => {
    assert.deepEqual(authz.authorize(pods(jane, 'delete', '')), {
      decision: 'NoOpinion',
      reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found',
    });
  });
  it('rulesFor keeps the rules found and reports the errors', () => {
    const r = authz.rulesFor(jane, '');
    assert.deepEqual(r, {
      resourceRules: [getPods],
      nonResourceRules: [],
      incomplete: false,
      evaluationError: 'clusterrole.rbac.authorization.k8s.io "gone" not found',
    });
  });
});

describe('property: Allow iff a rule from rulesFor allows the request', () => {
  const verb = fc.constantFrom('get', 'list', 'create', '*');
  const rule: fc.Arbitrary<PolicyRule> = fc.oneof(
    fc.record({
      apiGroups: fc.array(fc.constantFrom('', 'apps', '*'), { minLength: 1, maxLength: 2 }),
      resources: fc.array(fc.constantFrom('pods', 'pods/log', '*', '*/log', 'deployments'), {
        minLength: 1,
        maxLength: 2,
      }),
      verbs: fc.array(verb, { minLength: 1, maxLength: 2 }),
      resourceNames: fc.array(fc.constantFrom('a', 'b'), { maxLength: 1 }),
    }),
    fc.record({
      nonResourceURLs: fc.array(fc.constantFrom('/healthz', '/api/*', '*'), {
        minLength: 1,
        maxLength: 2,
      }),
      verbs: fc.array(verb, { minLength: 1, maxLength: 2 }),
    }),
  );
  const subject = fc.constantFrom(
    user('jane'),
    group('devs'),
    user('bob'),
    serviceAccount('robot'),
    serviceAccount('robot', 'ns1'),
  );
  const roleName = fc.constantFrom('r1', 'r2', 'missing');
  const binding = fc.record({
    namespace: fc.constantFrom('', 'ns1', 'ns2'),
    kind: fc.constantFrom<'Role' | 'ClusterRole'>('Role', 'ClusterRole'),
    name: roleName,
    subjects: fc.array(subject, { minLength: 1, maxLength: 2 }),
  });
  const who = fc.constantFrom(jane, robot, { username: 'bob', groups: ['system:authenticated'] });
  const request: fc.Arbitrary<Omit<Attributes, 'user'>> = fc.oneof(
    fc.record({
      verb: fc.constantFrom('get', 'list', 'create'),
      resourceRequest: fc.constant(true),
      namespace: fc.constantFrom('', 'ns1', 'ns2'),
      apiGroup: fc.constantFrom('', 'apps'),
      resource: fc.constantFrom('pods', 'deployments'),
      subresource: fc.constantFrom('', 'log'),
      name: fc.constantFrom('', 'a', 'b'),
    }),
    fc.record({
      verb: fc.constantFrom('get', 'post'),
      resourceRequest: fc.constant(false),
      path: fc.constantFrom('/healthz', '/api/v1', '/metrics'),
    }),
  );

  it('holds for random policies', () => {
    fc.assert(
      fc.property(
        fc.array(rule, { maxLength: 3 }),
        fc.array(rule, { maxLength: 3 }),
        fc.array(binding, { maxLength: 5 }),
        who,
        request,
        (rules1, rules2, bindings, u, req) => {
          const objects = [
            clusterRole('r1', rules1),
            clusterRole('r2', rules2),
            role('ns1', 'r1', rules2),
            role('ns2', 'r2', rules1),
            ...bindings.map((b, i) =>
              b.namespace === ''
                ? clusterRoleBinding(`b${i}`, b.name, b.subjects)
                : roleBinding(b.namespace, `b${i}`, { kind: b.kind, name: b.name }, b.subjects),
            ),
          ];
          const authz = new RbacAuthorizer(indexOf(objects));
          const a: Attributes = { ...req, user: u };
          const held = authz.rulesFor(u, a.namespace ?? '');
          const anyAllows = [...held.resourceRules, ...held.nonResourceRules].some((r) =>
            ruleAllows(a, r),
          );
          const result = authz.authorize(a);
          assert.equal(result.decision === 'Allow', anyAllows);
          assert.notEqual(result.decision, 'Deny');
        },
      ),
      { numRuns: 300 },
    );
  });
});
