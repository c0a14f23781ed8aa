/**
 * The least-privilege analysis on a small policy: scopes of bindings, audit events read back
 * into the authorizer's attributes, exclusive evidence per rule, and the authorizer refusing a
 * request once the rule that alone allowed it is gone.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../src/api/object.js';
import {
  serviceAccountGroups,
  serviceAccountUsername,
  type UserInfo,
} from '../../../src/apiserver/authentication/user.js';
import {
  type AuditRecord,
  attributesOf,
  authorizerOver,
  describeRequest,
  grantedRules,
  lastStages,
  necessity,
  refused,
  unusedGrants,
  withoutRule,
} from './rbac-necessity.js';

const RBAC = 'rbac.authorization.k8s.io/v1';
const USER: UserInfo = {
  username: serviceAccountUsername('ops', 'bot'),
  groups: serviceAccountGroups('ops'),
};
const SUBJECT = [{ kind: 'ServiceAccount', name: 'bot', namespace: 'ops' }];

const POLICY: KubeObject[] = [
  {
    apiVersion: RBAC,
    kind: 'ClusterRole',
    metadata: { name: 'bot' },
    rules: [
      { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['list', 'watch'] },
      { apiGroups: ['apps'], resources: ['statefulsets/status'], verbs: ['update'] },
      // Shadowed: rule #1 already allows every request this one does.
      { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['list'] },
    ],
  },
  {
    apiVersion: RBAC,
    kind: 'ClusterRoleBinding',
    metadata: { name: 'bot' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'bot' },
    subjects: SUBJECT,
  },
  {
    apiVersion: RBAC,
    kind: 'Role',
    metadata: { name: 'writer', namespace: 'team' },
    rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }],
  },
  {
    apiVersion: RBAC,
    kind: 'RoleBinding',
    metadata: { name: 'writer', namespace: 'team' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'writer' },
    subjects: SUBJECT,
  },
  // Bound to someone else: grants the user nothing.
  {
    apiVersion: RBAC,
    kind: 'RoleBinding',
    metadata: { name: 'other', namespace: 'team' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'writer' },
    subjects: [{ kind: 'User', name: 'jane' }],
  },
];

let ids = 0;
function event(verb: string, uri: string, resource?: string, code = 200): AuditRecord {
  ids += 1;
  return {
    auditID: `id-${ids}`,
    stage: 'ResponseComplete',
    requestURI: uri,
    verb,
    user: { username: USER.username },
    ...(resource !== undefined ? { objectRef: { resource } } : {}),
    responseStatus: { code },
  };
}

describe('grantedRules', () => {
  it('scopes each rule by its binding and skips bindings of other subjects', () => {
    const rules = grantedRules(POLICY, USER);
    assert.deepEqual(
      rules.map((r) => [r.id, r.namespace]),
      [
        ['ClusterRole bot #1', ''],
        ['ClusterRole bot #2', ''],
        ['ClusterRole bot #3', ''],
        ['Role team/writer #1', 'team'],
      ],
    );
  });
});

describe('attributesOf', () => {
  const cases: { name: string; ev: AuditRecord; want: string; objectName?: string }[] = [
    {
      name: 'a cluster-wide watch',
      ev: event('watch', '/apis/apps/v1/statefulsets?watch=true&resourceVersion=5', 'statefulsets'),
      want: 'watch apps/statefulsets',
    },
    {
      name: 'a status update in a namespace',
      ev: event('update', '/apis/apps/v1/namespaces/team/statefulsets/s/status', 'statefulsets'),
      want: 'update apps/statefulsets/status in team',
    },
    {
      name: 'a list narrowed to one name by fieldSelector',
      ev: event('list', '/api/v1/namespaces/team/pods?fieldSelector=metadata.name%3Dp', 'pods'),
      want: 'list core/pods in team',
      objectName: 'p',
    },
    { name: 'a discovery request', ev: event('get', '/apis'), want: 'get /apis' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const a = attributesOf(c.ev, USER);
      assert.equal(describeRequest(a), c.want);
      if (c.objectName !== undefined) assert.equal(a.name, c.objectName);
    });
  }

  it('refuses an event whose verb does not match its URI', () => {
    assert.throws(() => attributesOf(event('list', '/api/v1/namespaces/a/pods/p', 'pods'), USER));
  });
});

describe('lastStages and refused', () => {
  it('keeps the last stage of each request and sees a forbid or a 403', () => {
    const started = { ...event('watch', '/api/v1/pods?watch=1', 'pods'), stage: 'ResponseStarted' };
    const done = { ...started, stage: 'ResponseComplete' };
    const denied = {
      ...event('delete', '/api/v1/namespaces/x/pods/p', 'pods', 403),
      annotations: { 'authorization.k8s.io/decision': 'forbid' },
    };
    const last = lastStages([started, denied, done]);
    assert.deepEqual(
      last.map((e) => e.stage),
      ['ResponseComplete', 'ResponseComplete'],
    );
    assert.deepEqual(last.map(refused), [false, true]);
  });
});

describe('necessity', () => {
  const rules = grantedRules(POLICY, USER);
  const requests = [
    event('list', '/apis/apps/v1/statefulsets', 'statefulsets'),
    event('watch', '/apis/apps/v1/statefulsets?watch=true', 'statefulsets'),
    event('update', '/apis/apps/v1/namespaces/team/statefulsets/s/status', 'statefulsets'),
    event('delete', '/api/v1/namespaces/team/pods/p', 'pods'),
    event('get', '/apis'),
  ].map((e) => attributesOf(e, USER));

  it('finds the requests only one rule allows, and none for a shadowed rule', () => {
    const evidence = necessity(rules, [], requests);
    assert.deepEqual(
      evidence.map((e) => [e.rule.id, e.exclusive]),
      [
        ['ClusterRole bot #1', ['watch apps/statefulsets']],
        ['ClusterRole bot #2', ['update apps/statefulsets/status in team']],
        ['ClusterRole bot #3', []],
        ['Role team/writer #1', ['delete core/pods in team']],
      ],
    );
    assert.deepEqual(evidence[2]?.matched, ['list apps/statefulsets']);
  });

  it('counts grants from elsewhere as other rules', () => {
    const others = grantedRules(
      [
        {
          apiVersion: RBAC,
          kind: 'ClusterRole',
          metadata: { name: 'pods' },
          rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['delete'] }],
        },
        {
          apiVersion: RBAC,
          kind: 'ClusterRoleBinding',
          metadata: { name: 'pods' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'pods' },
          subjects: [{ kind: 'Group', name: 'system:serviceaccounts' }],
        },
      ],
      USER,
    );
    const writer = necessity(rules, others, requests).find((e) => e.rule.id.startsWith('Role'));
    assert.deepEqual(writer?.exclusive, []);
  });

  it('lists the verbs of a rule no request used', () => {
    assert.deepEqual(unusedGrants(rules[0]!, requests), []);
    assert.deepEqual(unusedGrants(rules[2]!, requests.slice(1)), ['list apps/statefulsets']);
  });

  it('the authorizer refuses an exclusive request once its rule is removed', () => {
    const update = requests[2]!;
    assert.equal(authorizerOver(POLICY).authorize(update).decision, 'Allow');
    const without = authorizerOver(withoutRule(POLICY, rules[1]!));
    assert.equal(without.authorize(update).decision, 'NoOpinion');
    // Removing the shadowed rule refuses nothing.
    const shadowless = authorizerOver(withoutRule(POLICY, rules[2]!));
    for (const a of requests.filter((r) => r.resourceRequest)) {
      assert.equal(shadowless.authorize(a).decision, 'Allow', describeRequest(a));
    }
  });
});
