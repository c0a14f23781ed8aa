import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { describe, it } from 'node:test';
import { statusJson } from '../../api/errors.js';
import type { UserInfo } from '../authentication/user.js';
import {
  type DistinctHeaders,
  impersonate,
  impersonationAttributes,
  stripImpersonationHeaders,
} from './impersonation.js';
import type { Attributes, Authorizer } from './types.js';

const bob: UserInfo = { username: 'bob', groups: ['ops', 'system:authenticated'] };

/** Allows `impersonate` on the listed `resource[/sub]:[ns/]name` keys, nothing else. */
function allowing(...keys: string[]): Authorizer & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    authorize(a: Attributes) {
      const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
      const key = `${res}:${a.namespace ? `${a.namespace}/` : ''}${a.name}`;
      asked.push(key);
      const ok = a.verb === 'impersonate' && a.user === bob && keys.includes(key);
      return { decision: ok ? 'Allow' : 'NoOpinion', reason: '' };
    },
  };
}

const cases: {
  name: string;
  headers: DistinctHeaders;
  allow: string[];
  want: UserInfo | { code: number; message: string } | undefined;
}[] = [
  { name: 'no headers: not impersonating', headers: {}, allow: [], want: undefined },
  {
    name: 'a user gets system:authenticated',
    headers: { 'impersonate-user': ['jane'] },
    allow: ['users:jane'],
    want: { username: 'jane', groups: ['system:authenticated'] },
  },
  {
    name: 'a user and groups: the groups given, plus system:authenticated',
    headers: { 'impersonate-user': ['jane'], 'impersonate-group': ['dev', 'qa'] },
    allow: ['users:jane', 'groups:dev', 'groups:qa'],
    want: { username: 'jane', groups: ['dev', 'qa', 'system:authenticated'] },
  },
  {
    name: 'system:unauthenticated given: no system:authenticated added',
    headers: { 'impersonate-user': ['jane'], 'impersonate-group': ['system:unauthenticated'] },
    allow: ['users:jane', 'groups:system:unauthenticated'],
    want: { username: 'jane', groups: ['system:unauthenticated'] },
  },
  {
    name: 'system:anonymous gets system:unauthenticated',
    headers: { 'impersonate-user': ['system:anonymous'] },
    allow: ['users:system:anonymous'],
    want: { username: 'system:anonymous', groups: ['system:unauthenticated'] },
  },
  {
    name: 'a service account: checked in its namespace, its groups added',
    headers: { 'impersonate-user': ['system:serviceaccount:team:builder'] },
    allow: ['serviceaccounts:team/builder'],
    want: {
      username: 'system:serviceaccount:team:builder',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
    },
  },
  {
    name: 'a service account with groups given: only those (and system:authenticated)',
    headers: {
      'impersonate-user': ['system:serviceaccount:team:builder'],
      'impersonate-group': ['dev'],
    },
    allow: ['serviceaccounts:team/builder', 'groups:dev'],
    want: {
      username: 'system:serviceaccount:team:builder',
      groups: ['dev', 'system:authenticated'],
    },
  },
  {
    name: 'uid and percent-encoded extra keys, several values',
    headers: {
      'impersonate-user': ['jane'],
      'impersonate-uid': ['1234'],
      'impersonate-extra-example.com%2fscopes': ['view', 'edit'],
    },
    allow: ['users:jane', 'uids:1234', 'userextras/example.com/scopes:view'],
    want: { code: 403, message: '' },
  },
  {
    name: 'uid and extras all allowed',
    headers: {
      'impersonate-user': ['jane'],
      'impersonate-uid': ['1234'],
      'impersonate-extra-example.com%2fscopes': ['view', 'edit'],
    },
    allow: [
      'users:jane',
      'uids:1234',
      'userextras/example.com/scopes:view',
      'userextras/example.com/scopes:edit',
    ],
    want: {
      username: 'jane',
      uid: '1234',
      groups: ['system:authenticated'],
      extra: { 'example.com/scopes': ['view', 'edit'] },
    },
  },
  {
    name: 'refused user: upstream 403 message',
    headers: { 'impersonate-user': ['jane'] },
    allow: [],
    want: {
      code: 403,
      message:
        'users "jane" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
    },
  },
  {
    name: 'refused service account: namespaced message',
    headers: { 'impersonate-user': ['system:serviceaccount:team:builder'] },
    allow: [],
    want: {
      code: 403,
      message:
        'serviceaccounts "builder" is forbidden: User "bob" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "team"',
    },
  },
  {
    name: 'refused group after an allowed user',
    headers: { 'impersonate-user': ['jane'], 'impersonate-group': ['system:masters'] },
    allow: ['users:jane'],
    want: {
      code: 403,
      message:
        'groups "system:masters" is forbidden: User "bob" cannot impersonate resource "groups" in API group "" at the cluster scope',
    },
  },
  {
    name: 'refused extra: qualified resource, subresource in the message',
    headers: { 'impersonate-user': ['jane'], 'impersonate-extra-scopes': ['view'] },
    allow: ['users:jane'],
    want: {
      code: 403,
      message:
        'userextras.authentication.k8s.io "view" is forbidden: User "bob" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
    },
  },
  {
    name: 'a group without a user: upstream internal error',
    headers: { 'impersonate-group': ['dev'] },
    allow: ['groups:dev'],
    want: { code: 500, message: 'requested [{Group  dev    }] without impersonating a user' },
  },
  {
    name: 'a uid without a user',
    headers: { 'impersonate-uid': ['1'] },
    allow: [],
    want: {
      code: 500,
      message: 'requested [{UID  1  authentication.k8s.io/v1  }] without impersonating a user',
    },
  },
];

