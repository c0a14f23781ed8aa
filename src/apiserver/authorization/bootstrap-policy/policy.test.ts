import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UPSTREAM_CONTROLLER_NAMES } from './controller-roles.js';
import { bootstrapPolicy } from './policy.js';
import { AUTOUPDATE_ANNOTATION, BOOTSTRAP_LABEL } from './rule-builder.js';

const policy = bootstrapPolicy();
const names = (xs: readonly { metadata?: { name?: string } }[]) =>
  xs.map((x) => x.metadata?.name ?? '');
const roleNamed = (name: string) => policy.clusterRoles.find((r) => r.metadata?.name === name);

describe('bootstrap policy (kube-apiserver 1.33)', () => {
  it('every object carries the bootstrapping label and autoupdate annotation', () => {
    for (const o of [
      ...policy.clusterRoles,
      ...policy.clusterRoleBindings,
      ...policy.roles,
      ...policy.roleBindings,
    ]) {
      assert.equal(o.metadata?.labels?.[BOOTSTRAP_LABEL], 'rbac-defaults', o.metadata?.name);
      assert.equal(o.metadata?.annotations?.[AUTOUPDATE_ANNOTATION], 'true', o.metadata?.name);
    }
  });

  it('names are unique per kind and every rule list is sorted as RuleOrDie sorts it', () => {
    for (const list of [policy.clusterRoles, policy.clusterRoleBindings]) {
      assert.equal(new Set(names(list)).size, list.length);
    }
    for (const r of [...policy.clusterRoles, ...policy.roles]) {
      for (const rule of r.rules ?? []) {
        for (const field of [rule.verbs, rule.apiGroups, rule.resources, rule.resourceNames]) {
          if (field !== undefined) assert.deepEqual(field, [...field].sort(), r.metadata?.name);
        }
      }
    }
  });

  it('has upstream 1.33 cluster roles, aggregated ones without rules', () => {
    for (const name of [
      'cluster-admin',
      'admin',
      'edit',
      'view',
      'system:aggregate-to-admin',
      'system:aggregate-to-edit',
      'system:aggregate-to-view',
      'system:discovery',
      'system:basic-user',
      'system:public-info-viewer',
      'system:monitoring',
      'system:node',
      'system:node-proxier',
      'system:kube-scheduler',
      'system:kube-controller-manager',
      'system:volume-scheduler',
      'system:service-account-issuer-discovery',
      'system:certificates.k8s.io:kube-apiserver-client-approver',
    ]) {
      assert.ok(roleNamed(name), name);
    }
    const cases = [
      ['admin', 'rbac.authorization.k8s.io/aggregate-to-admin', undefined],
      ['edit', 'rbac.authorization.k8s.io/aggregate-to-edit', 'aggregate-to-admin'],
      ['view', 'rbac.authorization.k8s.io/aggregate-to-view', 'aggregate-to-edit'],
    ] as const;
    for (const [name, selector, label] of cases) {
      const r = roleNamed(name);
      assert.equal(r?.rules, undefined);
      assert.deepEqual(r?.aggregationRule?.clusterRoleSelectors, [
        { matchLabels: { [selector]: 'true' } },
      ]);
      if (label) assert.equal(r?.metadata?.labels?.[`rbac.authorization.k8s.io/${label}`], 'true');
    }
  });

  it('binds each controller role to the ServiceAccount of its name in kube-system', () => {
    const controllerRoles = names(policy.clusterRoles).filter((n) =>
      n.startsWith('system:controller:'),
    );
    assert.equal(controllerRoles.length, UPSTREAM_CONTROLLER_NAMES.length);
    for (const role of controllerRoles) {
      const b = policy.clusterRoleBindings.find((x) => x.metadata?.name === role);
      assert.deepEqual(b?.roleRef, {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: role,
      });
      assert.deepEqual(b?.subjects, [
        { kind: 'ServiceAccount', namespace: 'kube-system', name: role.slice(18) },
      ]);
    }
    // 1.33's default gates: on (GA/beta) and off (alpha, beta off).
    assert.ok(controllerRoles.includes('system:controller:service-cidrs-controller'));
    assert.ok(controllerRoles.includes('system:controller:selinux-warning-controller'));
    assert.ok(!controllerRoles.includes('system:controller:resource-claim-controller'));
  });

  it('golden spot checks (upstream testdata, 1.33)', () => {
    assert.deepEqual(roleNamed('system:controller:clusterrole-aggregation-controller')?.rules, [
      {
        apiGroups: ['rbac.authorization.k8s.io'],
        resources: ['clusterroles'],
        verbs: ['escalate', 'get', 'list', 'patch', 'update', 'watch'],
      },
    ]);
    assert.deepEqual(roleNamed('system:public-info-viewer')?.rules, [
      {
        nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'],
        verbs: ['get'],
      },
    ]);
    assert.deepEqual(roleNamed('system:controller:daemon-set-controller')?.rules?.[0], {
      apiGroups: ['apps', 'extensions'],
      resources: ['daemonsets'],
      verbs: ['get', 'list', 'watch'],
    });
    const node = policy.clusterRoleBindings.find((b) => b.metadata?.name === 'system:node');
    assert.equal(node?.subjects, undefined, 'system:node binds no one (Node authorizer)');
    assert.deepEqual(
      policy.roleBindings.map((b) => `${b.metadata?.namespace}/${b.metadata?.name}`),
      [
        'kube-public/system:controller:bootstrap-signer',
        'kube-system/system::extension-apiserver-authentication-reader',
        'kube-system/system::leader-locking-kube-controller-manager',
        'kube-system/system::leader-locking-kube-scheduler',
        'kube-system/system:controller:bootstrap-signer',
        'kube-system/system:controller:cloud-provider',
        'kube-system/system:controller:token-cleaner',
      ],
    );
  });
});
