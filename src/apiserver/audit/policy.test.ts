import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { UserInfo } from '../authentication/user.js';
import type { Attributes } from '../authorization/types.js';
import { DEFAULT_AUDIT_POLICY_YAML } from './default-policy.js';
import { levelFor, PolicyError, parsePolicy } from './policy.js';

const alice: UserInfo = { username: 'alice', groups: ['devs', 'system:authenticated'] };

function res(verb: string, resource: string, more: Partial<Attributes> = {}): Attributes {
  return {
    user: alice,
    verb,
    resourceRequest: true,
    apiGroup: '',
    apiVersion: 'v1',
    resource,
    subresource: '',
    namespace: 'default',
    name: '',
    ...more,
  };
}

function path(p: string, verb = 'get', user: UserInfo = alice): Attributes {
  return { user, verb, resourceRequest: false, path: p };
}

const POLICY = parsePolicy(`
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
omitManagedFields: true
rules:
  - level: None
    users: [bob]
  - level: RequestResponse
    userGroups: [auditors]
  - level: None
    nonResourceURLs: ["/healthz*", /version]
  - level: Metadata
    resources:
      - group: ""
        resources: [secrets]
  - level: Request
    resources:
      - group: ""
        resources: [configmaps]
        resourceNames: [special]
  - level: RequestResponse
    resources:
      - group: ""
        resources: ["*/status"]
    omitManagedFields: false
  - level: Request
    resources:
      - group: apps
        resources: ["deployments/*"]
    omitStages: [ResponseStarted]
  - level: Request
    namespaces: [kube-system]
    verbs: [create, update]
  - level: Metadata
    resources:
      - group: rbac.authorization.k8s.io
  - level: Metadata
    nonResourceURLs: ["*"]
`);

describe('levelFor', () => {
  const table: [string, Attributes, string][] = [
    ['users', { ...res('get', 'pods'), user: { username: 'bob', groups: [] } }, 'None'],
    [
      'userGroups',
      { ...res('get', 'secrets'), user: { username: 'carol', groups: ['auditors'] } },
      'RequestResponse',
    ],
    ['nonResourceURLs trailing *', path('/healthz/etcd'), 'None'],
    ['nonResourceURLs exact', path('/version'), 'None'],
    ['nonResourceURLs exact, not a prefix', path('/version/x'), 'Metadata'],
    ['resource', res('get', 'secrets'), 'Metadata'],
    [
      'resource does not match its subresource',
      res('get', 'secrets', { subresource: 'x' }),
      'None',
    ],
    ['resourceNames', res('update', 'configmaps', { name: 'special' }), 'Request'],
    ['resourceNames other name', res('update', 'configmaps', { name: 'other' }), 'None'],
    ['*/subresource', res('update', 'pods', { subresource: 'status' }), 'RequestResponse'],
    ['*/subresource, not the resource', res('update', 'pods'), 'None'],
    [
      'resource/*',
      res('update', 'deployments', { apiGroup: 'apps', subresource: 'scale' }),
      'Request',
    ],
    // Upstream's check does not ask for a subresource: `deployments/*` matches deployments too.
    [
      'resource/* and the resource itself',
      res('update', 'deployments', { apiGroup: 'apps' }),
      'Request',
    ],
    ['namespaces + verbs', res('create', 'pods', { namespace: 'kube-system' }), 'Request'],
    ['namespaces, other verb', res('get', 'pods', { namespace: 'kube-system' }), 'None'],
    [
      'group without resources',
      res('list', 'roles', { apiGroup: 'rbac.authorization.k8s.io' }),
      'Metadata',
    ],
    ['group must match', res('get', 'secrets', { apiGroup: 'other.io' }), 'None'],
    [
      'non-resource rule never matches a resource',
      res('get', 'widgets', { apiGroup: 'x.io' }),
      'None',
    ],
    ['* matches any path', path('/apis'), 'Metadata'],
  ];
  for (const [name, attrs, want] of table) {
    it(name, () => assert.equal(levelFor(attrs, POLICY).level, want));
  }

  it('unions the policy omitStages into each rule and defaults omitManagedFields', () => {
    const d = levelFor(
      res('update', 'deployments', { apiGroup: 'apps', subresource: 'x' }),
      POLICY,
    );
    assert.deepEqual([...d.omitStages].sort(), ['RequestReceived', 'ResponseStarted']);
    assert.equal(d.omitManagedFields, true);
    const s = levelFor(res('update', 'pods', { subresource: 'status' }), POLICY);
    assert.equal(s.omitManagedFields, false);
  });

  it('no rule matching is None with the policy stages', () => {
    const p = parsePolicy(
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Metadata, users: [x]}]',
    );
    assert.deepEqual(levelFor(res('get', 'pods'), p), {
      level: 'None',
      omitStages: [],
      omitManagedFields: false,
    });
  });
});

