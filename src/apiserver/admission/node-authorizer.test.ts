import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../api/model/index.js';
import type { UserInfo } from '../authentication/user.js';
import { NodeAuthorizer, type NodeAuthorizerAttributes, selects } from './node-authorizer.js';

const n1: UserInfo = {
  username: 'system:node:n1',
  groups: ['system:nodes', 'system:authenticated'],
};

const p1: Pod = {
  metadata: { name: 'p1', namespace: 'default' },
  spec: {
    nodeName: 'n1',
    serviceAccountName: 'sa1',
    imagePullSecrets: [{ name: 'pull' }],
    containers: [
      {
        name: 'c',
        image: 'i',
        envFrom: [{ configMapRef: { name: 'c1' } }],
        env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'env-secret', key: 'k' } } }],
      },
    ],
    volumes: [
      { name: 'data', persistentVolumeClaim: { claimName: 'claim1' } },
      { name: 'scratch', ephemeral: {} },
      { name: 'proj', projected: { sources: [{ secret: { name: 'proj-secret' } }] } },
    ],
  },
};
const p2: Pod = {
  metadata: { name: 'p2', namespace: 'default' },
  spec: {
    nodeName: 'n2',
    containers: [{ name: 'c', image: 'i' }],
    volumes: [{ name: 's', secret: { secretName: 's2' } }],
  },
};
const volumes: Record<string, string> = {
  'default/claim1': 'pv1',
  'default/p1-scratch': 'pv-eph',
  'default/other': 'pv2',
};

const authorizer = new NodeAuthorizer({
  podsOnNode: (node) => [p1, p2].filter((p) => p.spec?.nodeName === node),
  volumeOfClaim: (ns, name) => volumes[`${ns}/${name}`],
  volumeAttachmentNode: (name) => (name === 'va1' ? 'n1' : 'n2'),
});

type Ask = Partial<NodeAuthorizerAttributes> & { verb: string; resource?: string };
const ask = (a: Ask): NodeAuthorizerAttributes => ({
  user: n1,
  resourceRequest: true,
  apiGroup: '',
  ...a,
});
const NO_REL = "no relationship found between node 'n1' and this object";

