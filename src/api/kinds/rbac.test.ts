import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { builtinPrinter } from '../printers/registry.js';
import type { ResourceDefinition } from '../resource.js';
import { simulateCreate, simulateUpdate } from './harness.js';
import {
  clusterRoleBindingResource,
  clusterRoleResource,
  RBAC_GROUP,
  roleBindingResource,
  roleResource,
} from './rbac.js';

type Fields = Record<string, unknown>;
const API_VERSION = `${RBAC_GROUP}/v1`;
const role = (fields: Fields = {}): KubeObject => ({
  apiVersion: API_VERSION,
  kind: 'Role',
  metadata: { name: 'pod-reader', namespace: 'default' },
  rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }],
  ...fields,
});
const clusterRole = (fields: Fields = {}): KubeObject => ({
  ...role(fields),
  kind: 'ClusterRole',
  metadata: { name: 'system:pod-reader' },
});
const roleRef = { apiGroup: RBAC_GROUP, kind: 'Role', name: 'pod-reader' };
const binding = (fields: Fields = {}): KubeObject => ({
  apiVersion: API_VERSION,
  kind: 'RoleBinding',
  metadata: { name: 'read-pods', namespace: 'default' },
  roleRef,
  subjects: [{ kind: 'User', apiGroup: RBAC_GROUP, name: 'jane' }],
  ...fields,
});
const clusterBinding = (fields: Fields = {}): KubeObject => ({
  ...binding({ roleRef: { ...roleRef, kind: 'ClusterRole' }, ...fields }),
  kind: 'ClusterRoleBinding',
  metadata: { name: 'read-pods-global' },
});

interface Case {
  readonly name: string;
  readonly fields: Fields;
  readonly want: string[];
}

function table(
  title: string,
  def: ResourceDefinition,
  make: (f: Fields) => KubeObject,
  cases: Case[],
) {
  describe(title, () => {
    for (const c of cases) {
      it(`validates: ${c.name}`, () => {
        assert.deepEqual(simulateCreate(def, make(c.fields)).messages, c.want);
      });
    }
  });
}

const resourceRules: Case[] = [
  { name: 'valid', fields: {}, want: [] },
  { name: 'no rules', fields: { rules: [] }, want: [] },
  {
    name: 'verbs, apiGroups and resources required',
    fields: { rules: [{}] },
    want: [
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[0].resources: Required value: resource rules must supply at least one resource',
    ],
  },
  {
    name: 'empty verbs in a later rule',
    fields: {
      rules: [
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] },
        { apiGroups: [''], resources: ['pods'], verbs: [] },
      ],
    },
    want: ['rules[1].verbs: Required value: verbs must contain at least one value'],
  },
];

table('Role', roleResource, role, [
  ...resourceRules,
  {
    name: 'no non-resource URLs in a namespaced rule',
    fields: { rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }] },
    want: [
      'rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs',
    ],
  },
]);

table('ClusterRole', clusterRoleResource, clusterRole, [
  ...resourceRules,
  {
    name: 'non-resource URLs allowed',
    fields: { rules: [{ nonResourceURLs: ['/healthz', '/metrics'], verbs: ['get'] }] },
    want: [],
  },
  {
    name: 'not both resources and non-resource URLs',
    fields: { rules: [{ nonResourceURLs: ['/healthz'], resources: ['pods'], verbs: ['get'] }] },
    want: [
      'rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: rules cannot apply to both regular resources and non-resource URLs',
    ],
  },
  {
    name: 'aggregation rule with a selector',
    fields: {
      rules: [],
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/agg': 'true' } }] },
    },
    want: [],
  },
  {
    name: 'aggregation rule without selectors',
    fields: { aggregationRule: {} },
    want: [
      'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
    ],
  },
  {
    name: 'aggregation rule with a bad selector',
    fields: {
      aggregationRule: {
        clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'In' }] }],
      },
    },
    want: [
      "aggregationRule.clusterRoleSelectors[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ],
  },
]);

