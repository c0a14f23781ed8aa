import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../../api/errors.js';
import type {
  LocalSubjectAccessReview,
  SelfSubjectAccessReview,
  SubjectAccessReview,
} from '../../../api/model/index.js';
import type { UserInfo } from '../../authentication/user.js';
import { authorizerChain, privilegedGroups } from '../chain.js';
import { RbacAuthorizer } from '../rbac/authorizer.js';
import {
  clusterRole,
  clusterRoleBinding,
  group,
  indexOf,
  roleBinding,
  user,
} from '../rbac/test-fixtures.js';
import {
  localSubjectAccessReview,
  selfSubjectAccessReview,
  selfSubjectRulesReview,
  subjectAccessReview,
} from './reviews.js';

const rbac = new RbacAuthorizer(
  indexOf([
    clusterRole('pod-reader', [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]),
    clusterRole('health', [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }]),
    roleBinding('ns1', 'jane', { kind: 'ClusterRole', name: 'pod-reader' }, [user('jane')]),
    clusterRoleBinding('health', 'health', [group('system:authenticated')]),
    clusterRoleBinding('broken', 'gone', [user('jane')]),
  ]),
);
const authorizer = authorizerChain([privilegedGroups(), rbac]);
const jane: UserInfo = { username: 'jane', groups: ['system:authenticated'] };

function thrown(f: () => void): StatusError | undefined {
  try {
    f();
    return undefined;
  } catch (e) {
    assert.ok(e instanceof StatusError);
    return e;
  }
}

const sar = (spec: SubjectAccessReview['spec'], metadata = {}): SubjectAccessReview => ({
  apiVersion: 'authorization.k8s.io/v1',
  kind: 'SubjectAccessReview',
  metadata,
  spec,
});

