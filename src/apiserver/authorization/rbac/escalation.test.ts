import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../../api/errors.js';
import type { PolicyRule } from '../../../api/model/index.js';
import type { KubeObject } from '../../../api/object.js';
import type { UserInfo } from '../../authentication/user.js';
import { authorizerChain, privilegedGroups } from '../chain.js';
import { RbacAuthorizer } from './authorizer.js';
import { checkBindingWrite, checkRoleWrite, isOnlyMutatingGCFields } from './escalation.js';
import {
  clusterRole,
  clusterRoleBinding,
  indexOf,
  role,
  roleBinding,
  user,
} from './test-fixtures.js';

const podsRead: PolicyRule = { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] };
const podsAll: PolicyRule = { apiGroups: [''], resources: ['pods'], verbs: ['*'] };
const jane: UserInfo = { username: 'jane', groups: ['system:authenticated'] };
const escalator: UserInfo = { username: 'esc', groups: ['system:authenticated'] };
const binder: UserInfo = { username: 'binder', groups: ['system:authenticated'] };
const admin: UserInfo = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };

const rbac = new RbacAuthorizer(
  indexOf([
    clusterRole('pod-reader', [podsRead]),
    clusterRole('pod-admin', [podsAll]),
    clusterRole('escalate-roles', [
      {
        apiGroups: ['rbac.authorization.k8s.io'],
        resources: ['roles'],
        verbs: ['escalate', 'create'],
      },
    ]),
    clusterRole('bind-pod-admin', [
      {
        apiGroups: ['rbac.authorization.k8s.io'],
        resources: ['clusterroles'],
        resourceNames: ['pod-admin'],
        verbs: ['bind'],
      },
    ]),
    role('ns1', 'local-admin', [podsAll]),
    roleBinding('ns1', 'jane-reads', { kind: 'ClusterRole', name: 'pod-reader' }, [user('jane')]),
    clusterRoleBinding('esc', 'escalate-roles', [user('esc')]),
    clusterRoleBinding('binder', 'bind-pod-admin', [user('binder')]),
  ]),
);
const authorizer = authorizerChain([privilegedGroups(), rbac]);

function thrown(f: () => void): StatusError | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    assert.ok(e instanceof StatusError);
    return e;
  }
}

const roleWrite = (u: UserInfo, rules: PolicyRule[], namespace = 'ns1') =>
  thrown(() =>
    checkRoleWrite({
      user: u,
      authorizer,
      resolver: rbac,
      kind: 'Role',
      namespace,
      requestName: '',
      next: role(namespace, 'r', rules),
    }),
  );

describe('checkRoleWrite', () => {
  it('allows granting rules the user holds', () => {
    assert.equal(
      roleWrite(jane, [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]),
      undefined,
    );
  });
  it('refuses more, naming what is missing as upstream does', () => {
    const err = roleWrite(jane, [
      { apiGroups: [''], resources: ['pods', 'secrets'], verbs: ['get', 'delete'] },
    ]);
    assert.equal(
      err?.message,
      'roles.rbac.authorization.k8s.io "r" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}',
    );
    assert.equal(err?.code, 403);
    assert.deepEqual(err?.status.details, {
      name: 'r',
      group: 'rbac.authorization.k8s.io',
      kind: 'roles',
    });
  });
  it('rules held in one namespace do not count in another', () => {
    assert.equal(
      roleWrite(jane, [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }], 'ns2')?.code,
      403,
    );
  });
  it('the escalate verb allows anything', () => {
    assert.equal(
      roleWrite(escalator, [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]),
      undefined,
    );
  });
  it('system:masters may grant anything', () => {
    assert.equal(roleWrite(admin, [{ nonResourceURLs: ['*'], verbs: ['*'] }]), undefined);
  });
  it('an update of owner references and finalizers only is not checked', () => {
    const current = role('ns1', 'r', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]);
    const next = {
      ...current,
      metadata: { ...current.metadata, finalizers: ['x'], ownerReferences: [] },
    };
    const err = thrown(() =>
      checkRoleWrite({
        user: jane,
        authorizer,
        resolver: rbac,
        kind: 'Role',
        namespace: 'ns1',
        requestName: 'r',
        next,
        current,
      }),
    );
    assert.equal(err, undefined);
  });
  it('an aggregationRule needs every permission', () => {
    const err = thrown(() =>
      checkRoleWrite({
        user: jane,
        authorizer,
        resolver: rbac,
        kind: 'ClusterRole',
        namespace: '',
        requestName: '',
        next: {
          ...clusterRole('agg', []),
          aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] },
        },
      }),
    );
    assert.equal(
      err?.message,
      'clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule',
    );
  });
  it('appends resolution errors', () => {
    const broken = new RbacAuthorizer(indexOf([clusterRoleBinding('b', 'gone', [user('jane')])]));
    const err = thrown(() =>
      checkRoleWrite({
        user: jane,
        authorizer: broken,
        resolver: broken,
        kind: 'ClusterRole',
        namespace: '',
        requestName: '',
        next: clusterRole('c', [podsRead]),
      }),
    );
    assert.equal(
      err?.message,
      'clusterroles.rbac.authorization.k8s.io "c" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}; resolution errors: [clusterrole.rbac.authorization.k8s.io "gone" not found]',
    );
  });
});