describe('the default policy', () => {
  const p = parsePolicy(DEFAULT_AUDIT_POLICY_YAML);
  const proxy: UserInfo = { username: 'system:kube-proxy', groups: ['system:authenticated'] };
  const node: UserInfo = { username: 'system:node:n1', groups: ['system:nodes'] };
  const table: [string, Attributes, string][] = [
    ['health', path('/healthz'), 'None'],
    ['readyz', path('/readyz/ping'), 'None'],
    ['livez', path('/livez'), 'None'],
    ['version', path('/version'), 'None'],
    ['kube-proxy watch', { ...res('watch', 'services'), user: proxy }, 'None'],
    ['kube-proxy get', { ...res('get', 'services'), user: proxy }, 'Metadata'],
    [
      'node lease renew',
      {
        ...res('update', 'leases', {
          apiGroup: 'coordination.k8s.io',
          namespace: 'kube-node-lease',
        }),
        user: node,
      },
      'None',
    ],
    ['events read', res('list', 'events'), 'None'],
    ['secret create', res('create', 'secrets'), 'Metadata'],
    ['secret get', res('get', 'secrets'), 'Metadata'],
    ['configmap update', res('update', 'configmaps'), 'Metadata'],
    ['token request', res('create', 'serviceaccounts', { subresource: 'token' }), 'Metadata'],
    [
      'token review',
      res('create', 'tokenreviews', { apiGroup: 'authentication.k8s.io', namespace: '' }),
      'Metadata',
    ],
    ['pod create', res('create', 'pods'), 'Request'],
    ['deployment patch', res('patch', 'deployments', { apiGroup: 'apps' }), 'Request'],
    ['pod get', res('get', 'pods'), 'Metadata'],
    ['discovery', path('/apis'), 'Metadata'],
  ];
  for (const [name, attrs, want] of table) {
    it(name, () => assert.equal(levelFor(attrs, p).level, want));
  }
  it('omits RequestReceived', () => {
    assert.deepEqual(levelFor(res('create', 'pods'), p).omitStages, ['RequestReceived']);
  });
});

describe('parsePolicy refuses what upstream refuses', () => {
  const head = 'apiVersion: audit.k8s.io/v1\nkind: Policy\n';
  const table: [string, string, string][] = [
    ['no rules', `${head}rules: []`, 'loaded illegal policy with 0 rules'],
    ['no level', `${head}rules: [{users: [a]}]`, 'rules[0].level: Required value'],
    [
      'unknown level',
      `${head}rules: [{level: Everything}]`,
      'rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"',
    ],
    [
      'URL without slash',
      `${head}rules: [{level: None, nonResourceURLs: [healthz]}]`,
      `rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character`,
    ],
    [
      'inner wildcard',
      `${head}rules: [{level: None, nonResourceURLs: ["/a*b"]}]`,
      `rules[0].nonResourceURLs[0]: Invalid value: "/a*b": non-resource URL wildcards '*' must be the final character of the rule`,
    ],
    [
      'resources and URLs',
      `${head}rules: [{level: None, nonResourceURLs: [/x], namespaces: [a]}]`,
      'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs',
    ],
    [
      'resourceNames without resources',
      `${head}rules: [{level: None, resources: [{group: "", resourceNames: [a]}]}]`,
      'rules[0].resources.resourceNames: Invalid value: []string{"a"}: using resourceNames requires at least one resource',
    ],
    [
      'bad stage',
      `${head}omitStages: [Done]\nrules: [{level: None}]`,
      'omitStages[0]: Invalid value: "Done": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic',
    ],
    [
      'two errors aggregate',
      `${head}rules: [{}, {level: X}]`,
      '[rules[0].level: Required value, rules[1].level: Unsupported value: "X": supported values: "None", "Metadata", "Request", "RequestResponse"]',
    ],
    [
      'old version',
      'apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: [{level: None}]',
      'failed decoding: no kind "Policy" is registered for version "audit.k8s.io/v1beta1" in scheme "pkg/audit/scheme.go:29"',
    ],
  ];
  for (const [name, text, message] of table) {
    it(name, () => assert.throws(() => parsePolicy(text), new PolicyError(message)));
  }
  it('a document without kind', () => {
    assert.throws(
      () => parsePolicy('rules: []'),
      /^PolicyError: failed decoding: Object 'Kind' is missing/,
    );
  });
  it('reads JSON too', () => {
    const p = parsePolicy(
      '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"Metadata"}]}',
    );
    assert.equal(levelFor(res('get', 'pods'), p).level, 'Metadata');
  });
});
