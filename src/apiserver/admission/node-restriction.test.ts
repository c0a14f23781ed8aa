import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Node, Pod, Taint } from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import type { UserInfo } from '../authentication/user.js';
import {
  admitNodeRequest,
  type NodeAdmissionAttributes,
  type NodeRestrictionLookup,
  nodeIdentity,
} from './node-restriction.js';

const n1: UserInfo = {
  username: 'system:node:n1',
  groups: ['system:nodes', 'system:authenticated'],
};

function pod(name: string, nodeName: string, extra: Partial<Pod> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, labels: { app: 'x' } },
    spec: { nodeName, containers: [{ name: 'c', image: 'i' }] },
    ...extra,
  };
}

function node(name: string, labels: Record<string, string> = {}, taints: Taint[] = []): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, uid: `uid-${name}`, labels },
    spec: taints.length > 0 ? { taints } : {},
  };
}

const pods = new Map([
  ['p1', pod('p1', 'n1')],
  ['p2', pod('p2', 'n2')],
]);
const lookup: NodeRestrictionLookup = {
  pod: (ns, name) => (ns === 'default' ? pods.get(name) : undefined),
  node: (name) => (name === 'n1' ? node('n1') : undefined),
};

function mirror(overrides: Partial<Pod['spec']> = {}, meta: Record<string, unknown> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'static-web-n1',
      namespace: 'default',
      annotations: { 'kubernetes.io/config.mirror': 'hash' },
      ownerReferences: [
        { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'uid-n1', controller: true },
      ],
      ...meta,
    },
    spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }], ...overrides },
  };
}

type Req = Partial<NodeAdmissionAttributes> &
  Pick<NodeAdmissionAttributes, 'operation' | 'resource'>;

function req(r: Req): NodeAdmissionAttributes {
  return { user: n1, group: '', subresource: '', namespace: 'default', name: '', ...r };
}

const lease = (name: string): KubeObject => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name },
});

const tokenRequest = (ref: Record<string, string> | undefined): KubeObject => ({
  apiVersion: 'authentication.k8s.io/v1',
  kind: 'TokenRequest',
  spec: { audiences: [], ...(ref ? { boundObjectRef: ref } : {}) },
});

