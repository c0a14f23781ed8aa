import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RbacV1Subject } from '../../../api/model/index.js';
import { ANONYMOUS, type UserInfo } from '../../authentication/user.js';
import { appliesToUser, describeSource, RbacRuleResolver } from './rule-resolver.js';
import { group, indexOf, serviceAccount, user } from './test-fixtures.js';

const robot: UserInfo = {
  username: 'system:serviceaccount:ns1:robot',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated'],
};

describe('appliesToUser', () => {
  const cases: [string, UserInfo, RbacV1Subject, string, boolean][] = [
    ['User by name', robot, user('system:serviceaccount:ns1:robot'), '', true],
    ['Group', robot, group('system:serviceaccounts:ns1'), '', true],
    ['Group system:authenticated', robot, group('system:authenticated'), '', true],
    [
      'Group system:unauthenticated for anonymous',
      ANONYMOUS,
      group('system:unauthenticated'),
      '',
      true,
    ],
    ['ServiceAccount with its namespace', robot, serviceAccount('robot', 'ns1'), '', true],
    ['ServiceAccount defaulted to the namespace', robot, serviceAccount('robot'), 'ns1', true],
    ['ServiceAccount defaulted to another namespace', robot, serviceAccount('robot'), 'ns2', false],
    ['ServiceAccount without any namespace', robot, serviceAccount('robot'), '', false],
    ['ServiceAccount of another name', robot, serviceAccount('robot2', 'ns1'), '', false],
    [
      'an unknown kind never applies',
      robot,
      { kind: 'Robot', name: 'system:serviceaccount:ns1:robot' },
      '',
      false,
    ],
  ];
  for (const [name, u, s, ns, want] of cases)
    it(name, () => assert.equal(appliesToUser(u, s, ns), want));
});

describe('describeSource', () => {
  it('names the first subject that applies', () => {
    const binding = {
      kind: 'RoleBinding' as const,
      name: 'b',
      namespace: 'ns1',
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
      subjects: [user('x'), serviceAccount('robot')],
    };
    assert.equal(
      describeSource({ binding, subject: serviceAccount('robot') }),
      'RoleBinding "b/ns1" of Role "r" to ServiceAccount "robot/ns1"',
    );
  });
});

describe('getRoleReferenceRules', () => {
  const resolver = new RbacRuleResolver(indexOf([]));
  it('an unknown role kind', () => {
    assert.deepEqual(
      resolver.getRoleReferenceRules({ apiGroup: '', kind: 'Thing', name: 'x' }, 'ns'),
      {
        error: 'unsupported role reference kind: "Thing"',
      },
    );
  });
  it('a Role is looked up in the binding namespace', () => {
    const r = new RbacRuleResolver(
      indexOf([
        { kind: 'Role', metadata: { namespace: 'a', name: 'r' }, rules: [{ verbs: ['get'] }] },
      ]),
    );
    assert.deepEqual(r.getRoleReferenceRules({ apiGroup: '', kind: 'Role', name: 'r' }, 'a'), {
      rules: [{ verbs: ['get'] }],
    });
    assert.equal(
      r.getRoleReferenceRules({ apiGroup: '', kind: 'Role', name: 'r' }, 'b').error,
      'role.rbac.authorization.k8s.io "r" not found',
    );
  });
});