const commonBindingCases: Case[] = [
  {
    name: 'roleRef required',
    fields: { roleRef: undefined },
    // The defaulted apiGroup passes; kind is then replaced per binding kind below.
    want: ['roleRef.kind: Unsupported value: ""', 'roleRef.name: Required value'],
  },
  {
    name: 'roleRef apiGroup',
    fields: { roleRef: { apiGroup: 'example.com', kind: 'ClusterRole', name: 'view' } },
    want: [
      'roleRef.apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"',
    ],
  },
  {
    name: 'roleRef name is a path segment',
    fields: { roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: 'a/b' } },
    want: ['roleRef.name: Invalid value: "a/b": may not contain \'/\''],
  },
  {
    name: 'subject kinds',
    fields: { subjects: [{ kind: 'Robot', name: 'r2' }] },
    want: [
      'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
    ],
  },
  {
    name: 'subject name required',
    fields: { subjects: [{ kind: 'Group', apiGroup: RBAC_GROUP }] },
    want: ['subjects[0].name: Required value'],
  },
  {
    name: 'User and Group subjects in the rbac group',
    fields: {
      subjects: [
        { kind: 'User', apiGroup: 'example.com', name: 'jane' },
        { kind: 'Group', apiGroup: 'v1', name: 'devs' },
      ],
    },
    want: [
      'subjects[0].apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"',
      'subjects[1].apiGroup: Unsupported value: "v1": supported values: "rbac.authorization.k8s.io"',
    ],
  },
  {
    name: 'ServiceAccount subjects in the core group, DNS subdomain names',
    fields: {
      subjects: [{ kind: 'ServiceAccount', apiGroup: RBAC_GROUP, name: 'Bad_SA', namespace: 'x' }],
    },
    want: [
      "subjects[0].name: Invalid value: \"Bad_SA\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'subjects[0].apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: ""',
    ],
  },
];

table('RoleBinding', roleBindingResource, binding, [
  { name: 'valid', fields: {}, want: [] },
  {
    name: 'may refer to a ClusterRole',
    fields: { roleRef: { ...roleRef, kind: 'ClusterRole' } },
    want: [],
  },
  {
    name: 'roleRef kind',
    fields: { roleRef: { ...roleRef, kind: 'Pod' } },
    want: ['roleRef.kind: Unsupported value: "Pod": supported values: "Role", "ClusterRole"'],
  },
  {
    name: 'ServiceAccount without namespace',
    fields: { subjects: [{ kind: 'ServiceAccount', name: 'default' }] },
    want: [],
  },
  ...commonBindingCases.map((c) =>
    c.name === 'roleRef required'
      ? {
          ...c,
          want: c.want.map((w) =>
            w.startsWith('roleRef.kind')
              ? 'roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"'
              : w,
          ),
        }
      : c,
  ),
]);

table('ClusterRoleBinding', clusterRoleBindingResource, clusterBinding, [
  { name: 'valid', fields: {}, want: [] },
  {
    name: 'may only refer to a ClusterRole',
    fields: { roleRef },
    want: ['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"'],
  },
  {
    name: 'ServiceAccount requires a namespace',
    fields: { subjects: [{ kind: 'ServiceAccount', name: 'default' }] },
    want: ['subjects[0].namespace: Required value'],
  },
  ...commonBindingCases.map((c) =>
    c.name === 'roleRef required'
      ? {
          ...c,
          want: c.want.map((w) =>
            w.startsWith('roleRef.kind')
              ? 'roleRef.kind: Unsupported value: "": supported values: "ClusterRole"'
              : w,
          ),
        }
      : c,
  ),
]);

