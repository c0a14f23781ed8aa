import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { statusJson } from '../../api/errors.js';
import type { UserInfo } from '../authentication/user.js';
import { forbiddenError } from './forbidden.js';
import type { Attributes } from './types.js';

const jane: UserInfo = { username: 'jane', groups: ['system:authenticated'] };

describe('forbiddenError: upstream 403 bodies, byte for byte', () => {
  const cases: [string, Attributes, string, string][] = [
    [
      'list in a namespace',
      {
        user: jane,
        verb: 'list',
        resourceRequest: true,
        namespace: 'default',
        apiGroup: '',
        apiVersion: 'v1',
        resource: 'pods',
      },
      '',
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods is forbidden: User \\"jane\\" cannot list resource \\"pods\\" in API group \\"\\" in the namespace \\"default\\"","reason":"Forbidden","details":{"kind":"pods"},"code":403}\n',
    ],
    [
      'get a named object in a group',
      {
        user: jane,
        verb: 'get',
        resourceRequest: true,
        namespace: 'web',
        apiGroup: 'apps',
        apiVersion: 'v1',
        resource: 'deployments',
        name: 'api',
      },
      '',
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deployments.apps \\"api\\" is forbidden: User \\"jane\\" cannot get resource \\"deployments\\" in API group \\"apps\\" in the namespace \\"web\\"","reason":"Forbidden","details":{"name":"api","group":"apps","kind":"deployments"},"code":403}\n',
    ],
    [
      'a subresource',
      {
        user: jane,
        verb: 'get',
        resourceRequest: true,
        namespace: 'default',
        apiGroup: '',
        resource: 'pods',
        subresource: 'log',
        name: 'web',
      },
      '',
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \\"web\\" is forbidden: User \\"jane\\" cannot get resource \\"pods/log\\" in API group \\"\\" in the namespace \\"default\\"","reason":"Forbidden","details":{"name":"web","kind":"pods"},"code":403}\n',
    ],
    [
      'cluster scope',
      { user: jane, verb: 'list', resourceRequest: true, apiGroup: '', resource: 'nodes' },
      '',
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"nodes is forbidden: User \\"jane\\" cannot list resource \\"nodes\\" in API group \\"\\" at the cluster scope","reason":"Forbidden","details":{"kind":"nodes"},"code":403}\n',
    ],
    [
      'a non-resource path',
      { user: jane, verb: 'get', resourceRequest: false, path: '/metrics' },
      '',
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \\"jane\\" cannot get path \\"/metrics\\"","reason":"Forbidden","details":{},"code":403}\n',
    ],
    [
      'a reason is appended after ": "',
      {
        user: jane,
        verb: 'list',
        resourceRequest: true,
        namespace: 'default',
        apiGroup: '',
        resource: 'secrets',
      },
      'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found',
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"secrets is forbidden: User \\"jane\\" cannot list resource \\"secrets\\" in API group \\"\\" in the namespace \\"default\\": RBAC: clusterrole.rbac.authorization.k8s.io \\"gone\\" not found","reason":"Forbidden","details":{"kind":"secrets"},"code":403}\n',
    ],
    [
      'an anonymous user',
      {
        user: { username: 'system:anonymous', groups: ['system:unauthenticated'] },
        verb: 'get',
        resourceRequest: false,
        path: '/',
      },
      '',
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \\"system:anonymous\\" cannot get path \\"/\\"","reason":"Forbidden","details":{},"code":403}\n',
    ],
  ];
  for (const [name, attrs, reason, want] of cases) {
    it(name, () => {
      const err = forbiddenError(attrs, reason);
      assert.equal(err.code, 403);
      assert.equal(statusJson(err.status), want);
    });
  }

  it('writes & < > of the message as entities, not of the reason', () => {
    const err = forbiddenError(
      { user: { username: 'a<b>&c', groups: [] }, verb: 'get', resourceRequest: false, path: '/x' },
      'why <not>',
    );
    assert.equal(err.message, 'forbidden: User "a&lt;b&gt;&amp;c" cannot get path "/x": why <not>');
  });
});