const cases: { name: string; req: NodeAdmissionAttributes; want: string | undefined }[] = [
  {
    name: 'not a node: no opinion',
    req: req({
      user: { username: 'jane', groups: [] },
      operation: 'DELETE',
      resource: 'pods',
      name: 'p2',
    }),
    want: undefined,
  },
  {
    name: 'a node name outside system:nodes is no node',
    req: req({
      user: { username: 'system:node:n1', groups: [] },
      operation: 'DELETE',
      resource: 'pods',
      name: 'p2',
    }),
    want: undefined,
  },
  {
    name: 'an empty node name',
    req: req({
      user: { username: 'system:node:', groups: ['system:nodes'] },
      operation: 'DELETE',
      resource: 'pods',
      name: 'p1',
    }),
    want: 'pods "p1" is forbidden: could not determine node from user "system:node:"',
  },
  {
    name: 'a mirror pod of its own',
    req: req({ operation: 'CREATE', resource: 'pods', object: mirror() }),
    want: undefined,
  },
  {
    name: 'a pod that is not a mirror pod',
    req: req({ operation: 'CREATE', resource: 'pods', object: pod('web', 'n1') }),
    want: 'pods "web" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods',
  },
  {
    name: 'a mirror pod for another node',
    req: req({ operation: 'CREATE', resource: 'pods', object: mirror({ nodeName: 'n2' }) }),
    want: 'pods "static-web-n1" is forbidden: node "n1" can only create pods with spec.nodeName set to itself',
  },
  {
    name: 'a mirror pod without an owner',
    req: req({
      operation: 'CREATE',
      resource: 'pods',
      object: mirror({}, { ownerReferences: [] }),
    }),
    want: 'pods "static-web-n1" is forbidden: node "n1" can only create pods with an owner reference set to itself',
  },
  {
    name: 'a mirror pod owned by a stale node uid',
    req: req({
      operation: 'CREATE',
      resource: 'pods',
      object: mirror(
        {},
        {
          ownerReferences: [
            { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'old', controller: true },
          ],
        },
      ),
    }),
    want: 'pods "static-web-n1" is forbidden: node n1 UID mismatch: expected old got uid-n1',
  },
  {
    name: 'a mirror pod referencing a secret',
    req: req({
      operation: 'CREATE',
      resource: 'pods',
      object: mirror({ volumes: [{ name: 'v', secret: { secretName: 's' } }] }),
    }),
    want: 'pods "static-web-n1" is forbidden: node "n1" can not create pods that reference secrets',
  },
  {
    name: 'a mirror pod referencing a configmap through env',
    req: req({
      operation: 'CREATE',
      resource: 'pods',
      object: mirror({
        containers: [
          {
            name: 'c',
            image: 'i',
            env: [{ name: 'E', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } }],
          },
        ],
      }),
    }),
    want: 'pods "static-web-n1" is forbidden: node "n1" can not create pods that reference configmaps',
  },
  {
    name: 'updating a pod',
    req: req({ operation: 'UPDATE', resource: 'pods', name: 'p1', object: pods.get('p1') }),
    want: 'pods "p1" is forbidden: unexpected operation "UPDATE", node "n1" can only create and delete mirror pods',
  },
  {
    name: 'deleting a pod bound to it',
    req: req({ operation: 'DELETE', resource: 'pods', name: 'p1' }),
    want: undefined,
  },
  {
    name: 'deleting a pod bound elsewhere',
    req: req({ operation: 'DELETE', resource: 'pods', name: 'p2' }),
    want: 'pods "p2" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself',
  },
  {
    name: 'deleting a pod that does not exist',
    req: req({ operation: 'DELETE', resource: 'pods', name: 'gone' }),
    want: 'pods "gone" not found',
  },
  {
    name: 'status of its pod',
    req: req({
      operation: 'UPDATE',
      resource: 'pods',
      subresource: 'status',
      name: 'p1',
      object: pods.get('p1'),
      oldObject: pods.get('p1'),
    }),
    want: undefined,
  },
  {
    name: 'status of a pod elsewhere',
    req: req({
      operation: 'UPDATE',
      resource: 'pods',
      subresource: 'status',
      name: 'p2',
      object: pods.get('p2'),
      oldObject: pods.get('p2'),
    }),
    want: 'pods "p2" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself',
  },
  {
    name: 'labels through pod status',
    req: req({
      operation: 'UPDATE',
      resource: 'pods',
      subresource: 'status',
      name: 'p1',
      object: { ...pod('p1', 'n1'), metadata: { name: 'p1', labels: { app: 'y' } } },
      oldObject: pods.get('p1'),
    }),
    want: 'pods "p1" is forbidden: node "n1" cannot update labels through pod status',
  },
  {
    name: 'evicting its pod',
    req: req({
      operation: 'CREATE',
      resource: 'pods',
      subresource: 'eviction',
      name: 'p1',
      object: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p1' } },
    }),
    want: undefined,
  },
  {
    name: 'evicting a pod elsewhere',
    req: req({
      operation: 'CREATE',
      resource: 'pods',
      subresource: 'eviction',
      name: 'p2',
      object: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p2' } },
    }),
    want: 'pods "p2" is forbidden: node n1 can only evict pods with spec.nodeName set to itself',
  },
  {
    name: 'another pod subresource',
    req: req({ operation: 'CREATE', resource: 'pods', subresource: 'binding', name: 'p1' }),
    want: `pods "p1" is forbidden: unexpected pod subresource "binding", only 'status' and 'eviction' are allowed`,
  },
  {
    name: 'registering itself with kubelet labels',
    req: req({
      operation: 'CREATE',
      resource: 'nodes',
      object: node('n1', {
        'kubernetes.io/hostname': 'n1',
        'node.kubernetes.io/instance-type': 'm',
        'a.kubelet.kubernetes.io/x': '1',
        'example.com/team': 'x',
      }),
    }),
    want: undefined,
  },
  {
    name: 'registering itself with a role and a node-restriction label',
    req: req({
      operation: 'CREATE',
      resource: 'nodes',
      object: node('n1', {
        'node-role.kubernetes.io/control-plane': '',
        'node-restriction.kubernetes.io/trusted': 'yes',
        'example.k8s.io/x': '1',
      }),
    }),
    want: 'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: example.k8s.io/x, node-restriction.kubernetes.io/trusted, node-role.kubernetes.io/control-plane',
  },
  {
    name: 'registering another node',
    req: req({ operation: 'CREATE', resource: 'nodes', namespace: '', object: node('n2') }),
    want: 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
  },
  {
    name: 'changing its taints',
    req: req({
      operation: 'UPDATE',
      resource: 'nodes',
      name: 'n1',
      object: node('n1'),
      oldObject: node('n1', {}, [{ key: 'k', effect: 'NoSchedule' }]),
    }),
    want: 'nodes "n1" is forbidden: node "n1" is not allowed to modify taints',
  },
  {
    name: 'removing a restricted label on update',
    req: req({
      operation: 'UPDATE',
      resource: 'nodes',
      subresource: 'status',
      name: 'n1',
      object: node('n1'),
      oldObject: node('n1', { 'node-restriction.kubernetes.io/pool': 'a' }),
    }),
    want: 'nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pool',
  },
  {
    name: 'its own lease',
    req: req({
      operation: 'CREATE',
      group: 'coordination.k8s.io',
      resource: 'leases',
      namespace: 'kube-node-lease',
      object: lease('n1'),
    }),
    want: undefined,
  },
  {
    name: "another node's lease",
    req: req({
      operation: 'UPDATE',
      group: 'coordination.k8s.io',
      resource: 'leases',
      namespace: 'kube-node-lease',
      name: 'n2',
      object: lease('n2'),
    }),
    want: 'leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node',
  },
  {
    name: 'a lease outside kube-node-lease',
    req: req({
      operation: 'CREATE',
      group: 'coordination.k8s.io',
      resource: 'leases',
      object: lease('n1'),
    }),
    want: 'leases.coordination.k8s.io "n1" is forbidden: can only access leases in the "kube-node-lease" system namespace',
  },
  {
    name: 'a token bound to its pod',
    req: req({
      operation: 'CREATE',
      resource: 'serviceaccounts',
      subresource: 'token',
      name: 'sa',
      object: tokenRequest({ apiVersion: 'v1', kind: 'Pod', name: 'p1', uid: 'uid-p1' }),
    }),
    want: undefined,
  },
  {
    name: 'a token bound to nothing',
    req: req({
      operation: 'CREATE',
      resource: 'serviceaccounts',
      subresource: 'token',
      name: 'sa',
      object: tokenRequest(undefined),
    }),
    want: 'serviceaccounts "sa" is forbidden: node requested token not bound to a pod',
  },
  {
    name: 'a token bound to a recreated pod',
    req: req({
      operation: 'CREATE',
      resource: 'serviceaccounts',
      subresource: 'token',
      name: 'sa',
      object: tokenRequest({ apiVersion: 'v1', kind: 'Pod', name: 'p1', uid: 'old' }),
    }),
    want: 'serviceaccounts "sa" is forbidden: the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated',
  },
  {
    name: 'a token bound to a pod elsewhere',
    req: req({
      operation: 'CREATE',
      resource: 'serviceaccounts',
      subresource: 'token',
      name: 'sa',
      object: tokenRequest({ apiVersion: 'v1', kind: 'Pod', name: 'p2', uid: 'uid-p2' }),
    }),
    want: 'serviceaccounts "sa" is forbidden: node requested token bound to a pod scheduled on a different node',
  },
  {
    name: 'a PVC write other than status',
    req: req({ operation: 'UPDATE', resource: 'persistentvolumeclaims', name: 'c' }),
    want: 'persistentvolumeclaims "c" is forbidden: may only update PVC status',
  },
  {
    name: 'PVC status capacity',
    req: req({
      operation: 'UPDATE',
      resource: 'persistentvolumeclaims',
      subresource: 'status',
      name: 'c',
      object: {
        metadata: { name: 'c', resourceVersion: '2' },
        status: { capacity: { storage: '2Gi' } },
      },
      oldObject: {
        metadata: { name: 'c', resourceVersion: '1' },
        status: { capacity: { storage: '1Gi' } },
      },
    }),
    want: undefined,
  },
  {
    name: 'PVC labels through status',
    req: req({
      operation: 'UPDATE',
      resource: 'persistentvolumeclaims',
      subresource: 'status',
      name: 'c',
      object: { metadata: { name: 'c', labels: { a: 'b' } } },
      oldObject: { metadata: { name: 'c' } },
    }),
    want: 'persistentvolumeclaims "c" is forbidden: node "n1" is not allowed to update fields other than status.quantity and status.conditions',
  },
  {
    name: 'other resources are left to the authorizer',
    req: req({ operation: 'CREATE', resource: 'configmaps', object: { metadata: { name: 'x' } } }),
    want: undefined,
  },
  {
    name: 'connect is not admitted here',
    req: req({ operation: 'CONNECT', resource: 'pods', subresource: 'exec', name: 'p2' }),
    want: undefined,
  },
];

describe('admitNodeRequest', () => {
  for (const c of cases) {
    it(c.name, () => {
      const got = admitNodeRequest(c.req, lookup);
      assert.equal(got?.message, c.want);
      if (got !== undefined) assert.equal(got.code, c.want?.endsWith('not found') ? 404 : 403);
    });
  }
});

describe('nodeIdentity', () => {
  const table: [UserInfo, { node: string } | undefined][] = [
    [n1, { node: 'n1' }],
    [{ username: 'system:node:n1', groups: ['system:authenticated'] }, undefined],
    [{ username: 'n1', groups: ['system:nodes'] }, undefined],
    [{ username: 'system:node:', groups: ['system:nodes'] }, { node: '' }],
  ];
  for (const [user, want] of table) {
    it(`${user.username} [${user.groups.join(',')}]`, () =>
      assert.deepEqual(nodeIdentity(user), want));
  }
});