describe('subjectAccessReview', () => {
  it('allows with the reason of the binding', () => {
    const r = subjectAccessReview(
      sar({
        user: 'jane',
        resourceAttributes: { namespace: 'ns1', verb: 'list', resource: 'pods' },
      }),
      authorizer,
    );
    assert.deepEqual(r.status, {
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "jane/ns1" of ClusterRole "pod-reader" to User "jane"',
    });
  });
  it("does not add system:authenticated: the groups are the spec's", () => {
    const r = subjectAccessReview(
      sar({ user: 'bob', nonResourceAttributes: { path: '/healthz', verb: 'get' } }),
      authorizer,
    );
    assert.deepEqual(r.status, { allowed: false });
  });
  it('reports resolution errors as the reason, not as evaluationError (upstream RBAC)', () => {
    const r = subjectAccessReview(
      sar({ user: 'jane', resourceAttributes: { verb: 'delete', resource: 'pods' } }),
      authorizer,
    );
    assert.deepEqual(r.status, {
      allowed: false,
      reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found',
    });
  });
  it('a group alone is a subject; system:masters is allowed with no reason', () => {
    const r = subjectAccessReview(
      sar({
        groups: ['system:masters'],
        resourceAttributes: { verb: 'delete', resource: 'nodes' },
      }),
      authorizer,
    );
    assert.deepEqual(r.status, { allowed: true });
  });

  const invalid: [string, SubjectAccessReview, string][] = [
    [
      'no subject',
      sar({ resourceAttributes: { verb: 'get' } }),
      '.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified',
    ],
    [
      'no attributes',
      sar({ user: 'x' }),
      '.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    ],
    [
      'both attributes',
      sar({
        user: 'x',
        resourceAttributes: {},
        nonResourceAttributes: { path: '/x', verb: 'get' },
      }),
      '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes',
    ],
    [
      'nothing at all',
      sar({}),
      '.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]',
    ],
    [
      'metadata',
      sar({ user: 'x', resourceAttributes: {} }, { name: 'n' }),
      '.authorization.k8s.io "" is invalid: metadata: Invalid value: &ObjectMeta{Name:n,GenerateName:,Namespace:,SelfLink:,UID:,ResourceVersion:,Generation:0,CreationTimestamp:0001-01-01 00:00:00 +0000 UTC,DeletionTimestamp:<nil>,DeletionGracePeriodSeconds:nil,Labels:map[string]string{},Annotations:map[string]string{},OwnerReferences:[]OwnerReference{},Finalizers:[],ManagedFields:[]ManagedFieldsEntry{},}: must be empty',
    ],
    [
      'a selector with both forms',
      sar({
        user: 'x',
        resourceAttributes: {
          fieldSelector: {
            rawSelector: 'a=b',
            requirements: [{ key: 'a', operator: 'In', values: ['b'] }],
          },
        },
      }),
      '.authorization.k8s.io "" is invalid: spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: "a=b": may not specified at the same time as requirements',
    ],
    [
      'a selector with neither',
      sar({ user: 'x', resourceAttributes: { labelSelector: {} } }),
      '.authorization.k8s.io "" is invalid: spec.resourceAttributes.labelSelector.requirements: Required value: when spec.resourceAttributes.labelSelector is specified, requirements or rawSelector is required',
    ],
    [
      'a requirement without values',
      sar({
        user: 'x',
        resourceAttributes: { labelSelector: { requirements: [{ key: 'a', operator: 'In' }] } },
      }),
      ".authorization.k8s.io \"\" is invalid: spec.resourceAttributes.labelSelector.requirements[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ],
  ];
  for (const [name, review, message] of invalid) {
    it(`422: ${name}`, () => {
      const err = thrown(() => subjectAccessReview(review, authorizer));
      assert.equal(err?.code, 422);
      assert.equal(err?.message, message);
      assert.deepEqual(err?.status.details?.group, 'authorization.k8s.io');
    });
  }
  it('metadata with only an empty creationTimestamp and managedFields is empty', () => {
    const r = subjectAccessReview(
      sar(
        { user: 'jane', resourceAttributes: { namespace: 'ns1', verb: 'get', resource: 'pods' } },
        { creationTimestamp: null, managedFields: [{ manager: 'kubectl' }] },
      ),
      authorizer,
    );
    assert.equal(r.status?.allowed, true);
  });
});

const lsar = (
  namespace: string | undefined,
  spec: LocalSubjectAccessReview['spec'],
): LocalSubjectAccessReview => ({
  kind: 'LocalSubjectAccessReview',
  apiVersion: 'authorization.k8s.io/v1',
  metadata: namespace === undefined ? {} : { namespace },
  spec,
});

describe('localSubjectAccessReview', () => {
  it('answers in the namespace', () => {
    const r = localSubjectAccessReview(
      lsar('ns1', {
        user: 'jane',
        resourceAttributes: { namespace: 'ns1', verb: 'get', resource: 'pods' },
      }),
      'ns1',
      authorizer,
    );
    assert.equal(r.status?.allowed, true);
  });
  const bad: [string, LocalSubjectAccessReview, string, number, string][] = [
    [
      'attributes in another namespace',
      lsar('ns1', { user: 'jane', resourceAttributes: { namespace: 'ns2', verb: 'get' } }),
      'ns1',
      422,
      '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "ns2": must match metadata.namespace',
    ],
    [
      'non-resource attributes',
      lsar('ns1', { user: 'jane', nonResourceAttributes: { path: '/', verb: 'get' } }),
      'ns1',
      422,
      '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/", Verb:"get"}: disallowed on this kind of request',
    ],
    [
      'another request namespace',
      lsar('ns1', { user: 'jane', resourceAttributes: { namespace: 'ns1', verb: 'get' } }),
      'ns2',
      400,
      'spec.resourceAttributes.namespace must match namespace: ns2',
    ],
    [
      'a metadata name',
      {
        ...lsar('ns1', { user: 'jane', resourceAttributes: { namespace: 'ns1' } }),
        metadata: { namespace: 'ns1', name: 'x' },
      },
      'ns1',
      422,
      '.authorization.k8s.io "" is invalid: metadata: Invalid value: &ObjectMeta{Name:x,GenerateName:,Namespace:ns1,SelfLink:,UID:,ResourceVersion:,Generation:0,CreationTimestamp:0001-01-01 00:00:00 +0000 UTC,DeletionTimestamp:<nil>,DeletionGracePeriodSeconds:nil,Labels:map[string]string{},Annotations:map[string]string{},OwnerReferences:[]OwnerReference{},Finalizers:[],ManagedFields:[]ManagedFieldsEntry{},}: must be empty except for namespace',
    ],
  ];
  for (const [name, review, ns, code, message] of bad) {
    it(`${code}: ${name}`, () => {
      const err = thrown(() => localSubjectAccessReview(review, ns, authorizer));
      assert.equal(err?.code, code);
      assert.equal(err?.message, message);
    });
  }
});

describe('selfSubjectAccessReview', () => {
  const ssar = (spec: SelfSubjectAccessReview['spec']): SelfSubjectAccessReview => ({
    kind: 'SelfSubjectAccessReview',
    apiVersion: 'authorization.k8s.io/v1',
    metadata: {},
    spec,
  });
  it('asks about the requesting user', () => {
    assert.deepEqual(
      selfSubjectAccessReview(
        ssar({ nonResourceAttributes: { path: '/healthz', verb: 'get' } }),
        jane,
        authorizer,
      ).status,
      {
        allowed: true,
        reason:
          'RBAC: allowed by ClusterRoleBinding "health" of ClusterRole "health" to Group "system:authenticated"',
      },
    );
  });
  it('needs no user or group in the spec, but one kind of attributes', () => {
    const err = thrown(() => selfSubjectAccessReview(ssar({}), jane, authorizer));
    assert.equal(
      err?.message,
      '.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );
  });
});

describe('selfSubjectRulesReview', () => {
  it("lists the user's rules in the namespace, cluster-wide ones included", () => {
    const r = selfSubjectRulesReview({ spec: { namespace: 'ns1' } }, jane, rbac);
    assert.deepEqual(r, {
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: {},
      spec: {},
      status: {
        resourceRules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
        incomplete: false,
        evaluationError: 'clusterrole.rbac.authorization.k8s.io "gone" not found',
      },
    });
  });
  it('400 without a namespace', () => {
    const err = thrown(() => selfSubjectRulesReview({ spec: {} }, jane, rbac));
    assert.equal(err?.code, 400);
    assert.equal(err?.message, 'no namespace on request');
  });
});