describe('impersonate', () => {
  for (const c of cases) {
    it(c.name, () => {
      const got = impersonate(c.headers, bob, allowing(...c.allow), '/api/v1/pods');
      if (c.want === undefined || 'username' in c.want) {
        assert.deepEqual(got, c.want === undefined ? undefined : { user: c.want });
        return;
      }
      assert.ok(got !== undefined && 'error' in got, 'refused');
      assert.equal(got.error.code, c.want.code);
      if (c.want.message !== '') assert.equal(got.error.message, c.want.message);
    });
  }

  it('a 403 is a Forbidden Status with the resource and name in details', () => {
    const got = impersonate({ 'impersonate-user': ['jane'] }, bob, allowing());
    assert.ok(got !== undefined && 'error' in got);
    assert.equal(
      statusJson(got.error.status),
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"users \\"jane\\" is forbidden: User \\"bob\\" cannot impersonate resource \\"users\\" in API group \\"\\" at the cluster scope","reason":"Forbidden","details":{"name":"jane","kind":"users"},"code":403}\n',
    );
  });

  it('the 500 for a group without a user is plain text quoting the request URI', () => {
    const got = impersonate({ 'impersonate-group': ['<b>'] }, bob, allowing(), '/api?x=<1>');
    assert.ok(got !== undefined && 'error' in got);
    assert.equal(
      got.plainTextBody,
      'Internal Server Error: "/api?x=&lt;1&gt;": requested [{Group  &lt;b&gt;    }] without impersonating a user\n',
    );
  });

  it('stops at the first refusal and checks in upstream order', () => {
    const authz = allowing('users:jane');
    impersonate(
      { 'impersonate-user': ['jane'], 'impersonate-group': ['a', 'b'], 'impersonate-uid': ['u'] },
      bob,
      authz,
    );
    assert.deepEqual(authz.asked, ['users:jane', 'groups:a']);
  });

  it('lists the checks it needs', () => {
    const attrs = impersonationAttributes(
      { 'impersonate-user': ['jane'], 'impersonate-extra-k': ['v'] },
      bob,
    );
    assert.deepEqual(
      attrs.map((a) => [a.verb, a.apiGroup, a.resource, a.subresource ?? '', a.name]),
      [
        ['impersonate', '', 'users', '', 'jane'],
        ['impersonate', 'authentication.k8s.io', 'userextras', 'k', 'v'],
      ],
    );
  });

  it('strips every impersonation header and keeps the others', () => {
    const headers: IncomingHttpHeaders = {
      'impersonate-user': 'jane',
      'impersonate-group': 'a, b',
      'impersonate-uid': '1',
      'impersonate-extra-scopes': 'v',
      authorization: 'Bearer x',
      accept: 'application/json',
    };
    stripImpersonationHeaders(headers);
    assert.deepEqual(headers, { authorization: 'Bearer x', accept: 'application/json' });
  });
});