const bindingWrite = (
  u: UserInfo,
  ref: { kind: 'Role' | 'ClusterRole'; name: string },
  namespace = 'ns1',
) =>
  thrown(() =>
    checkBindingWrite({
      user: u,
      authorizer,
      resolver: rbac,
      roles: rbac,
      kind: 'RoleBinding',
      namespace,
      next: roleBinding(namespace, 'b', ref, [user('someone')]),
    }),
  );

describe('checkBindingWrite', () => {
  it('allows binding a role whose rules the user holds', () => {
    assert.equal(bindingWrite(jane, { kind: 'ClusterRole', name: 'pod-reader' }), undefined);
  });
  it('refuses binding a role with more', () => {
    const err = bindingWrite(jane, { kind: 'Role', name: 'local-admin' });
    assert.equal(
      err?.message,
      'rolebindings.rbac.authorization.k8s.io "b" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["*"]}',
    );
  });
  it('the bind verb on that role allows it', () => {
    assert.equal(bindingWrite(binder, { kind: 'ClusterRole', name: 'pod-admin' }), undefined);
  });
  it('bind on one role is not bind on another', () => {
    assert.equal(bindingWrite(binder, { kind: 'Role', name: 'local-admin' })?.code, 403);
  });
  it('a missing role is upstream 404 from the role lister', () => {
    const err = bindingWrite(jane, { kind: 'ClusterRole', name: 'nope' });
    assert.equal(err?.code, 404);
    assert.equal(err?.message, 'clusterrole.rbac.authorization.k8s.io "nope" not found');
  });
  it('system:masters may bind anything, even a missing role', () => {
    assert.equal(bindingWrite(admin, { kind: 'ClusterRole', name: 'nope' }), undefined);
  });
  it('a ClusterRoleBinding needs the rules cluster-wide', () => {
    const err = thrown(() =>
      checkBindingWrite({
        user: jane,
        authorizer,
        resolver: rbac,
        roles: rbac,
        kind: 'ClusterRoleBinding',
        namespace: '',
        next: clusterRoleBinding('c', 'pod-reader', [user('x')]),
      }),
    );
    assert.match(
      err?.message ?? '',
      /^clusterrolebindings\.rbac\.authorization\.k8s\.io "c" is forbidden: /,
    );
  });
});

describe('isOnlyMutatingGCFields', () => {
  const base = role('ns', 'r', [podsRead]);
  const cases: [string, KubeObject, boolean][] = [
    ['finalizers', { ...base, metadata: { ...base.metadata, finalizers: ['a'] } }, true],
    [
      'owner references',
      {
        ...base,
        metadata: {
          ...base.metadata,
          ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u' }],
        },
      },
      true,
    ],
    ['a label', { ...base, metadata: { ...base.metadata, labels: { a: 'b' } } }, false],
    ['the rules', { ...base, rules: [podsAll] }, false],
  ];
  for (const [name, next, want] of cases) {
    it(name, () => assert.equal(isOnlyMutatingGCFields(next, base), want));
  }
});