describe('RBAC names and defaults', () => {
  it('accepts path-segment names (colons) and rejects slashes', () => {
    assert.deepEqual(simulateCreate(clusterRoleResource, clusterRole()).messages, []);
    const bad = { ...role(), metadata: { name: 'a/b', namespace: 'default' } };
    assert.deepEqual(simulateCreate(roleResource, bad).messages, [
      'metadata.name: Invalid value: "a/b": may not contain \'/\'',
    ]);
  });

  it('defaults roleRef.apiGroup and User/Group subject apiGroups, not ServiceAccounts', () => {
    const { object, errors } = simulateCreate(
      roleBindingResource,
      binding({
        roleRef: { kind: 'Role', name: 'pod-reader' },
        subjects: [
          { kind: 'User', name: 'jane' },
          { kind: 'Group', name: 'devs' },
          { kind: 'ServiceAccount', name: 'default', namespace: 'default' },
        ],
      }),
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(object.roleRef, roleRef);
    assert.deepEqual(object.subjects, [
      { kind: 'User', name: 'jane', apiGroup: RBAC_GROUP },
      { kind: 'Group', name: 'devs', apiGroup: RBAC_GROUP },
      { kind: 'ServiceAccount', name: 'default', namespace: 'default' },
    ]);
  });

  for (const [def, make] of [
    [roleBindingResource, binding],
    [clusterRoleBindingResource, clusterBinding],
  ] as const) {
    it(`keeps ${def.kind} roleRef immutable, subjects mutable`, () => {
      const old = simulateCreate(def, make()).object;
      const subjects = [{ kind: 'Group', apiGroup: RBAC_GROUP, name: 'devs' }];
      assert.deepEqual(simulateUpdate(def, { ...old, subjects }, old).messages, []);
      const next = { ...old, roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: 'edit' } };
      assert.deepEqual(simulateUpdate(def, next, old).messages, [
        'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
      ]);
    });
  }

  it('stores aggregation rules as written (no aggregation controller)', () => {
    const aggregationRule = { clusterRoleSelectors: [{ matchLabels: { agg: 'true' } }] };
    const { object } = simulateCreate(clusterRoleResource, clusterRole({ aggregationRule }));
    assert.deepEqual(object.aggregationRule, aggregationRule);
    assert.deepEqual(object.rules, clusterRole().rules);
  });
});

describe('RBAC printers', () => {
  const now = new Date('2026-01-01T01:00:00Z');
  const created = { creationTimestamp: '2026-01-01T00:00:00Z' };

  it('prints bindings as NAME, ROLE, AGE and wide USERS, GROUPS, SERVICEACCOUNTS', () => {
    for (const [group, kind] of [
      [RBAC_GROUP, 'RoleBinding'],
      [RBAC_GROUP, 'ClusterRoleBinding'],
    ] as const) {
      const printer = builtinPrinter(group, kind);
      assert.deepEqual(
        printer.columns.map((c) => [c.name, c.priority]),
        [
          ['Name', 0],
          ['Role', 0],
          ['Age', 0],
          ['Users', 1],
          ['Groups', 1],
          ['ServiceAccounts', 1],
        ],
      );
      const obj = binding({
        metadata: { name: 'rb', namespace: 'default', ...created },
        roleRef: { ...roleRef, kind: 'ClusterRole', name: 'view' },
        subjects: [
          { kind: 'User', name: 'jane' },
          { kind: 'User', name: 'joe' },
          { kind: 'Group', name: 'devs' },
          { kind: 'ServiceAccount', name: 'sa', namespace: 'ops' },
          { kind: 'Robot', name: 'r2' },
        ],
      });
      assert.deepEqual(printer.row(obj, now).cells, [
        'rb',
        'ClusterRole/view',
        '60m',
        'jane, joe',
        'devs',
        'ops/sa',
      ]);
    }
  });

  it('prints roles with the default table, and never throws on odd objects', () => {
    for (const kind of ['Role', 'ClusterRole']) {
      const printer = builtinPrinter(RBAC_GROUP, kind);
      assert.deepEqual(
        printer.columns.map((c) => c.name),
        ['Name', 'Created At'],
      );
      const obj = { ...role(), metadata: { name: 'r', ...created } };
      assert.deepEqual(printer.row(obj, now).cells, ['r', '2026-01-01T00:00:00Z']);
    }
    const odd = { metadata: { name: 'x' }, roleRef: 'nope', subjects: [1, null, { kind: 7 }] };
    assert.deepEqual(builtinPrinter(RBAC_GROUP, 'RoleBinding').row(odd, now).cells.slice(1, 2), [
      '/',
    ]);
  });
});