const cases: [string, NodeAuthorizerAttributes, 'Allow' | 'NoOpinion', string][] = [
  [
    'not a node',
    ask({
      user: { username: 'jane', groups: [] },
      verb: 'get',
      resource: 'secrets',
      namespace: 'default',
      name: 'pull',
    }),
    'NoOpinion',
    '',
  ],
  [
    'an unnamed node',
    ask({
      user: { username: 'system:node:', groups: ['system:nodes'] },
      verb: 'get',
      resource: 'pods',
    }),
    'NoOpinion',
    'unknown node for user "system:node:"',
  ],
  [
    'an image pull secret of its pod',
    ask({ verb: 'get', resource: 'secrets', namespace: 'default', name: 'pull' }),
    'Allow',
    '',
  ],
  [
    'an env secret of its pod',
    ask({ verb: 'watch', resource: 'secrets', namespace: 'default', name: 'env-secret' }),
    'Allow',
    '',
  ],
  [
    'a projected secret of its pod',
    ask({ verb: 'list', resource: 'secrets', namespace: 'default', name: 'proj-secret' }),
    'Allow',
    '',
  ],
  [
    "another node's pod's secret",
    ask({ verb: 'get', resource: 'secrets', namespace: 'default', name: 's2' }),
    'NoOpinion',
    NO_REL,
  ],
  [
    'its secret in another namespace',
    ask({ verb: 'get', resource: 'secrets', namespace: 'other', name: 'pull' }),
    'NoOpinion',
    NO_REL,
  ],
  [
    'all secrets',
    ask({ verb: 'list', resource: 'secrets', namespace: 'default' }),
    'NoOpinion',
    'No Object name found',
  ],
  [
    'writing a secret',
    ask({ verb: 'update', resource: 'secrets', namespace: 'default', name: 'pull' }),
    'NoOpinion',
    'can only read resources of this type',
  ],
  [
    'a configmap of its pod',
    ask({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'c1' }),
    'Allow',
    '',
  ],
  [
    'a claim of its pod',
    ask({ verb: 'get', resource: 'persistentvolumeclaims', namespace: 'default', name: 'claim1' }),
    'Allow',
    '',
  ],
  [
    'an ephemeral claim of its pod',
    ask({
      verb: 'get',
      resource: 'persistentvolumeclaims',
      namespace: 'default',
      name: 'p1-scratch',
    }),
    'Allow',
    '',
  ],
  [
    'listing claims',
    ask({ verb: 'list', resource: 'persistentvolumeclaims', namespace: 'default' }),
    'NoOpinion',
    'can only get individual resources of this type',
  ],
  [
    "its claim's status",
    ask({
      verb: 'patch',
      resource: 'persistentvolumeclaims',
      subresource: 'status',
      namespace: 'default',
      name: 'claim1',
    }),
    'Allow',
    '',
  ],
  [
    'a volume bound to its claim',
    ask({ verb: 'get', resource: 'persistentvolumes', name: 'pv1' }),
    'Allow',
    '',
  ],
  [
    'a volume of another claim',
    ask({ verb: 'get', resource: 'persistentvolumes', name: 'pv2' }),
    'NoOpinion',
    NO_REL,
  ],
  [
    "a token for its pod's account",
    ask({
      verb: 'create',
      resource: 'serviceaccounts',
      subresource: 'token',
      namespace: 'default',
      name: 'sa1',
    }),
    'Allow',
    '',
  ],
  [
    'a token for another account',
    ask({
      verb: 'create',
      resource: 'serviceaccounts',
      subresource: 'token',
      namespace: 'default',
      name: 'default',
    }),
    'NoOpinion',
    NO_REL,
  ],
  [
    'reading a service account',
    ask({ verb: 'get', resource: 'serviceaccounts', namespace: 'default', name: 'sa1' }),
    'NoOpinion',
    'can only create tokens for individual service accounts',
  ],
  ['its own Node', ask({ verb: 'get', resource: 'nodes', name: 'n1' }), 'Allow', ''],
  [
    'another Node',
    ask({ verb: 'get', resource: 'nodes', name: 'n2' }),
    'NoOpinion',
    "node 'n1' cannot read 'n2', only its own Node object",
  ],
  [
    'all Nodes',
    ask({ verb: 'list', resource: 'nodes' }),
    'NoOpinion',
    "node 'n1' cannot read all nodes, only its own Node object",
  ],
  ['registering', ask({ verb: 'create', resource: 'nodes' }), 'Allow', ''],
  [
    'node status',
    ask({ verb: 'patch', resource: 'nodes', subresource: 'status', name: 'n1' }),
    'Allow',
    '',
  ],
  ['deleting a Node', ask({ verb: 'delete', resource: 'nodes', name: 'n1' }), 'NoOpinion', ''],
  [
    'its pod',
    ask({ verb: 'get', resource: 'pods', namespace: 'default', name: 'p1' }),
    'Allow',
    '',
  ],
  [
    "another node's pod",
    ask({ verb: 'get', resource: 'pods', namespace: 'default', name: 'p2' }),
    'NoOpinion',
    NO_REL,
  ],
  [
    'watching its pods',
    ask({ verb: 'watch', resource: 'pods', fieldSelector: 'spec.nodeName=n1' }),
    'Allow',
    '',
  ],
  [
    'listing all pods',
    ask({ verb: 'list', resource: 'pods' }),
    'NoOpinion',
    'can only list/watch pods with spec.nodeName field selector',
  ],
  [
    "listing another node's pods",
    ask({ verb: 'list', resource: 'pods', fieldSelector: 'spec.nodeName=n2' }),
    'NoOpinion',
    'can only list/watch pods with spec.nodeName field selector',
  ],
  ['a mirror pod', ask({ verb: 'create', resource: 'pods', namespace: 'default' }), 'Allow', ''],
  [
    'pod status',
    ask({
      verb: 'update',
      resource: 'pods',
      subresource: 'status',
      namespace: 'default',
      name: 'p1',
    }),
    'Allow',
    '',
  ],
  [
    'an eviction',
    ask({
      verb: 'create',
      resource: 'pods',
      subresource: 'eviction',
      namespace: 'default',
      name: 'p1',
    }),
    'Allow',
    '',
  ],
  [
    'exec',
    ask({
      verb: 'create',
      resource: 'pods',
      subresource: 'exec',
      namespace: 'default',
      name: 'p1',
    }),
    'NoOpinion',
    '',
  ],
  [
    'its lease',
    ask({
      verb: 'update',
      apiGroup: 'coordination.k8s.io',
      resource: 'leases',
      namespace: 'kube-node-lease',
      name: 'n1',
    }),
    'Allow',
    '',
  ],
  [
    'creating a lease',
    ask({
      verb: 'create',
      apiGroup: 'coordination.k8s.io',
      resource: 'leases',
      namespace: 'kube-node-lease',
    }),
    'Allow',
    '',
  ],
  [
    "another node's lease",
    ask({
      verb: 'get',
      apiGroup: 'coordination.k8s.io',
      resource: 'leases',
      namespace: 'kube-node-lease',
      name: 'n2',
    }),
    'NoOpinion',
    'can only access node lease with the same name as the requesting node',
  ],
  [
    'a lease elsewhere',
    ask({
      verb: 'get',
      apiGroup: 'coordination.k8s.io',
      resource: 'leases',
      namespace: 'kube-system',
      name: 'n1',
    }),
    'NoOpinion',
    'can only access leases in the "kube-node-lease" system namespace',
  ],
  [
    'listing leases',
    ask({
      verb: 'list',
      apiGroup: 'coordination.k8s.io',
      resource: 'leases',
      namespace: 'kube-node-lease',
    }),
    'NoOpinion',
    'can only get, create, update, patch, or delete a node lease',
  ],
  [
    'its volume attachment',
    ask({ verb: 'get', apiGroup: 'storage.k8s.io', resource: 'volumeattachments', name: 'va1' }),
    'Allow',
    '',
  ],
  [
    'another volume attachment',
    ask({ verb: 'get', apiGroup: 'storage.k8s.io', resource: 'volumeattachments', name: 'va2' }),
    'NoOpinion',
    NO_REL,
  ],
  ['services (static rules)', ask({ verb: 'watch', resource: 'services' }), 'Allow', ''],
  [
    'events (static rules)',
    ask({ verb: 'patch', resource: 'events', namespace: 'default', name: 'e' }),
    'Allow',
    '',
  ],
  [
    'a token review (static rules)',
    ask({ verb: 'create', apiGroup: 'authentication.k8s.io', resource: 'tokenreviews' }),
    'Allow',
    '',
  ],
  [
    'deployments',
    ask({ verb: 'list', apiGroup: 'apps', resource: 'deployments' }),
    'NoOpinion',
    '',
  ],
  [
    'a non-resource path',
    { user: n1, verb: 'get', resourceRequest: false, path: '/healthz' },
    'NoOpinion',
    '',
  ],
];

describe('NodeAuthorizer', () => {
  for (const [name, attrs, decision, reason] of cases) {
    it(name, () => assert.deepEqual(authorizer.authorize(attrs), { decision, reason }));
  }
});

describe('selects', () => {
  const table: [string | undefined, boolean][] = [
    ['spec.nodeName=n1', true],
    ['spec.nodeName==n1', true],
    ['status.phase=Running,spec.nodeName=n1', true],
    ['spec.nodeName!=n1', false],
    ['spec.nodeName=n10', false],
    [undefined, false],
  ];
  for (const [selector, want] of table) {
    it(String(selector), () => assert.equal(selects(selector, 'spec.nodeName', 'n1'), want));
  }
});
